// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/// @title IUniswapV2Pair
/// @notice The Uniswap V2 pair interface (without permit), with the swap fee in basis points of the input set
/// per factory (`swapFeeBps`) instead of the fixed 0.3%. The pair is its own ERC20 share token.
interface IUniswapV2Pair is IERC20Metadata {
    /// @notice Only the factory may initialize the pair.
    error Forbidden();

    /// @notice A balance does not fit in the 112-bit reserves.
    error Overflow();

    /// @notice A deposit would mint no shares.
    error InsufficientLiquidityMinted();

    /// @notice A withdrawal would pay out nothing of one token.
    error InsufficientLiquidityBurned();

    /// @notice `swap` asked for no output.
    error InsufficientOutputAmount();

    /// @notice `swap` was paid nothing.
    error InsufficientInputAmount();

    /// @notice `swap` asked for as much as the reserve or more.
    error InsufficientLiquidity();

    /// @notice `swap` was asked to pay one of the pair's own tokens.
    error InvalidTo();

    /// @notice The swap would leave the fee-adjusted product of balances below the product of reserves.
    error K();

    /// @notice Liquidity was added.
    /// @param sender The caller of `mint`.
    /// @param amount0 The token0 added.
    /// @param amount1 The token1 added.
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);

    /// @notice Liquidity was removed.
    /// @param sender The caller of `burn`.
    /// @param amount0 The token0 paid out.
    /// @param amount1 The token1 paid out.
    /// @param to The recipient.
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);

    /// @notice A swap happened.
    /// @param sender The caller of `swap`.
    /// @param amount0In The token0 paid in.
    /// @param amount1In The token1 paid in.
    /// @param amount0Out The token0 paid out.
    /// @param amount1Out The token1 paid out.
    /// @param to The recipient.
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );

    /// @notice The reserves were set.
    /// @param reserve0 The new reserve of token0.
    /// @param reserve1 The new reserve of token1.
    event Sync(uint112 reserve0, uint112 reserve1);

    /// @notice Shares locked for good at the zero address by the first deposit.
    /// @return Always 1000.
    function MINIMUM_LIQUIDITY() external view returns (uint256);

    /// @notice The factory that created the pair.
    /// @return The factory.
    function factory() external view returns (address);

    /// @notice The token sorted first (lower address).
    /// @return The token.
    function token0() external view returns (address);

    /// @notice The token sorted second.
    /// @return The token.
    function token1() external view returns (address);

    /// @notice The swap fee in basis points of the input, fixed by the factory.
    /// @return The fee.
    function swapFeeBps() external view returns (uint256);

    /// @notice The reserves and the time they were last set.
    /// @return reserve0 The reserve of token0.
    /// @return reserve1 The reserve of token1.
    /// @return blockTimestampLast The block timestamp (mod 2^32) of the last update.
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);

    /// @notice The time-weighted sum of the token0 price in token1 (UQ112x112, wraps around).
    /// @return The accumulator.
    function price0CumulativeLast() external view returns (uint256);

    /// @notice The time-weighted sum of the token1 price in token0 (UQ112x112, wraps around).
    /// @return The accumulator.
    function price1CumulativeLast() external view returns (uint256);

    /// @notice `reserve0 * reserve1` after the last liquidity event while the protocol fee is on.
    /// @return The product.
    function kLast() external view returns (uint256);

    /// @notice Mints shares for the tokens sent to the pair since the last update.
    /// @param to The recipient of the shares.
    /// @return liquidity The shares minted.
    function mint(address to) external returns (uint256 liquidity);

    /// @notice Burns the shares sent to the pair and pays out their part of both balances.
    /// @param to The recipient of the tokens.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function burn(address to) external returns (uint256 amount0, uint256 amount1);

    /// @notice Pays out the asked amounts, calls `uniswapV2Call` on `to` if `data` is not empty, then requires
    /// that the pair was paid enough for the fee-adjusted product of balances not to fall below the product
    /// of reserves: `(b0*10000 - in0*fee) * (b1*10000 - in1*fee) >= r0*r1*10000^2`.
    /// @param amount0Out The token0 to pay.
    /// @param amount1Out The token1 to pay.
    /// @param to The recipient.
    /// @param data Passed to the callback; empty for a plain swap.
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;

    /// @notice Sends `to` whatever the balances hold above the reserves.
    /// @param to The recipient.
    function skim(address to) external;

    /// @notice Sets the reserves to the balances.
    function sync() external;

    /// @notice Sets the tokens once, right after creation. Only the factory.
    /// @param token0 The token sorted first.
    /// @param token1 The token sorted second.
    function initialize(address token0, address token1) external;
}
