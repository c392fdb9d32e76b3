// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IStablePoolCallee
/// @notice The flash-swap callback of a stable pool (Solidly/Velodrome `hook`).
interface IStablePoolCallee {
    /// @notice Called by a pool on the swap recipient after the outputs were sent and before the pool checks
    /// that it was paid; the recipient pays the pool here.
    /// @param sender The caller of `swap`.
    /// @param amount0Out The amount of token0 sent.
    /// @param amount1Out The amount of token1 sent.
    /// @param data The data given to `swap`.
    function hook(address sender, uint256 amount0Out, uint256 amount1Out, bytes calldata data) external;
}
