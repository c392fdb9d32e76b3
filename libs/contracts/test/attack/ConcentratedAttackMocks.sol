// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IUniswapV3SwapCallback} from "../../src/sources/v3/interfaces/IUniswapV3SwapCallback.sol";
import {IAlgebraSwapCallback} from "../../src/sources/algebra/interfaces/IAlgebraSwapCallback.sol";

/// @notice Calls a router's swap callback from its own address, asking for a chosen amount, and bubbles up the
/// revert: a fake pool trying to be paid (called directly, or from a token hook while a real pool is active).
contract CallbackSpoofer {
    function spoof(address router, int256 amount0Delta, int256 amount1Delta, bool algebra) external {
        if (algebra) IAlgebraSwapCallback(router).algebraSwapCallback(amount0Delta, amount1Delta, "");
        else IUniswapV3SwapCallback(router).uniswapV3SwapCallback(amount0Delta, amount1Delta, "");
    }

    /// @notice What the router answered the last `spoofAndRecord` with (its revert data; empty if it paid).
    bytes public lastRevert;
    /// @notice How many times `spoofAndRecord` ran.
    uint256 public attempts;

    /// @notice As `spoof`, but keeps the router's revert instead of bubbling it, so the surrounding call (a token
    /// transfer inside a real pool's swap) goes on: the attack is tried without making the route fail.
    function spoofAndRecord(address router, int256 amount0Delta, int256 amount1Delta, bool algebra) external {
        ++attempts;
        bytes memory call_ = algebra
            ? abi.encodeCall(IAlgebraSwapCallback.algebraSwapCallback, (amount0Delta, amount1Delta, ""))
            : abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (amount0Delta, amount1Delta, ""));
        (bool success, bytes memory returned) = router.call(call_);
        lastRevert = success ? bytes("") : returned;
    }
}

/// @notice A factory an attacker controls (or a fork's compromised one) that vouches for whatever pool it is told
/// to, under both kinds' lookups.
contract MaliciousConcentratedFactory {
    mapping(address => mapping(address => address)) internal _pools;

    function setPool(address tokenA, address tokenB, address pool) external {
        _pools[tokenA][tokenB] = pool;
        _pools[tokenB][tokenA] = pool;
    }

    function getPool(address tokenA, address tokenB, uint24) external view returns (address) {
        return _pools[tokenA][tokenB];
    }

    function poolByPair(address tokenA, address tokenB) external view returns (address) {
        return _pools[tokenA][tokenB];
    }
}

/// @notice A pool with V3's and Algebra's `swap` and `fee` that misbehaves in its swap callback: asks for more than
/// the swap's input, asks in the wrong token, asks twice, asks for less or not at all. It pays its output from its
/// own balance (so a route reaches the router's checks after the swap).
contract MaliciousConcentratedPool {
    enum Mode {
        AskMore,
        AskOutputToken,
        AskTwice,
        AskLess,
        NeverAsk
    }

    address public immutable token0;
    address public immutable token1;
    uint24 public constant fee = 3000;
    bool public immutable algebra;

    Mode public mode;
    uint256 public askAmount;

    constructor(address tokenA, address tokenB, bool algebra_) {
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        algebra = algebra_;
    }

    /// @notice Sets the misbehaviour; `amount` is what AskMore asks for.
    function arm(Mode mode_, uint256 amount) external {
        mode = mode_;
        askAmount = amount;
    }

    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160, bytes calldata)
        external
        returns (int256 amount0, int256 amount1)
    {
        int256 ask = amountSpecified;
        // forge-lint: disable-next-line(unsafe-typecast)
        if (mode == Mode.AskMore) ask = int256(askAmount);
        if (mode == Mode.AskLess) ask = amountSpecified / 2;
        (amount0, amount1) = zeroForOne ? (ask, -int256(1 ether)) : (-int256(1 ether), ask);
        if (mode == Mode.AskOutputToken) (amount0, amount1) = zeroForOne ? (int256(0), ask) : (ask, int256(0));
        address tokenOut = zeroForOne ? token1 : token0;
        (bool paid,) = tokenOut.call(abi.encodeWithSignature("transfer(address,uint256)", recipient, 1 ether));
        require(paid, "output");
        if (mode == Mode.NeverAsk) return (amount0, amount1);
        _callback(amount0, amount1);
        if (mode == Mode.AskTwice) _callback(amount0, amount1);
    }

    function _callback(int256 amount0, int256 amount1) internal {
        if (algebra) IAlgebraSwapCallback(msg.sender).algebraSwapCallback(amount0, amount1, "");
        else IUniswapV3SwapCallback(msg.sender).uniswapV3SwapCallback(amount0, amount1, "");
    }
}
