// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/// @title IStablePool
/// @notice A Solidly/Velodrome-style stable pool: invariant x^3*y + y^3*x on balances normalised to 18
/// decimals, swap fee in basis points of the input (`swapFeeBps`, fixed by the factory) that stays in the
/// pool. The pool is its own ERC20 share token. Events follow Velodrome V2.
interface IStablePool is IERC20Metadata {
    /// @notice The first deposit's two amounts are not equal once normalised to 18 decimals.
    error DepositsNotEqual();

    /// @notice The first deposit is too small (its invariant is at most `MINIMUM_K`).
    error BelowMinimumK();

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

    /// @notice `swap` was asked to pay one of the pool's own tokens.
    error InvalidTo();

    /// @notice The swap would leave the invariant of the balances net of fees below that of the reserves.
    error K();

    /// @notice `getAmountOut` was asked about a token the pool does not hold.
    /// @param token The token given.
    error InvalidToken(address token);

    /// @notice A token has more than 18 decimals, which the normalisation does not support.
    /// @param token The token.
    /// @param decimals Its decimals.
    error UnsupportedDecimals(address token, uint8 decimals);

    /// @notice Swap fees were taken from the input and left in the pool.
    /// @param sender The caller of `swap`.
    /// @param amount0 The fee in token0.
    /// @param amount1 The fee in token1.
    event Fees(address indexed sender, uint256 amount0, uint256 amount1);

    /// @notice Liquidity was added.
    /// @param sender The caller of `mint`.
    /// @param amount0 The token0 added.
    /// @param amount1 The token1 added.
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);

    /// @notice Liquidity was removed.
    /// @param sender The caller of `burn`.
    /// @param to The recipient.
    /// @param amount0 The token0 paid out.
    /// @param amount1 The token1 paid out.
    event Burn(address indexed sender, address indexed to, uint256 amount0, uint256 amount1);

    /// @notice A swap happened.
    /// @param sender The caller of `swap`.
    /// @param to The recipient.
    /// @param amount0In The token0 paid in.
    /// @param amount1In The token1 paid in.
    /// @param amount0Out The token0 paid out.
    /// @param amount1Out The token1 paid out.
    event Swap(
        address indexed sender,
        address indexed to,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out
    );

    /// @notice The reserves were set.
    /// @param reserve0 The new reserve of token0.
    /// @param reserve1 The new reserve of token1.
    event Sync(uint256 reserve0, uint256 reserve1);

    /// @notice Shares locked for good at the zero address by the first deposit.
    /// @return Always 1000.
    function MINIMUM_LIQUIDITY() external view returns (uint256);

    /// @notice The factory that created the pool.
    /// @return The factory.
    function factory() external view returns (address);

    /// @notice The token sorted first (lower address).
    /// @return The token.
    function token0() external view returns (address);

    /// @notice The token sorted second.
    /// @return The token.
    function token1() external view returns (address);

    /// @notice Both tokens.
    /// @return The token sorted first.
    /// @return The token sorted second.
    function tokens() external view returns (address, address);

    /// @notice Whether the pool uses the stable invariant; always true.
    /// @return True.
    function stable() external view returns (bool);

    /// @notice The swap fee in basis points of the input, fixed by the factory.
    /// @return The fee.
    function swapFeeBps() external view returns (uint256);

    /// @notice Everything an off-chain quoter needs in one call (Solidly/Velodrome `metadata`).
    /// @return dec0 10^(decimals of token0).
    /// @return dec1 10^(decimals of token1).
    /// @return r0 The reserve of token0.
    /// @return r1 The reserve of token1.
    /// @return st Always true.
    /// @return t0 The token sorted first.
    /// @return t1 The token sorted second.
    function metadata()
        external
        view
        returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1);

    /// @notice The reserves and the time they were last set.
    /// @return reserve0 The reserve of token0.
    /// @return reserve1 The reserve of token1.
    /// @return blockTimestampLast The block timestamp of the last update.
    function getReserves() external view returns (uint256 reserve0, uint256 reserve1, uint256 blockTimestampLast);

    /// @notice The time-weighted sum of reserve0 (Solidly's TWAP accumulator).
    /// @return The accumulator.
    function reserve0CumulativeLast() external view returns (uint256);

    /// @notice The time-weighted sum of reserve1.
    /// @return The accumulator.
    function reserve1CumulativeLast() external view returns (uint256);

    /// @notice The output of a swap of `amountIn` of `tokenIn` at the current reserves, fee included; exactly
    /// what `swap` lets a caller take for that input. Zero while the pool is empty.
    /// @param amountIn The input amount.
    /// @param tokenIn token0 or token1.
    /// @return The output amount of the other token.
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);

    /// @notice Mints shares for the tokens sent to the pool since the last update. The first deposit must be
    /// of equal normalised amounts.
    /// @param to The recipient of the shares.
    /// @return liquidity The shares minted.
    function mint(address to) external returns (uint256 liquidity);

    /// @notice Burns the shares sent to the pool and pays out their part of both balances.
    /// @param to The recipient of the tokens.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function burn(address to) external returns (uint256 amount0, uint256 amount1);

    /// @notice Pays out the asked amounts, calls `hook` on `to` if `data` is not empty, then requires that the
    /// invariant of the balances, less the fee on each input, is not below that of the reserves.
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
}
