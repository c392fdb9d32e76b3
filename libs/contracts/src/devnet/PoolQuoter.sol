// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IUniswapV3Pool} from "../sources/v3/interfaces/IUniswapV3Pool.sol";

/// @title PoolQuoter
/// @notice Quotes an exact-input swap on a Uniswap V3 pool (or fork) or an Algebra Integral pool with the pool's own
/// code, as QuoterV2 does: it starts the swap and reverts from the swap callback with the amounts the pool computed,
/// so nothing changes. Both pools' `swap` and swap callback have the same shape. The devnet's tools and tests use it
/// for Algebra pools, which have no QuoterV2 in the core package; call it with `eth_call`.
/// @dev Never holds tokens and never pays: every callback reverts.
contract PoolQuoter {
    /// @notice Carries the pool's answer out of the reverted swap.
    /// @param amount0 The pool's token0 delta (positive: what it asks to be paid).
    /// @param amount1 The pool's token1 delta.
    error Quoted(int256 amount0, int256 amount1);

    /// @notice The pool's swap did not end in this contract's callback (it reverted for another reason).
    /// @param reason What the pool reverted with.
    error NotQuoted(bytes reason);

    /// @dev TickMath's sqrt price bounds (the same in both protocols): a limit that never binds.
    uint160 private constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;

    /// @notice The output of selling `amountIn` of `tokenIn` on `pool`, and the input the pool would take, as the
    /// pool computes them (its fee included). Not a view: call it with `eth_call`.
    /// @param pool A Uniswap V3 or Algebra Integral pool.
    /// @param tokenIn The token sold (one of the pool's two tokens).
    /// @param amountIn The input, in base units (below 2**255).
    /// @return amountOut What the pool would pay.
    /// @return amountTaken What the pool would take (less than `amountIn` when its liquidity runs out first).
    function quoteExactInput(address pool, address tokenIn, uint256 amountIn)
        external
        returns (uint256 amountOut, uint256 amountTaken)
    {
        bool zeroForOne = tokenIn == IUniswapV3Pool(pool).token0();
        uint160 limit = zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE;
        // casting to 'int256' is safe because amounts are documented to be below 2**255.
        // forge-lint: disable-next-line(unsafe-typecast)
        bytes memory call_ =
            abi.encodeCall(IUniswapV3Pool.swap, (address(this), zeroForOne, int256(amountIn), limit, ""));
        (bool success, bytes memory returned) = pool.call(call_);
        if (success || returned.length != 68 || bytes4(returned) != Quoted.selector) revert NotQuoted(returned);
        int256 amount0;
        int256 amount1;
        assembly ("memory-safe") {
            amount0 := mload(add(returned, 36))
            amount1 := mload(add(returned, 68))
        }
        (int256 taken, int256 out) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        // casting to 'uint256' is safe because the pool pays out (a negative delta) and takes in (a positive one).
        // forge-lint: disable-next-line(unsafe-typecast)
        amountOut = uint256(-out);
        // forge-lint: disable-next-line(unsafe-typecast)
        amountTaken = uint256(taken);
    }

    /// @notice Uniswap V3's swap callback: reverts with the pool's amounts.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external pure {
        revert Quoted(amount0Delta, amount1Delta);
    }

    /// @notice Algebra Integral's swap callback: reverts with the pool's amounts.
    function algebraSwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external pure {
        revert Quoted(amount0Delta, amount1Delta);
    }
}
