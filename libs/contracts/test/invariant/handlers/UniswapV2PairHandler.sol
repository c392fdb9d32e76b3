// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../base/Base.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

/// @notice Drives a V2 pair for invariant runs: exact-input swaps at the V2 formula, deposits, withdrawals,
/// donations, skim and sync, with amounts bounded so that no call reverts. Owns both tokens (mints them).
contract UniswapV2PairHandler is Base {
    error TransferReturnedFalse();

    uint256 internal constant MAX_AMOUNT = 1e27;

    UniswapV2Pair public immutable pair;
    TestERC20 public immutable token0;
    TestERC20 public immutable token1;
    uint256 public immutable feeBps;

    /// @notice Swaps after which reserve0 * reserve1 was lower than before (must stay 0).
    uint256 public ghostKDecreases;
    uint256 public ghostSwaps;

    constructor(UniswapV2Pair pair_) {
        pair = pair_;
        token0 = TestERC20(pair_.token0());
        token1 = TestERC20(pair_.token1());
        feeBps = pair_.swapFeeBps();
    }

    function swapExactIn(bool zeroForOne, uint256 amountIn) external {
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        amountIn = bound(amountIn, 1, MAX_AMOUNT);
        uint256 amountInWithFee = amountIn * (10_000 - feeBps);
        uint256 out = (amountInWithFee * reserveOut) / (reserveIn * 10_000 + amountInWithFee);
        if (out == 0) return;

        (zeroForOne ? token0 : token1).mint(address(pair), amountIn);
        uint256 kBefore = uint256(r0) * r1;
        if (zeroForOne) pair.swap(0, out, address(this), "");
        else pair.swap(out, 0, address(this), "");
        (r0, r1,) = pair.getReserves();
        if (uint256(r0) * r1 < kBefore) ++ghostKDecreases;
        ++ghostSwaps;
    }

    function addLiquidity(uint256 amount0, uint256 amount1) external {
        amount0 = bound(amount0, 0, MAX_AMOUNT);
        amount1 = bound(amount1, 0, MAX_AMOUNT);
        (uint112 r0, uint112 r1,) = pair.getReserves();
        uint256 supply = pair.totalSupply();
        if ((amount0 * supply) / r0 == 0 || (amount1 * supply) / r1 == 0) return;
        token0.mint(address(pair), amount0);
        token1.mint(address(pair), amount1);
        pair.mint(address(this));
    }

    function removeLiquidity(uint256 shares) external {
        shares = bound(shares, 0, pair.balanceOf(address(this)));
        uint256 supply = pair.totalSupply();
        uint256 balance0 = token0.balanceOf(address(pair));
        uint256 balance1 = token1.balanceOf(address(pair));
        if ((shares * balance0) / supply == 0 || (shares * balance1) / supply == 0) return;
        if (!pair.transfer(address(pair), shares)) revert TransferReturnedFalse();
        pair.burn(address(this));
    }

    function donate(bool toToken0, uint256 amount) external {
        (toToken0 ? token0 : token1).mint(address(pair), bound(amount, 0, MAX_AMOUNT));
    }

    function skim() external {
        pair.skim(address(this));
    }

    function sync() external {
        pair.sync();
    }
}
