// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IUniswapV2Callee} from "../../src/sources/v2/interfaces/IUniswapV2Callee.sol";
import {IStablePoolCallee} from "../../src/sources/stable/interfaces/IStablePoolCallee.sol";

/// @notice A flash-swap recipient for both pool kinds: records the callback and pays the pool the configured
/// amounts from its own balance.
contract FlashBorrower is IUniswapV2Callee, IStablePoolCallee {
    error RepaymentFailed();

    IERC20 public token0;
    IERC20 public token1;
    uint256 public repay0;
    uint256 public repay1;

    uint256 public calls;
    address public lastPool;
    address public lastSender;
    uint256 public lastAmount0Out;
    uint256 public lastAmount1Out;
    bytes public lastData;

    function configure(IERC20 token0_, IERC20 token1_, uint256 repay0_, uint256 repay1_) external {
        (token0, token1, repay0, repay1) = (token0_, token1_, repay0_, repay1_);
    }

    function uniswapV2Call(address sender, uint256 amount0Out, uint256 amount1Out, bytes calldata data) external {
        _handle(sender, amount0Out, amount1Out, data);
    }

    function hook(address sender, uint256 amount0Out, uint256 amount1Out, bytes calldata data) external {
        _handle(sender, amount0Out, amount1Out, data);
    }

    function _handle(address sender, uint256 amount0Out, uint256 amount1Out, bytes calldata data) private {
        ++calls;
        (lastPool, lastSender, lastAmount0Out, lastAmount1Out, lastData) =
        (msg.sender, sender, amount0Out, amount1Out, data);
        if (repay0 > 0 && !token0.transfer(msg.sender, repay0)) revert RepaymentFailed();
        if (repay1 > 0 && !token1.transfer(msg.sender, repay1)) revert RepaymentFailed();
    }
}

/// @notice A swap recipient whose callback calls back into the pool with the configured calldata and
/// bubbles up any revert.
contract ReentrantCallee is IUniswapV2Callee, IStablePoolCallee {
    bytes public reentry;

    function setReentry(bytes calldata reentry_) external {
        reentry = reentry_;
    }

    function uniswapV2Call(address, uint256, uint256, bytes calldata) external {
        _reenter();
    }

    function hook(address, uint256, uint256, bytes calldata) external {
        _reenter();
    }

    function _reenter() private {
        (bool success, bytes memory returned) = msg.sender.call(reentry);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
    }
}
