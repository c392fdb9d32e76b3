// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IUniswapV3SwapCallback
/// @notice What a Uniswap V3 pool calls on its swapper to be paid.
interface IUniswapV3SwapCallback {
    /// @notice Called by the pool during `swap`: the swapper pays the pool what it owes.
    /// @param amount0Delta The pool's token0 balance change (positive: what the swapper must pay).
    /// @param amount1Delta The pool's token1 balance change (positive: what the swapper must pay).
    /// @param data What the swapper passed to `swap`.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}
