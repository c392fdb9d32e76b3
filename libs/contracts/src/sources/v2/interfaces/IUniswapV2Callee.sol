// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IUniswapV2Callee
/// @notice The flash-swap callback of a Uniswap V2 pair.
interface IUniswapV2Callee {
    /// @notice Called by a pair on the swap recipient after the outputs were sent and before the pair checks
    /// that it was paid; the recipient pays the pair here.
    /// @param sender The caller of `swap`.
    /// @param amount0Out The amount of token0 sent.
    /// @param amount1Out The amount of token1 sent.
    /// @param data The data given to `swap`.
    function uniswapV2Call(address sender, uint256 amount0Out, uint256 amount1Out, bytes calldata data) external;
}
