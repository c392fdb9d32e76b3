// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IAmmPool} from "./interfaces/IAmmPool.sol";
import {IAmmRouter} from "./interfaces/IAmmRouter.sol";
import {IRefCodeRegistry} from "./interfaces/IRefCodeRegistry.sol";
import {TokenTransfer} from "./libraries/TokenTransfer.sol";

/// @title AmmRouter
/// @notice The AMM router of a chain: one pool per pair, found by `getPoolForPair`; swaps pull the input from
/// the caller, trade it on the pool and pay the output to the caller. See IAmmRouter.
/// @dev The router holds no tokens between calls: it pulls exactly `amountIn`, approves exactly that to the
/// pool (which pulls all of it) and forwards all the output. It calls only pools its owner registered.
/// Referral claims go through the pool's `claimRefFeesFor`, which trusts this router (set on each pool with
/// `setRouter`) to pass its own caller and still pays only the code's claim wallet.
contract AmmRouter is IAmmRouter, Ownable2Step, ReentrancyGuardTransient {
    using TokenTransfer for address;

    /// @inheritdoc IAmmRouter
    address public immutable refCodeRegistry;

    address[] private _pools;

    /// @dev Position in `_pools` plus one; zero when not registered.
    mapping(address pool => uint256) private _positionOf;

    /// @dev The pool of each pair, keyed by the sorted tokens.
    mapping(address token0 => mapping(address token1 => address pool)) private _poolOf;

    /// @param initialOwner The account that registers pools.
    /// @param refCodeRegistry_ The referral code registry its pools use.
    constructor(address initialOwner, address refCodeRegistry_) Ownable(initialOwner) {
        if (refCodeRegistry_ == address(0)) revert ZeroAddress();
        refCodeRegistry = refCodeRegistry_;
    }

    // ---------------------------------------------------------------- pools

    /// @inheritdoc IAmmRouter
    function getPools() external view returns (address[] memory pools) {
        return _pools;
    }

    /// @inheritdoc IAmmRouter
    function getPoolForPair(address tokenA, address tokenB) public view returns (address) {
        return tokenA < tokenB ? _poolOf[tokenA][tokenB] : _poolOf[tokenB][tokenA];
    }

    /// @inheritdoc IAmmRouter
    function addPool(address pool) external onlyOwner {
        if (pool == address(0)) revert ZeroAddress();
        if (IAmmPool(pool).refCodeRegistry() != refCodeRegistry) revert RegistryMismatch(pool);
        (address token0, address token1) = IAmmPool(pool).getTokens();
        address existing = _poolOf[token0][token1];
        if (existing != address(0)) revert PoolAlreadyExists(existing);
        _poolOf[token0][token1] = pool;
        _pools.push(pool);
        _positionOf[pool] = _pools.length;
        emit PoolAdded(pool, token0, token1);
    }

    /// @inheritdoc IAmmRouter
    function removePool(address pool) external onlyOwner {
        uint256 position = _positionOf[pool];
        if (position == 0) revert PoolNotFound(pool);
        (address token0, address token1) = IAmmPool(pool).getTokens();
        // Swap-and-pop; cannot underflow: position >= 1 and the list holds at least this pool.
        unchecked {
            address last = _pools[_pools.length - 1];
            _pools[position - 1] = last;
            _positionOf[last] = position;
        }
        _pools.pop();
        delete _positionOf[pool];
        delete _poolOf[token0][token1];
        emit PoolRemoved(pool, token0, token1);
    }

    // ---------------------------------------------------------------- swaps and quotes

    /// @inheritdoc IAmmRouter
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        return _swap(tokenIn, tokenOut, amountIn, minAmountOut, false, bytes32(0));
    }

    /// @inheritdoc IAmmRouter
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, bytes32 refCode)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        return _swap(tokenIn, tokenOut, amountIn, minAmountOut, true, refCode);
    }

    /// @inheritdoc IAmmRouter
    function estimateSwap(address tokenIn, address tokenOut, uint256 amountIn)
        external
        view
        returns (uint256 amountOut)
    {
        return IAmmPool(_requirePool(tokenIn, tokenOut)).estimateSwap(tokenIn, tokenOut, amountIn);
    }

    /// @inheritdoc IAmmRouter
    function estimateSwapBatch(address tokenIn, address tokenOut, uint256[] calldata amountsIn)
        external
        view
        returns (uint256[] memory amountsOut)
    {
        return IAmmPool(_requirePool(tokenIn, tokenOut)).estimateSwapBatch(tokenIn, tokenOut, amountsIn);
    }

    /// @inheritdoc IAmmRouter
    function getReserves(address tokenA, address tokenB) external view returns (uint256 reserve0, uint256 reserve1) {
        address pool = _requirePool(tokenA, tokenB);
        (reserve0, reserve1) = IAmmPool(pool).getReserves();
        if (tokenA > tokenB) (reserve0, reserve1) = (reserve1, reserve0);
    }

    // ---------------------------------------------------------------- referral fees

    /// @inheritdoc IAmmRouter
    function getRefClaimable(address tokenA, address tokenB, bytes32 refCode)
        external
        view
        returns (uint256 amount0, uint256 amount1)
    {
        address pool = _requirePool(tokenA, tokenB);
        (amount0, amount1) = IAmmPool(pool).getRefClaimable(refCode);
        if (tokenA > tokenB) (amount0, amount1) = (amount1, amount0);
    }

    /// @inheritdoc IAmmRouter
    function claimRefFees(address tokenA, address tokenB, bytes32 refCode)
        external
        nonReentrant
        returns (uint256 amount0, uint256 amount1)
    {
        address pool = _requirePool(tokenA, tokenB);
        (amount0, amount1) = IAmmPool(pool).claimRefFeesFor(refCode, msg.sender);
        if (tokenA > tokenB) (amount0, amount1) = (amount1, amount0);
    }

    /// @inheritdoc IAmmRouter
    function distributeRefFees() external nonReentrant {
        _distribute(0, IRefCodeRegistry(refCodeRegistry).refCodeCount());
    }

    /// @inheritdoc IAmmRouter
    function distributeRefFees(uint256 startCode, uint256 count) external nonReentrant {
        uint256 total = IRefCodeRegistry(refCodeRegistry).refCodeCount();
        if (startCode >= total) return;
        uint256 end = total - startCode < count ? total : startCode + count;
        _distribute(startCode, end);
    }

    // ---------------------------------------------------------------- internal

    /// @dev Pulls exactly `amountIn`, approves it to the pair's pool, swaps, and forwards the output.
    function _swap(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minAmountOut,
        bool withRef,
        bytes32 refCode
    ) private returns (uint256 amountOut) {
        address pool = _requirePool(tokenIn, tokenOut);
        uint256 before = tokenIn.balanceOf();
        tokenIn.safeTransferFrom(msg.sender, address(this), amountIn);
        if (tokenIn.balanceOf() - before != amountIn) revert FeeOnTransferNotSupported(tokenIn);
        tokenIn.safeApprove(pool, amountIn);
        amountOut = withRef
            ? IAmmPool(pool).swap(tokenIn, tokenOut, amountIn, minAmountOut, refCode)
            : IAmmPool(pool).swap(tokenIn, tokenOut, amountIn, minAmountOut);
        tokenOut.safeTransfer(msg.sender, amountOut);
    }

    /// @dev Pays the codes in positions [start, end) their fees of every pool; skips revoked and claim-locked
    /// codes; a pool that reverts is reported and skipped.
    function _distribute(uint256 start, uint256 end) private {
        IRefCodeRegistry registry = IRefCodeRegistry(refCodeRegistry);
        uint256 poolCount = _pools.length;
        for (uint256 c = start; c < end; ++c) {
            bytes32 refCode = registry.refCodeAt(c);
            IRefCodeRegistry.RefCode memory code = registry.refCodeInfo(refCode);
            // The lock is a delay of hours or days; a validator's few seconds of drift do not matter.
            // forge-lint: disable-next-line(block-timestamp)
            if (!code.active || block.timestamp < code.claimUnlockTime) continue;
            for (uint256 p; p < poolCount; ++p) {
                address pool = _pools[p];
                try IAmmPool(pool).distributeRefFees(refCode) returns (uint256 amount0, uint256 amount1) {
                    if (amount0 != 0 || amount1 != 0) {
                        emit RefFeesDistributed(pool, refCode, code.claimWallet, amount0, amount1);
                    }
                } catch (bytes memory reason) {
                    emit RefFeesDistributionFailed(pool, refCode, reason);
                }
            }
        }
    }

    /// @dev The pair's pool; reverts `NoPoolForPair` when none.
    function _requirePool(address tokenA, address tokenB) private view returns (address pool) {
        pool = getPoolForPair(tokenA, tokenB);
        if (pool == address(0)) revert NoPoolForPair(tokenA, tokenB);
    }
}
