// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IStablePoolFactory} from "./interfaces/IStablePoolFactory.sol";
import {StablePool} from "./StablePool.sol";

/// @title StablePoolFactory
/// @notice Creates and registers the stable pools of one DEX deployment. Every pool it creates uses the swap
/// fee fixed here at deployment. Volatile pools are not supported; the `stable` argument is kept so that the
/// factory answers the Solidly/Velodrome interface.
contract StablePoolFactory is IStablePoolFactory {
    /// @notice The highest swap fee a deployment may set: 10%.
    uint256 public constant MAX_SWAP_FEE_BPS = 1000;

    /// @notice The keccak256 of the pool's creation code, for computing pool addresses off-chain.
    bytes32 public constant INIT_CODE_POOL_HASH = keccak256(type(StablePool).creationCode);

    /// @inheritdoc IStablePoolFactory
    uint256 public immutable swapFeeBps;

    mapping(address tokenA => mapping(address tokenB => mapping(bool stable => address pool))) private _pools;
    address[] private _allPools;
    mapping(address pool => bool) private _isPool;

    address private _initToken0;
    address private _initToken1;

    /// @param swapFeeBps_ The swap fee of every pool, in basis points of the input (4 = 0.04%).
    constructor(uint256 swapFeeBps_) {
        if (swapFeeBps_ > MAX_SWAP_FEE_BPS) revert SwapFeeTooHigh(swapFeeBps_);
        swapFeeBps = swapFeeBps_;
    }

    /// @inheritdoc IStablePoolFactory
    function getFee(address, bool) external view returns (uint256) {
        return swapFeeBps;
    }

    /// @inheritdoc IStablePoolFactory
    function getPool(address tokenA, address tokenB, bool stable) external view returns (address) {
        return _pools[tokenA][tokenB][stable];
    }

    /// @inheritdoc IStablePoolFactory
    function getPair(address tokenA, address tokenB, bool stable) external view returns (address) {
        return _pools[tokenA][tokenB][stable];
    }

    /// @inheritdoc IStablePoolFactory
    function isPool(address pool) external view returns (bool) {
        return _isPool[pool];
    }

    /// @inheritdoc IStablePoolFactory
    function isPair(address pool) external view returns (bool) {
        return _isPool[pool];
    }

    /// @inheritdoc IStablePoolFactory
    function allPools(uint256 index) external view returns (address) {
        return _allPools[index];
    }

    /// @inheritdoc IStablePoolFactory
    function allPairs(uint256 index) external view returns (address) {
        return _allPools[index];
    }

    /// @inheritdoc IStablePoolFactory
    function allPoolsLength() external view returns (uint256) {
        return _allPools.length;
    }

    /// @inheritdoc IStablePoolFactory
    function allPairsLength() external view returns (uint256) {
        return _allPools.length;
    }

    /// @inheritdoc IStablePoolFactory
    function getInitializable() external view returns (address, address) {
        return (_initToken0, _initToken1);
    }

    /// @inheritdoc IStablePoolFactory
    function createPool(address tokenA, address tokenB, bool stable) external returns (address) {
        return _createPool(tokenA, tokenB, stable);
    }

    /// @inheritdoc IStablePoolFactory
    function createPair(address tokenA, address tokenB, bool stable) external returns (address) {
        return _createPool(tokenA, tokenB, stable);
    }

    /// @dev Deploys the pool with CREATE2; its constructor reads the tokens through `getInitializable`.
    function _createPool(address tokenA, address tokenB, bool stable) private returns (address pool) {
        if (!stable) revert VolatileNotSupported();
        if (tokenA == tokenB) revert SameAddress();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        address existing = _pools[token0][token1][true];
        if (existing != address(0)) revert PoolAlreadyExists(existing);

        (_initToken0, _initToken1) = (token0, token1);
        pool = address(new StablePool{salt: keccak256(abi.encodePacked(token0, token1, true))}());
        delete _initToken0;
        delete _initToken1;

        _pools[token0][token1][true] = pool;
        _pools[token1][token0][true] = pool;
        _allPools.push(pool);
        _isPool[pool] = true;
        emit PoolCreated(token0, token1, true, pool, _allPools.length);
    }
}
