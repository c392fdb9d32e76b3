// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IUniswapV3Factory
/// @notice The part of the Uniswap V3 factory (and of its forks) that RouterV2 reads to vouch for a pool.
interface IUniswapV3Factory {
    /// @notice The pool of two tokens and a fee tier, or the zero address when there is none.
    /// @param tokenA One of the tokens (either order).
    /// @param tokenB The other token.
    /// @param fee The pool's fee tier in hundredths of a basis point.
    /// @return pool The pool.
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address pool);
}
