// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {AmmFixture} from "../fixtures/AmmFixture.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {IAmmPool} from "../../../src/amm/interfaces/IAmmPool.sol";
import {AmmMath} from "../../../src/amm/libraries/AmmMath.sol";

contract AmmPoolFuzzTest is AmmFixture {
    /// @dev Moves the fixture's pool to a fuzzed price and inventory: WHYPE at $0.01 to $10,000, USDC at
    /// $0.9 to $1.1, then a swap of up to 90% of the WHYPE or USDC reserve's value one way.
    function _fuzzState(uint256 whypePrice, uint256 usdcPrice, uint256 skew, bool skewWithUsdc) internal {
        whypePrice = bound(whypePrice, 0.01e18, 10_000e18);
        usdcPrice = bound(usdcPrice, 0.9e18, 1.1e18);
        _setPrices(whypePrice, usdcPrice);
        if (skewWithUsdc) {
            uint256 usdcIn = bound(skew, 0, USDC_LIQUIDITY * whypePrice / 25e18 * 9 / 10);
            _tryEstimateAndSwap(alice, usdc, usdcIn);
        } else {
            uint256 whypeIn = bound(skew, 0, WHYPE_LIQUIDITY * 25e18 / whypePrice * 9 / 10);
            _tryEstimateAndSwap(alice, whype, whypeIn);
        }
    }

    /// @dev Mints `amountIn` to `account` and swaps it when the pool quotes a non-zero output for it.
    function _tryEstimateAndSwap(address account, TestERC20 tokenIn, uint256 amountIn) internal {
        if (amountIn == 0) return;
        TestERC20 tokenOut = address(tokenIn) == address(whype) ? usdc : whype;
        try pool.estimateSwap(address(tokenIn), address(tokenOut), amountIn) returns (uint256 out) {
            if (out == 0) return;
            tokenIn.mint(account, amountIn);
            _swapAs(account, tokenIn, amountIn, bytes32(0));
        } catch {}
    }

    /// @dev How much input (USDC when `usdcIn`, else WHYPE) is worth the whole output reserve at the oracle prices.
    function _inputWorthOfOutputReserve(bool usdcIn) internal view returns (uint256) {
        (uint256 rWhype, uint256 rUsdc) = _reservesWhypeUsdc();
        (uint256 pWhype,) = oracle.getPriceUsd(address(whype));
        (uint256 pUsdc,) = oracle.getPriceUsd(address(usdc));
        return usdcIn ? Math.mulDiv(rWhype, pWhype * 1e6, pUsdc * 1e18) : Math.mulDiv(rUsdc, pUsdc * 1e18, pWhype * 1e6);
    }

    /// @notice `swap` pays exactly what `estimateSwap` returned in the same state, or both refuse alike.
    function testFuzz_estimateEqualsSwap(
        uint256 whypePrice,
        uint256 usdcPrice,
        uint256 skew,
        bool skewWithUsdc,
        uint256 amountIn,
        bool usdcIn,
        bool withRef
    ) public {
        _fuzzState(whypePrice, usdcPrice, skew, skewWithUsdc);
        (TestERC20 tokenIn, TestERC20 tokenOut) = usdcIn ? (usdc, whype) : (whype, usdc);
        // Up to 120% of the output reserve's worth: most swaps fit, some exceed the reserve.
        amountIn = bound(amountIn, 1, _inputWorthOfOutputReserve(usdcIn) * 6 / 5 + 1);
        tokenIn.mint(alice, amountIn);
        bytes32 refCode = withRef ? REF : bytes32(0);

        uint256 estimate;
        bytes memory estimateError;
        try pool.estimateSwap(address(tokenIn), address(tokenOut), amountIn) returns (uint256 out) {
            estimate = out;
        } catch (bytes memory reason) {
            estimateError = reason;
        }

        uint256 balanceBefore = tokenOut.balanceOf(alice);
        vm.prank(alice);
        if (estimateError.length != 0) {
            vm.expectRevert(estimateError);
        } else if (estimate == 0) {
            vm.expectRevert(IAmmPool.ZeroAmountOut.selector);
        }
        uint256 paid = withRef
            ? pool.swap(address(tokenIn), address(tokenOut), amountIn, estimate, refCode)
            : pool.swap(address(tokenIn), address(tokenOut), amountIn, estimate);
        if (estimateError.length == 0 && estimate != 0) {
            assertEq(paid, estimate, "swap paid the estimate");
            assertEq(tokenOut.balanceOf(alice) - balanceBefore, estimate, "to the wei");
        }
        assertTrue(_surplus(pool, address(usdc)) >= 0, "USDC covered");
        assertTrue(_surplus(pool, address(whype)) >= 0, "WHYPE covered");
    }

    /// @notice `estimateSwapBatch` returns `estimateSwap` of each amount.
    function testFuzz_batchEqualsSingles(
        uint256 whypePrice,
        uint256 skew,
        bool skewWithUsdc,
        uint256[6] memory amounts,
        bool usdcIn
    ) public {
        _fuzzState(whypePrice, 1e18, skew, skewWithUsdc);
        (TestERC20 tokenIn, TestERC20 tokenOut) = usdcIn ? (usdc, whype) : (whype, usdc);
        // Up to half the output reserve's worth of input, so that every estimate succeeds.
        uint256 cap = _inputWorthOfOutputReserve(usdcIn) / 2;
        uint256[] memory amountsIn = new uint256[](6);
        for (uint256 i; i < 6; ++i) {
            amountsIn[i] = bound(amounts[i], 1, cap + 1);
        }
        uint256[] memory outs = pool.estimateSwapBatch(address(tokenIn), address(tokenOut), amountsIn);
        uint256[] memory viaRouter = router.estimateSwapBatch(address(tokenIn), address(tokenOut), amountsIn);
        for (uint256 i; i < 6; ++i) {
            assertEq(outs[i], pool.estimateSwap(address(tokenIn), address(tokenOut), amountsIn[i]));
            assertEq(viaRouter[i], outs[i]);
        }
    }

    /// @notice The marginal rates stay within [minFee, maxFee] and are symmetric around the base until clamped.
    function testFuzz_poolFeesWithinBounds(uint256 whypePrice, uint256 skew, bool skewWithUsdc) public {
        _fuzzState(whypePrice, 1e18, skew, skewWithUsdc);
        (uint256 fee0In, uint256 fee1In) = pool.getPoolFees();
        assertGe(fee0In, 0.0005e18);
        assertLe(fee0In, 0.01e18);
        assertGe(fee1In, 0.0005e18);
        assertLe(fee1In, 0.01e18);
    }

    // ---------------------------------------------------------------- the pricing library alone

    function _params(uint256 seed) internal pure returns (IAmmPool.FeeParams memory p) {
        uint256 maxFee = bound(uint256(keccak256(abi.encode(seed, 1))), 0, 500);
        uint256 baseFee = bound(uint256(keccak256(abi.encode(seed, 2))), 0, maxFee);
        // Both are bounded to at most 500 above.
        // forge-lint: disable-next-line(unsafe-typecast)
        p.maxFeeBps = uint16(maxFee);
        // forge-lint: disable-next-line(unsafe-typecast)
        p.baseFeeBps = uint16(baseFee);
        p.minFeeBps = uint16(bound(uint256(keccak256(abi.encode(seed, 3))), 0, baseFee));
        p.slopeBps = uint16(bound(uint256(keccak256(abi.encode(seed, 4))), 0, 10_000));
        p.targetWeight0 = uint64(bound(uint256(keccak256(abi.encode(seed, 5))), 0.05e18, 0.95e18));
    }

    function _state(uint256 r0, uint256 r1, uint256 p0, uint256 p1, uint8 d0, uint8 d1)
        internal
        pure
        returns (AmmMath.State memory s)
    {
        s.unit0 = 10 ** bound(d0, 0, 18);
        s.unit1 = 10 ** bound(d1, 0, 18);
        s.price0 = bound(p0, 1e12, 1e24);
        s.price1 = bound(p1, 1e12, 1e24);
        s.reserve0 = bound(r0, 0, 1e12 * s.unit0);
        s.reserve1 = bound(r1, 0, 1e12 * s.unit1);
    }

    /// @notice Every quote's rate is within [minFee, maxFee], its fee is the rate rounded up, and the output is
    /// the rest converted at the oracle price rounded down (never more than the input is worth).
    function testFuzz_quoteFeeWithinBoundsAndRounding(
        uint256 seed,
        uint256 r0,
        uint256 r1,
        uint256 p0,
        uint256 p1,
        uint8 d0,
        uint8 d1,
        uint256 amountIn,
        bool token0In
    ) public pure {
        IAmmPool.FeeParams memory p = _params(seed);
        AmmMath.State memory s = _state(r0, r1, p0, p1, d0, d1);
        amountIn = bound(amountIn, 1, 1e12 * (token0In ? s.unit0 : s.unit1));
        AmmMath.Quote memory q = AmmMath.quote(p, s, token0In, amountIn);
        assertGe(q.feeRate, uint256(p.minFeeBps) * 1e14, "rate >= min");
        assertLe(q.feeRate, uint256(p.maxFeeBps) * 1e14, "rate <= max");
        assertEq(q.fee, Math.mulDiv(amountIn, q.feeRate, 1e18, Math.Rounding.Ceil), "fee rounds up");
        assertLe(q.fee, amountIn);
        // Value out <= value in, net of the fee (both in 1e18 USD, rounded as the pool would in its favour).
        (uint256 priceIn, uint256 unitIn, uint256 priceOut, uint256 unitOut) =
            token0In ? (s.price0, s.unit0, s.price1, s.unit1) : (s.price1, s.unit1, s.price0, s.unit0);
        uint256 valueOutUp = Math.mulDiv(q.amountOut, priceOut, unitOut, Math.Rounding.Ceil);
        uint256 valueNetUp = Math.mulDiv(amountIn - q.fee, priceIn, unitIn, Math.Rounding.Ceil);
        assertLe(valueOutUp, valueNetUp + 1, "no value created");
    }

    /// @notice For swaps of the same value from the same state, the one that moves the inventory toward the
    /// target pays a rate no higher than the one that moves it away, and strictly lower when the pool is off
    /// target by at least 1 pp and neither rate is clamped.
    function testFuzz_rebalancingPaysLessThanImbalancing(
        uint256 r0,
        uint256 r1,
        uint256 p0,
        uint256 p1,
        uint256 valueIn
    ) public pure {
        IAmmPool.FeeParams memory p = IAmmPool.FeeParams({
            minFeeBps: 5,
            baseFeeBps: 30,
            maxFeeBps: 100,
            slopeBps: 200,
            protocolShareBps: 0,
            refShareBps: 0,
            targetWeight0: 0.5e18
        });
        AmmMath.State memory s = _state(r0, r1, p0, p1, 18, 6);
        uint256 v0 = AmmMath.value(s.reserve0, s.price0, s.unit0);
        uint256 v1 = AmmMath.value(s.reserve1, s.price1, s.unit1);
        // Both sides worth at least $1, and the swap at most the smaller side's value (it fits both ways).
        vm.assume(v0 >= 1e18 && v1 >= 1e18);
        valueIn = bound(valueIn, 1e18, v0 < v1 ? v0 : v1);
        uint256 amount0 = Math.mulDiv(valueIn, s.unit0, s.price0);
        uint256 amount1 = Math.mulDiv(valueIn, s.unit1, s.price1);
        vm.assume(amount0 > 0 && amount1 > 0);

        uint256 rate0In = AmmMath.quote(p, s, true, amount0).feeRate;
        uint256 rate1In = AmmMath.quote(p, s, false, amount1).feeRate;
        uint256 w = AmmMath.weight0(v0, v1, p.targetWeight0);
        (uint256 toward, uint256 away) = w > 0.5e18 ? (rate1In, rate0In) : (rate0In, rate1In);
        assertLe(toward, away, "rebalancing <= imbalancing");
        bool offTarget = w > 0.51e18 || w < 0.49e18;
        if (offTarget && toward > 0.0005e18 && away < 0.01e18) assertLt(toward, away, "strictly lower");
    }
}
