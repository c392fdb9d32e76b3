// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Poses as a V2 pair that no factory created: it quotes generous reserves and keeps whatever it is
/// paid without ever paying out.
contract FakePair {
    address public token0;
    address public token1;
    uint256 public swapCalls;

    constructor(address tokenA, address tokenB) {
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
    }

    function getReserves() external pure returns (uint112, uint112, uint32) {
        return (1, 1e30, 0);
    }

    function getAmountOut(uint256, address) external pure returns (uint256) {
        return 1e30;
    }

    function swap(uint256, uint256, address, bytes calldata) external {
        ++swapCalls;
    }
}

/// @notice An ERC20 that, once armed, calls a preset target with preset calldata on every transfer (not mints)
/// and bubbles up the target's revert: a token callback trying to re-enter the router.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public payload;

    constructor() ERC20("Reentrant", "REENTER") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        address target_ = target;
        if (from == address(0) || target_ == address(0)) return;
        (bool success, bytes memory returned) = target_.call(payload);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
    }
}

/// @notice Takes native coin and, when armed, calls a preset target with preset calldata from its receive hook
/// (bubbling up the revert): a native recipient trying to re-enter the router.
contract ReentrantRecipient {
    address public target;
    bytes public payload;

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    receive() external payable {
        address target_ = target;
        if (target_ == address(0)) return;
        (bool success, bytes memory returned) = target_.call(payload);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
    }
}

/// @notice Has no receive hook, so native coin sent to it bounces.
contract NoReceive {}
