// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAlgebraFactory
/// @notice The part of the Algebra Integral factory that RouterV2 reads to vouch for a pool.
interface IAlgebraFactory {
    /// @notice The factory's (default, not custom-deployer) pool of two tokens, or the zero address.
    /// @param tokenA One of the tokens (either order).
    /// @param tokenB The other token.
    /// @return pool The pool.
    function poolByPair(address tokenA, address tokenB) external view returns (address pool);
}
