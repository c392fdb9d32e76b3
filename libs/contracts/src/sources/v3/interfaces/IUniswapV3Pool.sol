// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IUniswapV3Pool
/// @notice The part of a Uniswap V3 pool (and of its forks' pools) that RouterV2 and the position minter use.
interface IUniswapV3Pool {
    /// @notice The token sorted first (lower address).
    function token0() external view returns (address);

    /// @notice The token sorted second.
    function token1() external view returns (address);

    /// @notice The pool's fee tier in hundredths of a basis point.
    function fee() external view returns (uint24);

    /// @notice Swaps token0 for token1 or the reverse; the caller pays in `uniswapV3SwapCallback`.
    /// @param recipient Who receives the output.
    /// @param zeroForOne True to sell token0 for token1.
    /// @param amountSpecified The exact input when positive, the exact output when negative.
    /// @param sqrtPriceLimitX96 The price (Q64.96 square root) the swap stops at.
    /// @param data Passed to the callback.
    /// @return amount0 The pool's token0 balance change (positive: it received).
    /// @return amount1 The pool's token1 balance change.
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);

    /// @notice Adds liquidity to a position; the caller pays in `uniswapV3MintCallback`.
    /// @param recipient The position's owner.
    /// @param tickLower The position's lower tick.
    /// @param tickUpper The position's upper tick.
    /// @param amount The liquidity to add.
    /// @param data Passed to the callback.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}
