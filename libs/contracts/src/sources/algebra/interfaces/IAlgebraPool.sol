// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAlgebraPool
/// @notice The part of an Algebra Integral pool that RouterV2 and the position minter use.
interface IAlgebraPool {
    /// @notice The token sorted first (lower address).
    function token0() external view returns (address);

    /// @notice The token sorted second.
    function token1() external view returns (address);

    /// @notice Swaps token0 for token1 or the reverse; the caller pays in `algebraSwapCallback`.
    /// @param recipient Who receives the output.
    /// @param zeroToOne True to sell token0 for token1.
    /// @param amountRequired The exact input when positive, the exact output when negative.
    /// @param limitSqrtPrice The price (Q64.96 square root) the swap stops at.
    /// @param data Passed to the callback (and to the pool's plugin).
    /// @return amount0 The pool's token0 balance change (positive: it received).
    /// @return amount1 The pool's token1 balance change.
    function swap(address recipient, bool zeroToOne, int256 amountRequired, uint160 limitSqrtPrice, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);

    /// @notice Adds liquidity to a position; the caller pays in `algebraMintCallback`.
    /// @param leftoversRecipient Who receives what was paid above the amounts due.
    /// @param recipient The position's owner.
    /// @param bottomTick The position's lower tick.
    /// @param topTick The position's upper tick.
    /// @param liquidityDesired The liquidity to add.
    /// @param data Passed to the callback.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    /// @return liquidityActual The liquidity added.
    function mint(
        address leftoversRecipient,
        address recipient,
        int24 bottomTick,
        int24 topTick,
        uint128 liquidityDesired,
        bytes calldata data
    ) external returns (uint256 amount0, uint256 amount1, uint128 liquidityActual);
}
