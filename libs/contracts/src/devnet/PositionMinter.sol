// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IUniswapV3Pool} from "../sources/v3/interfaces/IUniswapV3Pool.sol";
import {IAlgebraPool} from "../sources/algebra/interfaces/IAlgebraPool.sol";

/// @title PositionMinter
/// @notice Adds liquidity positions to Uniswap V3 pools (and forks) and Algebra Integral pools for the devnet's
/// seeding and for tests: the pools take payment in a mint callback, which this contract answers by pulling the
/// amounts owed from whoever called `mint` (approve this contract for both tokens first). It holds nothing between
/// calls.
/// @dev The mint callback pays only the pool the current `mint` call is minting on, and only from that call's
/// sender, so nobody can spend another account's approval: a caller that names a pool of its own choosing can only
/// pay it from its own balance.
contract PositionMinter {
    using SafeERC20 for IERC20;

    /// @notice A mint callback came from an account other than the pool being minted on.
    /// @param caller The callback's caller.
    error NotActivePool(address caller);

    /// @notice `mint` or `mintAlgebra` was given zero liquidity.
    error ZeroLiquidity();

    /// @notice A position was added.
    /// @param pool The pool.
    /// @param payer Who paid for it.
    /// @param recipient The position's owner.
    /// @param tickLower The position's lower tick.
    /// @param tickUpper The position's upper tick.
    /// @param liquidity The liquidity added.
    /// @param amount0 The token0 paid.
    /// @param amount1 The token1 paid.
    event PositionMinted(
        address indexed pool,
        address indexed payer,
        address indexed recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 liquidity,
        uint256 amount0,
        uint256 amount1
    );

    /// @dev The pool the current call mints on, and who pays it.
    address private transient _pool;
    address private transient _payer;

    /// @notice Adds `liquidity` between `tickLower` and `tickUpper` to a Uniswap V3 pool for `recipient`, paid
    /// from the caller.
    /// @param pool The pool.
    /// @param recipient The position's owner.
    /// @param tickLower The lower tick (a multiple of the pool's tick spacing).
    /// @param tickUpper The upper tick (likewise).
    /// @param liquidity The liquidity to add.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        if (liquidity == 0) revert ZeroLiquidity();
        _open(pool);
        (amount0, amount1) = IUniswapV3Pool(pool).mint(recipient, tickLower, tickUpper, liquidity, "");
        _close();
        emit PositionMinted(pool, msg.sender, recipient, tickLower, tickUpper, liquidity, amount0, amount1);
    }

    /// @notice Adds `liquidity` between `bottomTick` and `topTick` to an Algebra Integral pool for `recipient`,
    /// paid from the caller (who also receives any surplus the pool returns).
    /// @param pool The pool.
    /// @param recipient The position's owner.
    /// @param bottomTick The lower tick (a multiple of the pool's tick spacing).
    /// @param topTick The upper tick (likewise).
    /// @param liquidity The liquidity to add.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    /// @return liquidityActual The liquidity the pool added.
    function mintAlgebra(address pool, address recipient, int24 bottomTick, int24 topTick, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1, uint128 liquidityActual)
    {
        if (liquidity == 0) revert ZeroLiquidity();
        _open(pool);
        (amount0, amount1, liquidityActual) =
            IAlgebraPool(pool).mint(msg.sender, recipient, bottomTick, topTick, liquidity, "");
        _close();
        emit PositionMinted(pool, msg.sender, recipient, bottomTick, topTick, liquidityActual, amount0, amount1);
    }

    /// @notice Called by a Uniswap V3 pool during `mint`: pays what the position costs.
    /// @param amount0Owed The token0 owed.
    /// @param amount1Owed The token1 owed.
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _pay(amount0Owed, amount1Owed);
    }

    /// @notice Called by an Algebra Integral pool during `mint`: pays what the position costs.
    /// @param amount0Owed The token0 owed.
    /// @param amount1Owed The token1 owed.
    function algebraMintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _pay(amount0Owed, amount1Owed);
    }

    function _open(address pool) private {
        _pool = pool;
        _payer = msg.sender;
    }

    function _close() private {
        _pool = address(0);
        _payer = address(0);
    }

    /// @dev Pays the active pool from the active payer, in the pool's own tokens.
    function _pay(uint256 amount0, uint256 amount1) private {
        address pool = _pool;
        if (msg.sender != pool) revert NotActivePool(msg.sender);
        address payer = _payer;
        // Both pool kinds expose token0() and token1() with the same signature.
        if (amount0 > 0) IERC20(IUniswapV3Pool(pool).token0()).safeTransferFrom(payer, pool, amount0);
        if (amount1 > 0) IERC20(IUniswapV3Pool(pool).token1()).safeTransferFrom(payer, pool, amount1);
    }
}
