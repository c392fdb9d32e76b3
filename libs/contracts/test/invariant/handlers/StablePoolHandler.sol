// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../base/Base.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {StablePool} from "../../../src/sources/stable/StablePool.sol";
import {StableMath} from "../../../src/sources/libraries/StableMath.sol";

/// @notice Drives a stable pool for invariant runs: exact-input swaps at getAmountOut, deposits, withdrawals
/// (keeping at least a tenth of the starting supply), donations, skim and sync, with amounts bounded so that
/// no call reverts and each side stays below 1e9 whole tokens. Owns both tokens (mints them).
contract StablePoolHandler is Base {
    error TransferReturnedFalse();

    /// @dev Normalised ceiling of a reserve: 1e9 whole tokens.
    uint256 internal constant MAX_NORMALISED = 1e27;

    StablePool public immutable pool;
    TestERC20 public immutable token0;
    TestERC20 public immutable token1;
    uint256 public immutable dec0;
    uint256 public immutable dec1;
    uint256 public immutable minSupply;

    /// @notice Swaps after which the invariant of the reserves was lower than before (must stay 0).
    uint256 public ghostKDecreases;
    uint256 public ghostSwaps;

    constructor(StablePool pool_) {
        pool = pool_;
        token0 = TestERC20(pool_.token0());
        token1 = TestERC20(pool_.token1());
        (dec0, dec1,,,,,) = pool_.metadata();
        minSupply = pool_.totalSupply() / 10;
    }

    /// @notice The invariant of the current reserves.
    function poolK() public view returns (uint256) {
        (uint256 r0, uint256 r1,) = pool.getReserves();
        return StableMath.k((r0 * 1e18) / dec0, (r1 * 1e18) / dec1);
    }

    function swapExactIn(bool zeroForOne, uint256 amountIn) external {
        TestERC20 tokenIn = zeroForOne ? token0 : token1;
        amountIn = bound(amountIn, 1, _room(tokenIn));
        uint256 out = pool.getAmountOut(amountIn, address(tokenIn));
        if (out == 0) return;

        tokenIn.mint(address(pool), amountIn);
        uint256 kBefore = poolK();
        if (zeroForOne) pool.swap(0, out, address(this), "");
        else pool.swap(out, 0, address(this), "");
        if (poolK() < kBefore) ++ghostKDecreases;
        ++ghostSwaps;
    }

    function addLiquidity(uint256 amount0, uint256 amount1) external {
        amount0 = bound(amount0, 0, _room(token0));
        amount1 = bound(amount1, 0, _room(token1));
        (uint256 r0, uint256 r1,) = pool.getReserves();
        uint256 supply = pool.totalSupply();
        if ((amount0 * supply) / r0 == 0 || (amount1 * supply) / r1 == 0) return;
        token0.mint(address(pool), amount0);
        token1.mint(address(pool), amount1);
        pool.mint(address(this));
    }

    function removeLiquidity(uint256 shares) external {
        uint256 supply = pool.totalSupply();
        uint256 removable = supply > minSupply ? supply - minSupply : 0;
        uint256 held = pool.balanceOf(address(this));
        shares = bound(shares, 0, held < removable ? held : removable);
        uint256 balance0 = token0.balanceOf(address(pool));
        uint256 balance1 = token1.balanceOf(address(pool));
        if ((shares * balance0) / supply == 0 || (shares * balance1) / supply == 0) return;
        if (!pool.transfer(address(pool), shares)) revert TransferReturnedFalse();
        pool.burn(address(this));
    }

    function donate(bool toToken0, uint256 amount) external {
        TestERC20 token = toToken0 ? token0 : token1;
        token.mint(address(pool), bound(amount, 0, _room(token)));
    }

    function skim() external {
        pool.skim(address(this));
    }

    function sync() external {
        pool.sync();
    }

    /// @dev How much more of `token` the pool may receive before its balance passes the ceiling (at least 1).
    function _room(TestERC20 token) internal view returns (uint256) {
        uint256 cap = (MAX_NORMALISED * (token == token0 ? dec0 : dec1)) / 1e18;
        uint256 balance = token.balanceOf(address(pool));
        return balance + 1 < cap ? cap - balance : 1;
    }
}
