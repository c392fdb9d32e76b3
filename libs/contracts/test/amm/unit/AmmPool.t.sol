// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {AmmFixture} from "../fixtures/AmmFixture.sol";
import {MalformedOracle, ReentrantToken, ReturnsFalseToken, RevertingOracle} from "../mocks/AmmMocks.sol";
import {FeeOnTransferToken, NineteenDecimalsToken, NoReturnToken} from "../../mocks/BadTokens.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {AmmPool} from "../../../src/amm/AmmPool.sol";
import {IAmmPool} from "../../../src/amm/interfaces/IAmmPool.sol";

contract AmmPoolTest is AmmFixture {
    /// @dev 10,000 USDC ($10k) into the balanced $2M pool moves w by 0.5 pp; the midpoint is 0.25 pp from the
    /// target, so the rate is 30 + 200 * 0.0025 = 30.5 bps.
    uint256 internal constant USDC_IN = 10_000e6;
    uint256 internal constant RATE_30_5_BPS = 0.00305e18;

    // ---------------------------------------------------------------- helpers

    function _pause() internal {
        vm.prank(owner);
        pool.pause();
    }

    /// @dev A pool of `tokenA` (priced $1, 18 decimals assumed by the caller) and USDC, owned by `owner`.
    function _poolWith(address tokenA) internal returns (AmmPool p) {
        vm.prank(owner);
        oracle.setPrice(tokenA, 1e18);
        p = new AmmPool(tokenA, address(usdc), address(oracle), address(registry), _defaultParams(), 1 hours, owner);
    }

    /// @dev Orders amounts of `token` and USDC as (token0, token1) of their pool.
    function _withUsdc(address token, uint256 amount, uint256 usdcAmount) internal view returns (uint256, uint256) {
        return token < address(usdc) ? (amount, usdcAmount) : (usdcAmount, amount);
    }

    function _usdcIsToken0() internal view returns (bool) {
        return address(usdc) < address(whype);
    }

    /// @dev Orders a (WHYPE, USDC) pair of amounts as (token0, token1).
    function _ordered(uint256 whypeAmount, uint256 usdcAmount) internal view returns (uint256, uint256) {
        return _usdcIsToken0() ? (usdcAmount, whypeAmount) : (whypeAmount, usdcAmount);
    }

    function _fees() internal view returns (uint256 feeWhypeIn, uint256 feeUsdcIn) {
        (uint256 fee0In, uint256 fee1In) = pool.getPoolFees();
        return _usdcIsToken0() ? (fee1In, fee0In) : (fee0In, fee1In);
    }

    // ---------------------------------------------------------------- construction and views

    function test_constructor_setsState() public view {
        assertEq(pool.token0(), address(token0));
        assertEq(pool.token1(), address(token1));
        assertTrue(pool.token0() < pool.token1());
        (address t0, address t1) = pool.getTokens();
        assertEq(t0, address(token0));
        assertEq(t1, address(token1));
        assertEq(pool.oracle(), address(oracle));
        assertEq(pool.refCodeRegistry(), address(registry));
        assertEq(pool.router(), address(router));
        assertEq(pool.maxPriceAge(), MAX_PRICE_AGE);
        assertEq(pool.owner(), owner);
        assertEq(pool.MAX_FEE_BPS(), 500);
        assertEq(pool.MAX_SLOPE_BPS(), 10_000);
        assertEq(pool.MAX_PRICE_AGE(), 7 days);
        assertEq(pool.MAX_PRICE(), 1e36);
        IAmmPool.FeeParams memory p = pool.feeParams();
        assertEq(uint256(p.minFeeBps), 5);
        assertEq(uint256(p.baseFeeBps), 30);
        assertEq(uint256(p.maxFeeBps), 100);
        assertEq(uint256(p.slopeBps), 200);
        assertEq(uint256(p.protocolShareBps), 2_000);
        assertEq(uint256(p.refShareBps), 3_000);
        assertEq(uint256(p.targetWeight0), 0.5e18);
        assertFalse(pool.paused());
    }

    function test_constructor_emitsSettings() public {
        vm.expectEmit();
        emit IAmmPool.OracleSet(address(oracle));
        vm.expectEmit();
        emit IAmmPool.FeeParamsSet(_defaultParams());
        vm.expectEmit();
        emit IAmmPool.MaxPriceAgeSet(60);
        new AmmPool(address(usdc), address(whype), address(oracle), address(registry), _defaultParams(), 60, owner);
    }

    function test_constructor_revertsOnSameToken() public {
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(usdc)));
        new AmmPool(address(usdc), address(usdc), address(oracle), address(registry), _defaultParams(), 60, owner);
    }

    function test_constructor_revertsOnTokenWithoutCode() public {
        address eoa = makeAddr("eoa");
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, eoa));
        new AmmPool(eoa, address(usdc), address(oracle), address(registry), _defaultParams(), 60, owner);
    }

    function test_constructor_revertsOnZeroOracleOrRegistry() public {
        vm.expectRevert(IAmmPool.ZeroAddress.selector);
        new AmmPool(address(whype), address(usdc), address(0), address(registry), _defaultParams(), 60, owner);
        vm.expectRevert(IAmmPool.ZeroAddress.selector);
        new AmmPool(address(whype), address(usdc), address(oracle), address(0), _defaultParams(), 60, owner);
    }

    function test_constructor_revertsOnBadSettings() public {
        IAmmPool.FeeParams memory bad = _defaultParams();
        bad.maxFeeBps = 501;
        vm.expectRevert(IAmmPool.InvalidFeeParams.selector);
        new AmmPool(address(whype), address(usdc), address(oracle), address(registry), bad, 60, owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidMaxPriceAge.selector, 0));
        new AmmPool(address(whype), address(usdc), address(oracle), address(registry), _defaultParams(), 0, owner);
    }

    function test_constructor_revertsOnMoreThan18Decimals() public {
        NineteenDecimalsToken t = new NineteenDecimalsToken();
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnsupportedDecimals.selector, address(t), uint8(19)));
        new AmmPool(address(t), address(usdc), address(oracle), address(registry), _defaultParams(), 60, owner);
    }

    function test_getReserves_areTheLiquidity() public view {
        (uint256 r0, uint256 r1) = pool.getReserves();
        (uint256 e0, uint256 e1) = _ordered(WHYPE_LIQUIDITY, USDC_LIQUIDITY);
        assertEq(r0, e0);
        assertEq(r1, e1);
        assertEq(pool.inventoryWeight0(), 0.5e18);
    }

    // ---------------------------------------------------------------- liquidity

    function test_addLiquidity_pullsAndEmits() public {
        whype.mint(owner, 10e18);
        vm.startPrank(owner);
        whype.approve(address(pool), 10e18);
        (uint256 a0, uint256 a1) = _ordered(10e18, 0);
        vm.expectEmit(address(pool));
        emit IAmmPool.LiquidityAdded(owner, a0, a1);
        pool.addLiquidity(a0, a1);
        vm.stopPrank();
        (uint256 rWhype, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rWhype, WHYPE_LIQUIDITY + 10e18);
        assertEq(rUsdc, USDC_LIQUIDITY);
    }

    function test_addLiquidity_onlyOwner() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.addLiquidity(1, 1);
    }

    function test_addLiquidity_revertsOnZero() public {
        vm.prank(owner);
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        pool.addLiquidity(0, 0);
    }

    function test_addLiquidity_revertsWithoutApproval() public {
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.TransferFailed.selector, address(token0)));
        pool.addLiquidity(1, 0);
    }

    function test_removeLiquidity_paysAndEmits() public {
        (uint256 a0, uint256 a1) = _ordered(1_000e18, 25_000e6);
        vm.expectEmit(address(pool));
        emit IAmmPool.LiquidityRemoved(treasury, a0, a1);
        vm.prank(owner);
        pool.removeLiquidity(a0, a1, treasury);
        assertEq(whype.balanceOf(treasury), 1_000e18);
        assertEq(usdc.balanceOf(treasury), 25_000e6);
        (uint256 rWhype, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rWhype, WHYPE_LIQUIDITY - 1_000e18);
        assertEq(rUsdc, USDC_LIQUIDITY - 25_000e6);
    }

    function test_removeLiquidity_worksWhilePaused() public {
        _pause();
        vm.prank(owner);
        pool.removeLiquidity(1, 1, treasury);
        assertEq(token0.balanceOf(treasury), 1);
    }

    function test_removeLiquidity_revertsAboveReserve() public {
        (uint256 r0,) = pool.getReserves();
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InsufficientReserve.selector, r0 + 1, r0));
        pool.removeLiquidity(r0 + 1, 0, treasury);
    }

    function test_removeLiquidity_revertsOnZeroOrZeroRecipient() public {
        vm.startPrank(owner);
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        pool.removeLiquidity(0, 0, treasury);
        vm.expectRevert(IAmmPool.ZeroAddress.selector);
        pool.removeLiquidity(1, 0, address(0));
        vm.stopPrank();
    }

    function test_removeLiquidity_onlyOwner() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.removeLiquidity(1, 0, alice);
    }

    // ---------------------------------------------------------------- quotes

    function test_estimateSwap_usdcToWhype_exactNumbers() public view {
        // fee = ceil(10,000e6 * 0.00305) = 30.5e6; net 9,969.5 USDC at $25 per WHYPE = 398.78 WHYPE.
        assertEq(pool.estimateSwap(address(usdc), address(whype), USDC_IN), 398.78e18);
    }

    function test_estimateSwap_whypeToUsdc_exactNumbers() public view {
        // 400 WHYPE = $10k: same displacement, same 30.5 bps; fee 1.22 WHYPE; net 398.78 WHYPE = 9,969.5 USDC.
        assertEq(pool.estimateSwap(address(whype), address(usdc), 400e18), 9_969.5e6);
    }

    function test_estimateSwap_followsTheOraclePrice() public {
        uint256 before = pool.estimateSwap(address(usdc), address(whype), 100e6);
        _setPrices(50e18, USDC_PRICE);
        // Doubling WHYPE's price halves the WHYPE paid per USDC (the fee also moves: w changes with the price).
        uint256 afterDouble = pool.estimateSwap(address(usdc), address(whype), 100e6);
        assertApproxEqAbs(afterDouble * 2, before, before / 100);
    }

    function test_estimateSwap_roundsOutputDown() public view {
        // 3 base units of USDC: fee ceil(3 * 0.003...) = 1, net 2 = 2e-6 USD -> 8e10 WHYPE base units exactly.
        uint256 out = pool.estimateSwap(address(usdc), address(whype), 3);
        assertEq(out, 2 * 1e12 / 25);
    }

    function test_estimateSwap_returnsZeroForDust() public view {
        assertEq(pool.estimateSwap(address(usdc), address(whype), 1), 0);
    }

    function test_estimateSwapBatch_equalsSingles() public view {
        uint256[] memory amounts = new uint256[](4);
        amounts[0] = 1;
        amounts[1] = 1e6;
        amounts[2] = USDC_IN;
        amounts[3] = 500_000e6;
        uint256[] memory outs = pool.estimateSwapBatch(address(usdc), address(whype), amounts);
        assertEq(outs.length, 4);
        for (uint256 i; i < 4; ++i) {
            assertEq(outs[i], pool.estimateSwap(address(usdc), address(whype), amounts[i]));
        }
        assertEq(pool.estimateSwapBatch(address(usdc), address(whype), new uint256[](0)).length, 0);
    }

    function test_estimateSwapBatch_revertsWhenOneAmountWould() public {
        uint256[] memory amounts = new uint256[](2);
        amounts[0] = USDC_IN;
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        pool.estimateSwapBatch(address(usdc), address(whype), amounts);
    }

    function test_getPoolFees_atBalance_areTheBaseFee() public view {
        (uint256 fee0In, uint256 fee1In) = pool.getPoolFees();
        assertEq(fee0In, 0.003e18);
        assertEq(fee1In, 0.003e18);
    }

    function test_getPoolFees_whenImbalanced_chargeTheOverweightSideMore() public {
        // $200k of USDC in: USDC is now overweight (w_usdc ~ 0.55).
        _swapAs(alice, usdc, 200_000e6, bytes32(0));
        (uint256 feeWhypeIn, uint256 feeUsdcIn) = _fees();
        assertGt(feeUsdcIn, 0.003e18, "adding the overweight token costs more than base");
        assertLt(feeWhypeIn, 0.003e18, "rebalancing costs less than base");
        // Marginal rates are base +- slope * |w - w*|, which puts them symmetric around the base.
        assertApproxEqAbs(feeUsdcIn + feeWhypeIn, 0.006e18, 1);
    }

    function test_dynamicFee_rebalancingPaysLessThanImbalancing() public {
        _swapAs(alice, usdc, 200_000e6, bytes32(0));
        // Equal $10k swaps each way from the same state.
        uint256 outRebalancing = pool.estimateSwap(address(whype), address(usdc), 400e18);
        uint256 outImbalancing = pool.estimateSwap(address(usdc), address(whype), USDC_IN);
        // In dollars (6 decimals): the rebalancing swap keeps more of its $10k, and more than the 30 bps base
        // would leave; the imbalancing one keeps less than that.
        uint256 imbalancingUsd = outImbalancing * 25 / 1e12;
        assertGt(outRebalancing, imbalancingUsd);
        assertGt(outRebalancing, 9_970e6);
        assertLt(imbalancingUsd, 9_970e6);
    }

    function test_dynamicFee_clampsAtMaxAndMin() public {
        IAmmPool.FeeParams memory p = _defaultParams();
        p.slopeBps = 10_000;
        vm.prank(owner);
        pool.setFeeParams(p);
        _swapAs(alice, usdc, 300_000e6, bytes32(0));
        (uint256 feeWhypeIn, uint256 feeUsdcIn) = _fees();
        // |w - w*| ~ 7.4 pp: 30 + 740 bps is clamped to 100; 30 - 740 is clamped to 5.
        assertEq(feeUsdcIn, 0.01e18);
        assertEq(feeWhypeIn, 0.0005e18);
    }

    function test_dynamicFee_splittingDoesNotLowerTheFee() public {
        uint256 whole = pool.estimateSwap(address(usdc), address(whype), 100_000e6);
        uint256 piecesOut;
        for (uint256 i; i < 10; ++i) {
            piecesOut += _swapAs(alice, usdc, 10_000e6, bytes32(0));
        }
        // Ten pieces pay the same average fee as the whole, up to a second-order effect: later pieces see the
        // output side net of the fee the LP kept (here < 0.1 bps of the output).
        assertApproxEqAbs(piecesOut, whole, whole / 100_000);
    }

    // ---------------------------------------------------------------- swaps

    function test_swap_paysTheEstimateAndBooksTheFeeSplit() public {
        uint256 estimate = pool.estimateSwap(address(usdc), address(whype), USDC_IN);
        uint256 whypeBefore = whype.balanceOf(alice);
        uint256 usdcBefore = usdc.balanceOf(alice);

        uint256 out = _swapAs(alice, usdc, USDC_IN, bytes32(0));

        assertEq(out, estimate);
        assertEq(whype.balanceOf(alice) - whypeBefore, out);
        assertEq(usdcBefore - usdc.balanceOf(alice), USDC_IN);
        uint256 fee = 30.5e6;
        uint256 protocolFee = fee * 2_000 / 10_000;
        (uint256 rWhype, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rUsdc, USDC_LIQUIDITY + USDC_IN - protocolFee, "LP keeps the fee net of the protocol share");
        assertEq(rWhype, WHYPE_LIQUIDITY - out);
        (uint256 p0, uint256 p1) = pool.protocolFees();
        (uint256 e0, uint256 e1) = _ordered(0, protocolFee);
        assertEq(p0, e0);
        assertEq(p1, e1);
        assertEq(_surplus(pool, address(usdc)), 0);
        assertEq(_surplus(pool, address(whype)), 0);
    }

    function test_swap_emitsSwapWithTheCaller() public {
        vm.expectEmit(address(pool));
        emit IAmmPool.Swap(alice, address(usdc), address(whype), USDC_IN, 398.78e18, 30.5e6);
        _swapAs(alice, usdc, USDC_IN, bytes32(0));
    }

    function test_swapWithRef_activeCode_accruesTheReferralShare() public {
        uint256 fee = 30.5e6;
        uint256 refFee = fee * 3_000 / 10_000;
        uint256 protocolFee = fee * 2_000 / 10_000;
        vm.expectEmit(address(pool));
        emit IAmmPool.SwapWithRef(alice, address(usdc), address(whype), USDC_IN, 398.78e18, fee, REF, refFee);
        _swapAs(alice, usdc, USDC_IN, REF);

        (uint256 c0, uint256 c1) = pool.getRefClaimable(REF);
        (uint256 e0, uint256 e1) = _ordered(0, refFee);
        assertEq(c0, e0);
        assertEq(c1, e1);
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        assertEq(t0, e0);
        assertEq(t1, e1);
        (, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rUsdc, USDC_LIQUIDITY + USDC_IN - protocolFee - refFee);
        assertEq(_surplus(pool, address(usdc)), 0);
    }

    function test_swapWithRef_unknownCode_doesNotBlockAndGoesToTheLp() public {
        bytes32 unknown = keccak256("nobody");
        vm.expectEmit(address(pool));
        emit IAmmPool.SwapWithRef(alice, address(usdc), address(whype), USDC_IN, 398.78e18, 30.5e6, unknown, 0);
        uint256 out = _swapAs(alice, usdc, USDC_IN, unknown);
        assertEq(out, 398.78e18, "a code does not change the price");
        (, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rUsdc, USDC_LIQUIDITY + USDC_IN - 30.5e6 * 2_000 / 10_000);
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        assertEq(t0 + t1, 0);
    }

    function test_swapWithRef_revokedCode_earnsNothing() public {
        vm.prank(owner);
        registry.revokeRefCode(REF);
        vm.expectEmit(address(pool));
        emit IAmmPool.SwapWithRef(alice, address(usdc), address(whype), USDC_IN, 398.78e18, 30.5e6, REF, 0);
        _swapAs(alice, usdc, USDC_IN, REF);
        (uint256 c0, uint256 c1) = pool.getRefClaimable(REF);
        assertEq(c0 + c1, 0);
    }

    function test_swapWithRef_zeroCode_earnsNothing() public {
        vm.expectEmit(address(pool));
        emit IAmmPool.SwapWithRef(alice, address(usdc), address(whype), USDC_IN, 398.78e18, 30.5e6, bytes32(0), 0);
        vm.prank(alice);
        pool.swap(address(usdc), address(whype), USDC_IN, 0, bytes32(0));
    }

    function test_swap_whypeToUsdc_paysUsdc() public {
        uint256 out = _swapAs(alice, whype, 400e18, bytes32(0));
        assertEq(out, 9_969.5e6);
        (uint256 rWhype, uint256 rUsdc) = _reservesWhypeUsdc();
        assertEq(rUsdc, USDC_LIQUIDITY - out);
        assertEq(rWhype, WHYPE_LIQUIDITY + 400e18 - 1.22e18 * 2_000 / 10_000);
    }

    function test_swap_atExactlyMaxPriceAge_works() public {
        vm.warp(block.timestamp + MAX_PRICE_AGE);
        _swapAs(alice, usdc, USDC_IN, bytes32(0));
    }

    // ---------------------------------------------------------------- swap errors

    function test_swap_revertsOnForeignToken() public {
        TestERC20 other = new TestERC20("Other", "OTH", 18);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(other)));
        pool.swap(address(other), address(usdc), 1e18, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(other)));
        pool.swap(address(usdc), address(other), 1e6, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(other)));
        pool.estimateSwap(address(whype), address(other), 1e18);
        vm.stopPrank();
    }

    function test_swap_revertsOnTheSameTokenTwice() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(usdc)));
        pool.swap(address(usdc), address(usdc), 1e6, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidToken.selector, address(whype)));
        pool.swap(address(whype), address(whype), 1e18, 0, REF);
        vm.stopPrank();
    }

    function test_swap_revertsOnZeroAmount() public {
        vm.prank(alice);
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        pool.swap(address(usdc), address(whype), 0, 0);
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        pool.estimateSwap(address(usdc), address(whype), 0);
    }

    function test_swap_revertsOnZeroOutput() public {
        vm.prank(alice);
        vm.expectRevert(IAmmPool.ZeroAmountOut.selector);
        pool.swap(address(usdc), address(whype), 1, 0);
    }

    function test_swap_revertsBelowTheMinimum() public {
        uint256 estimate = pool.estimateSwap(address(usdc), address(whype), USDC_IN);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.SlippageExceeded.selector, estimate, estimate + 1));
        pool.swap(address(usdc), address(whype), USDC_IN, estimate + 1);
        vm.prank(alice);
        pool.swap(address(usdc), address(whype), USDC_IN, estimate);
    }

    function test_swap_revertsAboveTheReserve() public {
        // $2M of USDC into the $2M pool: w moves 0.5 -> 0 (USDC side) or 1, midpoint 25 pp from the target, rate
        // 30 + 200 * 0.25 = 80 bps; fee 16,000 USDC; net $1,984,000 = 79,360 WHYPE > the 40,000 reserve.
        bytes memory expected =
            abi.encodeWithSelector(IAmmPool.InsufficientReserve.selector, 79_360e18, WHYPE_LIQUIDITY);
        vm.prank(alice);
        vm.expectRevert(expected);
        pool.swap(address(usdc), address(whype), 2_000_000e6, 0);
        vm.expectRevert(expected);
        pool.estimateSwap(address(usdc), address(whype), 2_000_000e6);
    }

    function test_swap_revertsWithoutApproval() public {
        _fund(bob, 0, 0);
        usdc.mint(bob, USDC_IN);
        vm.prank(bob);
        usdc.approve(address(pool), 0);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.TransferFailed.selector, address(usdc)));
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
    }

    function test_swap_revertsWhilePaused() public {
        vm.expectEmit(address(pool));
        emit Pausable.Paused(owner);
        _pause();
        vm.prank(alice);
        vm.expectRevert(Pausable.EnforcedPause.selector);
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
        vm.expectRevert(Pausable.EnforcedPause.selector);
        pool.estimateSwap(address(usdc), address(whype), USDC_IN);

        vm.expectEmit(address(pool));
        emit Pausable.Unpaused(owner);
        vm.prank(owner);
        pool.unpause();
        _swapAs(alice, usdc, USDC_IN, bytes32(0));
    }

    function test_pause_onlyOwner() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.pause();
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.unpause();
        vm.stopPrank();
    }

    function test_swap_revertsOnStalePrice() public {
        uint256 setAt = block.timestamp;
        vm.warp(setAt + MAX_PRICE_AGE + 1);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.StalePrice.selector, address(token0), setAt));
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.StalePrice.selector, address(token0), setAt));
        pool.estimateSwap(address(usdc), address(whype), USDC_IN);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.StalePrice.selector, address(token0), setAt));
        pool.getPoolFees();

        _setPrices(WHYPE_PRICE, USDC_PRICE);
        _swapAs(alice, usdc, USDC_IN, bytes32(0));
    }

    function test_swap_revertsOnOneStalePrice() public {
        vm.warp(block.timestamp + MAX_PRICE_AGE + 1);
        vm.prank(owner);
        oracle.setPrice(address(token0), 1e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.StalePrice.selector, address(token1), 1));
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
    }

    function test_swap_revertsOnZeroPrice() public {
        vm.prank(owner);
        oracle.setPrice(address(usdc), 0);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(usdc)));
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
    }

    function test_swap_revertsOnPriceAboveTheCap() public {
        vm.prank(owner);
        oracle.setPrice(address(whype), 1e36 + 1);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(whype)));
        pool.estimateSwap(address(usdc), address(whype), USDC_IN);
    }

    function test_swap_revertsOnMissingPrice() public {
        TestERC20 fresh = new TestERC20("Fresh", "FRESH", 18);
        AmmPool p =
            new AmmPool(address(fresh), address(usdc), address(oracle), address(registry), _defaultParams(), 60, owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(fresh)));
        p.estimateSwap(address(usdc), address(fresh), 1e6);
    }

    function test_swap_revertsOnRevertingOrMalformedOracle() public {
        address reverting = address(new RevertingOracle());
        address malformed = address(new MalformedOracle());
        vm.prank(owner);
        pool.setOracle(reverting);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(token0)));
        pool.estimateSwap(address(usdc), address(whype), USDC_IN);

        vm.prank(owner);
        pool.setOracle(malformed);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(token0)));
        pool.swap(address(usdc), address(whype), USDC_IN, 0);
    }

    // ---------------------------------------------------------------- referral fees

    function _accrueRef() internal returns (uint256 refUsdc, uint256 refWhype) {
        _swapAs(alice, usdc, USDC_IN, REF);
        _swapAs(alice, whype, 400e18, REF);
        (uint256 c0, uint256 c1) = pool.getRefClaimable(REF);
        (refWhype, refUsdc) = _usdcIsToken0() ? (c1, c0) : (c0, c1);
        assertGt(refUsdc, 0);
        assertGt(refWhype, 0);
    }

    function test_getRefClaimable_revertsForUnregisteredCode() public {
        bytes32 unknown = keccak256("nobody");
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidRefCode.selector, unknown));
        pool.getRefClaimable(unknown);
    }

    function test_claimRefFees_paysTheClaimWallet() public {
        (uint256 refUsdc, uint256 refWhype) = _accrueRef();
        (uint256 e0, uint256 e1) = _ordered(refWhype, refUsdc);
        vm.expectEmit(address(pool));
        emit IAmmPool.RefFeesClaimed(REF, refWallet, e0, e1);
        vm.prank(refWallet);
        (uint256 a0, uint256 a1) = pool.claimRefFees(REF);
        assertEq(a0, e0);
        assertEq(a1, e1);
        assertEq(usdc.balanceOf(refWallet), refUsdc);
        assertEq(whype.balanceOf(refWallet), refWhype);
        (uint256 c0, uint256 c1) = pool.getRefClaimable(REF);
        assertEq(c0 + c1, 0);
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        assertEq(t0 + t1, 0);
        assertEq(_surplus(pool, address(usdc)), 0);
        assertEq(_surplus(pool, address(whype)), 0);

        // A second claim pays nothing and emits nothing.
        vm.prank(refWallet);
        (a0, a1) = pool.claimRefFees(REF);
        assertEq(a0 + a1, 0);
    }

    function test_claimRefFees_revertsForAnotherCaller() public {
        _accrueRef();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedRefCodeClaim.selector, REF, alice));
        pool.claimRefFees(REF);
    }

    function test_claimRefFees_revertsForUnregisteredCode() public {
        bytes32 unknown = keccak256("nobody");
        vm.prank(refWallet);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidRefCode.selector, unknown));
        pool.claimRefFees(unknown);
    }

    function test_claimRefFees_lockedAfterAClaimWalletChange() public {
        (uint256 refUsdc,) = _accrueRef();
        address newWallet = makeAddr("newWallet");
        vm.prank(owner);
        registry.setClaimWallet(REF, newWallet);
        uint256 unlock = block.timestamp + CLAIM_LOCK;

        vm.prank(refWallet);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedRefCodeClaim.selector, REF, refWallet));
        pool.claimRefFees(REF);
        vm.prank(newWallet);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.RefCodeClaimLocked.selector, REF, unlock));
        pool.claimRefFees(REF);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.RefCodeClaimLocked.selector, REF, unlock));
        pool.distributeRefFees(REF);

        vm.warp(unlock);
        vm.prank(newWallet);
        pool.claimRefFees(REF);
        assertEq(usdc.balanceOf(newWallet), refUsdc);
    }

    function test_claimRefFees_revokedCodeKeepsWhatItAccrued() public {
        (uint256 refUsdc,) = _accrueRef();
        vm.prank(owner);
        registry.revokeRefCode(REF);
        vm.prank(refWallet);
        pool.claimRefFees(REF);
        assertEq(usdc.balanceOf(refWallet), refUsdc);
    }

    function test_claimRefFeesFor_onlyTheRouter() public {
        _accrueRef();
        vm.prank(refWallet);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedCaller.selector, refWallet));
        pool.claimRefFeesFor(REF, refWallet);

        vm.prank(address(router));
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedRefCodeClaim.selector, REF, alice));
        pool.claimRefFeesFor(REF, alice);

        vm.prank(address(router));
        pool.claimRefFeesFor(REF, refWallet);
        assertGt(usdc.balanceOf(refWallet), 0);
    }

    function test_claimRefFeesFor_nobodyWithoutARouter() public {
        vm.prank(owner);
        pool.setRouter(address(0));
        vm.prank(address(0));
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedCaller.selector, address(0)));
        pool.claimRefFeesFor(REF, refWallet);
    }

    function test_distributeRefFees_anyonePushesToTheClaimWallet() public {
        (uint256 refUsdc, uint256 refWhype) = _accrueRef();
        (uint256 e0, uint256 e1) = _ordered(refWhype, refUsdc);
        vm.expectEmit(address(pool));
        emit IAmmPool.RefFeesClaimed(REF, refWallet, e0, e1);
        vm.prank(bob);
        pool.distributeRefFees(REF);
        assertEq(usdc.balanceOf(refWallet), refUsdc);
        assertEq(whype.balanceOf(refWallet), refWhype);
        assertEq(usdc.balanceOf(bob), 0);
    }

    function test_distributeRefFees_revertsForUnregisteredCode() public {
        bytes32 unknown = keccak256("nobody");
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidRefCode.selector, unknown));
        pool.distributeRefFees(unknown);
    }

    // ---------------------------------------------------------------- protocol fees

    function test_claimProtocolFees_paysTheTreasury() public {
        _swapAs(alice, usdc, USDC_IN, bytes32(0));
        _swapAs(alice, whype, 400e18, bytes32(0));
        (uint256 p0, uint256 p1) = pool.protocolFees();
        assertGt(p0, 0);
        assertGt(p1, 0);
        vm.expectEmit(address(pool));
        emit IAmmPool.ProtocolFeesClaimed(treasury, p0, p1);
        vm.prank(owner);
        (uint256 a0, uint256 a1) = pool.claimProtocolFees(treasury);
        assertEq(a0, p0);
        assertEq(a1, p1);
        assertEq(token0.balanceOf(treasury), p0);
        assertEq(token1.balanceOf(treasury), p1);
        (p0, p1) = pool.protocolFees();
        assertEq(p0 + p1, 0);
        assertEq(_surplus(pool, address(usdc)), 0);
    }

    function test_claimProtocolFees_onlyOwnerAndNotToZero() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.claimProtocolFees(alice);
        vm.prank(owner);
        vm.expectRevert(IAmmPool.ZeroAddress.selector);
        pool.claimProtocolFees(address(0));
    }

    // ---------------------------------------------------------------- settings

    function test_setFeeParams_setsAndEmits() public {
        IAmmPool.FeeParams memory p = IAmmPool.FeeParams({
            minFeeBps: 0,
            baseFeeBps: 500,
            maxFeeBps: 500,
            slopeBps: 10_000,
            protocolShareBps: 5_000,
            refShareBps: 5_000,
            targetWeight0: 0.95e18
        });
        vm.expectEmit(address(pool));
        emit IAmmPool.FeeParamsSet(p);
        vm.prank(owner);
        pool.setFeeParams(p);
        assertEq(uint256(pool.feeParams().targetWeight0), 0.95e18);
        assertEq(uint256(pool.feeParams().baseFeeBps), 500);
    }

    function test_setFeeParams_rejectsOutOfBounds() public {
        IAmmPool.FeeParams[] memory bad = new IAmmPool.FeeParams[](7);
        for (uint256 i; i < 7; ++i) {
            bad[i] = _defaultParams();
        }
        bad[0].maxFeeBps = 501;
        bad[1].minFeeBps = 31;
        bad[2].baseFeeBps = 101;
        bad[3].slopeBps = 10_001;
        bad[4].protocolShareBps = 7_001;
        bad[5].targetWeight0 = 0.05e18 - 1;
        bad[6].targetWeight0 = 0.95e18 + 1;
        vm.startPrank(owner);
        for (uint256 i; i < 7; ++i) {
            vm.expectRevert(IAmmPool.InvalidFeeParams.selector);
            pool.setFeeParams(bad[i]);
        }
        vm.stopPrank();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.setFeeParams(_defaultParams());
    }

    function test_setMaxPriceAge_setsAndBounds() public {
        vm.startPrank(owner);
        vm.expectEmit(address(pool));
        emit IAmmPool.MaxPriceAgeSet(7 days);
        pool.setMaxPriceAge(7 days);
        assertEq(pool.maxPriceAge(), 7 days);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidMaxPriceAge.selector, 7 days + 1));
        pool.setMaxPriceAge(7 days + 1);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidMaxPriceAge.selector, 0));
        pool.setMaxPriceAge(0);
        vm.stopPrank();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.setMaxPriceAge(60);
    }

    function test_setOracle_setsAndRejectsZero() public {
        address next = makeAddr("nextOracle");
        vm.startPrank(owner);
        vm.expectEmit(address(pool));
        emit IAmmPool.OracleSet(next);
        pool.setOracle(next);
        assertEq(pool.oracle(), next);
        vm.expectRevert(IAmmPool.ZeroAddress.selector);
        pool.setOracle(address(0));
        vm.stopPrank();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.setOracle(next);
    }

    function test_setRouter_setsAndEmits() public {
        vm.expectEmit(address(pool));
        emit IAmmPool.RouterSet(bob);
        vm.prank(owner);
        pool.setRouter(bob);
        assertEq(pool.router(), bob);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        pool.setRouter(alice);
    }

    // ---------------------------------------------------------------- badly behaved tokens

    function test_noReturnToken_tradesNormally() public {
        NoReturnToken noRet = new NoReturnToken();
        AmmPool p = _poolWith(address(noRet));
        noRet.mint(owner, 1_000e18);
        usdc.mint(owner, 1_000e6);
        vm.startPrank(owner);
        noRet.approve(address(p), type(uint256).max);
        usdc.approve(address(p), type(uint256).max);
        (uint256 a0, uint256 a1) = _withUsdc(address(noRet), 1_000e18, 1_000e6);
        p.addLiquidity(a0, a1);
        vm.stopPrank();

        noRet.mint(alice, 10e18);
        vm.startPrank(alice);
        noRet.approve(address(p), type(uint256).max);
        usdc.approve(address(p), type(uint256).max);
        uint256 out = p.swap(address(noRet), address(usdc), 10e18, 0);
        assertEq(usdc.balanceOf(alice), 100_000_000e6 + out);
        uint256 back = p.swap(address(usdc), address(noRet), out, 0);
        vm.stopPrank();
        assertEq(noRet.balanceOf(alice), back);
        assertEq(_surplus(p, address(noRet)), 0);
    }

    function test_returnsFalseToken_revertsTransferFailed() public {
        ReturnsFalseToken falseToken = new ReturnsFalseToken();
        AmmPool p = _poolWith(address(falseToken));
        falseToken.mint(owner, 1e18);
        vm.startPrank(owner);
        falseToken.approve(address(p), 1e18);
        (uint256 a0, uint256 a1) = _withUsdc(address(falseToken), 1e18, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.TransferFailed.selector, address(falseToken)));
        p.addLiquidity(a0, a1);
        vm.stopPrank();
    }

    function test_feeOnTransferToken_isRefused() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        AmmPool p = _poolWith(address(fot));
        fot.mint(owner, 1_000e18);
        usdc.mint(owner, 1_000e6);
        vm.startPrank(owner);
        fot.approve(address(p), type(uint256).max);
        usdc.approve(address(p), type(uint256).max);
        bool fotFirst = address(fot) < address(usdc);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.FeeOnTransferNotSupported.selector, address(fot)));
        p.addLiquidity(fotFirst ? 1_000e18 : 0, fotFirst ? 0 : 1_000e18);
        // One-sided USDC liquidity; then selling the token into the pool is refused as well.
        p.addLiquidity(fotFirst ? 0 : 1_000e6, fotFirst ? 1_000e6 : 0);
        vm.stopPrank();

        fot.mint(alice, 10e18);
        vm.startPrank(alice);
        fot.approve(address(p), type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.FeeOnTransferNotSupported.selector, address(fot)));
        p.swap(address(fot), address(usdc), 10e18, 0);
        vm.stopPrank();
    }

    function test_reentrantToken_cannotReenterASwap() public {
        ReentrantToken reent = new ReentrantToken();
        AmmPool p = _poolWith(address(reent));
        reent.mint(owner, 1_000e18);
        usdc.mint(owner, 1_000e6);
        vm.startPrank(owner);
        reent.approve(address(p), type(uint256).max);
        usdc.approve(address(p), type(uint256).max);
        (uint256 a0, uint256 a1) = _withUsdc(address(reent), 1_000e18, 1_000e6);
        p.addLiquidity(a0, a1);
        vm.stopPrank();

        reent.mint(alice, 10e18);
        vm.startPrank(alice);
        reent.approve(address(p), type(uint256).max);
        reent.arm(p);
        p.swap(address(reent), address(usdc), 10e18, 0);
        vm.stopPrank();
        assertEq(reent.caught(), ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
    }
}
