// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IStablePoolFactory
/// @notice A Solidly/Velodrome-style pool factory that creates stable (x^3*y + y^3*x) pools only. It keeps the
/// `stable` argument of that interface, with both the Solidly names (`createPair`, `getPair`, `isPair`,
/// `allPairs`) and the Velodrome V2 ones (`createPool`, `getPool`, `isPool`, `allPools`).
interface IStablePoolFactory {
    /// @notice A pool was asked for the same token twice.
    error SameAddress();

    /// @notice A pool was asked for with the zero address as a token.
    error ZeroAddress();

    /// @notice A pool of these tokens exists already.
    /// @param pool The existing pool.
    error PoolAlreadyExists(address pool);

    /// @notice A volatile (`stable = false`) pool was asked for; this factory creates stable pools only.
    error VolatileNotSupported();

    /// @notice The swap fee given at deployment is above `MAX_SWAP_FEE_BPS`.
    /// @param feeBps The fee given.
    error SwapFeeTooHigh(uint256 feeBps);

    /// @notice A pool was created.
    /// @param token0 The token sorted first (lower address).
    /// @param token1 The token sorted second.
    /// @param stable Always true.
    /// @param pool The new pool.
    /// @param allPoolsLength The number of pools including this one.
    event PoolCreated(
        address indexed token0, address indexed token1, bool indexed stable, address pool, uint256 allPoolsLength
    );

    /// @notice The swap fee of every pool of this factory, in basis points of the input.
    /// @return The fee.
    function swapFeeBps() external view returns (uint256);

    /// @notice The swap fee of a pool, in basis points (Velodrome V2 name); the same for every pool here.
    /// @param pool The pool (unused).
    /// @param stable The pool kind (unused).
    /// @return The fee.
    function getFee(address pool, bool stable) external view returns (uint256);

    /// @notice The pool of two tokens and a kind, in either token order; zero when none exists.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param stable The pool kind.
    /// @return pool The pool.
    function getPool(address tokenA, address tokenB, bool stable) external view returns (address pool);

    /// @notice Same as `getPool` (Solidly name).
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param stable The pool kind.
    /// @return pool The pool.
    function getPair(address tokenA, address tokenB, bool stable) external view returns (address pool);

    /// @notice Whether `pool` was created by this factory.
    /// @param pool The address to check.
    /// @return True for a pool of this factory.
    function isPool(address pool) external view returns (bool);

    /// @notice Same as `isPool` (Solidly name).
    /// @param pool The address to check.
    /// @return True for a pool of this factory.
    function isPair(address pool) external view returns (bool);

    /// @notice The pool created `index`-th (from 0).
    /// @param index The position.
    /// @return pool The pool.
    function allPools(uint256 index) external view returns (address pool);

    /// @notice Same as `allPools` (Solidly name).
    /// @param index The position.
    /// @return pool The pool.
    function allPairs(uint256 index) external view returns (address pool);

    /// @notice The number of pools created.
    /// @return The count.
    function allPoolsLength() external view returns (uint256);

    /// @notice Same as `allPoolsLength` (Solidly name).
    /// @return The count.
    function allPairsLength() external view returns (uint256);

    /// @notice Creates the pool of two tokens (CREATE2, salt `keccak256(token0, token1, stable)`).
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param stable Must be true.
    /// @return pool The new pool.
    function createPool(address tokenA, address tokenB, bool stable) external returns (address pool);

    /// @notice Same as `createPool` (Solidly name).
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param stable Must be true.
    /// @return pool The new pool.
    function createPair(address tokenA, address tokenB, bool stable) external returns (address pool);

    /// @notice The tokens of the pool being created; a pool's constructor reads them (zero otherwise).
    /// @return token0 The token sorted first.
    /// @return token1 The token sorted second.
    function getInitializable() external view returns (address token0, address token1);
}
