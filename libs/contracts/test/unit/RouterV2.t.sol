// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {RouterFixture} from "../router/RouterFixture.sol";
import {FakePair, NoReceive, ReentrantRecipient, ReentrantToken} from "../router/RouterMocks.sol";
import {FeeOnTransferToken, NoReturnToken} from "../mocks/BadTokens.sol";
import {RouterV2} from "../../src/router/RouterV2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {StablePool} from "../../src/sources/stable/StablePool.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";

contract RouterV2Test is RouterFixture {
    uint256 internal constant AMOUNT = 1_000 ether;

    // ---------------------------------------------------------------- helpers

    /// @dev alice runs `executeSwaps` with `value` native coin.
    function _execute(
        address[] memory tokens,
        uint256 amountIn,
        uint256 minOut,
        uint256 expectedOut,
        IRouterV2.Swap[][] memory hops,
        uint256 feeBps,
        address feeRecipient,
        uint256 value
    ) internal returns (uint256) {
        vm.prank(alice);
        return router.executeSwaps{value: value}(tokens, amountIn, minOut, expectedOut, hops, feeBps, feeRecipient);
    }

    /// @dev A plain A -> B swap on v2A's pair, as the default route of the error tests.
    function _abHops() internal view returns (IRouterV2.Swap[][] memory) {
        return _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT));
    }

    function _assertRouterEmpty() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), 0, "router holds A");
        assertEq(tokenB.balanceOf(r), 0, "router holds B");
        assertEq(tokenC.balanceOf(r), 0, "router holds C");
        assertEq(usdc.balanceOf(r), 0, "router holds USDC");
        assertEq(dai.balanceOf(r), 0, "router holds DAI");
        assertEq(wnative.balanceOf(r), 0, "router holds wrapped native");
        assertEq(r.balance, 0, "router holds native");
    }

    // ---------------------------------------------------------------- deployment and settings

    function test_constructor_setsState() public view {
        assertEq(router.owner(), owner);
        assertEq(router.wrappedNative(), address(wnative));
        assertEq(router.treasury(), treasury);
        assertEq(router.MAX_FEE_BPS(), 100);
        assertEq(router.INTEGRATOR_SHARE_BPS(), 9_750);
        assertEq(router.SLIPPAGE_CAPTURE_BPS(), 5_000);
        IRouterV2.Source memory source = router.getSource(V2_B);
        assertEq(uint256(source.kind), uint256(IRouterV2.SourceKind.UniswapV2));
        assertEq(source.factory, address(v2B));
        assertEq(uint256(source.feeBps), V2_B_FEE_BPS);
    }

    function test_constructor_emitsTreasurySet() public {
        vm.expectEmit();
        emit IRouterV2.TreasurySet(address(0), treasury);
        new RouterV2(owner, address(wnative), treasury);
    }

    function test_constructor_revertsOnZeroWrappedNative() public {
        vm.expectRevert(IRouterV2.InvalidWrappedNative.selector);
        new RouterV2(owner, address(0), treasury);
    }

    function test_constructor_revertsOnZeroTreasury() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidTreasury.selector, address(0)));
        new RouterV2(owner, address(wnative), address(0));
    }

    function test_constructor_revertsOnZeroOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableInvalidOwner.selector, address(0)));
        new RouterV2(address(0), address(wnative), treasury);
    }

    function test_setSource_storesAndEmits() public {
        vm.expectEmit(address(router));
        emit IRouterV2.SourceSet(7, IRouterV2.SourceKind.Stable, address(stableFactory), 5);
        vm.prank(owner);
        router.setSource(7, IRouterV2.SourceKind.Stable, address(stableFactory), 5);
        IRouterV2.Source memory source = router.getSource(7);
        assertEq(uint256(source.kind), uint256(IRouterV2.SourceKind.Stable));
        assertEq(source.factory, address(stableFactory));
        assertEq(uint256(source.feeBps), 5);
    }

    function test_setSource_overwrites() public {
        vm.prank(owner);
        router.setSource(V2_A, IRouterV2.SourceKind.UniswapV2, address(v2B), 10);
        assertEq(router.getSource(V2_A).factory, address(v2B));
        assertEq(uint256(router.getSource(V2_A).feeBps), 10);
    }

    function test_setSource_revertsOnKindNone() public {
        vm.prank(owner);
        vm.expectRevert(IRouterV2.InvalidSourceKind.selector);
        router.setSource(9, IRouterV2.SourceKind.None, address(v2A), 30);
    }

    function test_setSource_revertsOnZeroFactory() public {
        vm.prank(owner);
        vm.expectRevert(IRouterV2.InvalidSourceFactory.selector);
        router.setSource(9, IRouterV2.SourceKind.UniswapV2, address(0), 30);
    }

    function test_setSource_revertsOnFullFee() public {
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidSourceFee.selector, uint16(10_000)));
        router.setSource(9, IRouterV2.SourceKind.UniswapV2, address(v2A), 10_000);
    }

    function test_setSource_revertsForNonOwner() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        router.setSource(9, IRouterV2.SourceKind.UniswapV2, address(v2A), 30);
    }

    function test_removeSource_clearsAndEmits() public {
        vm.expectEmit(address(router));
        emit IRouterV2.SourceRemoved(V2_B);
        vm.prank(owner);
        router.removeSource(V2_B);
        IRouterV2.Source memory source = router.getSource(V2_B);
        assertEq(uint256(source.kind), uint256(IRouterV2.SourceKind.None));
        assertEq(source.factory, address(0));
        assertEq(uint256(source.feeBps), 0);
    }

    function test_removeSource_revertsOnEmptySlot() public {
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnknownSource.selector, uint8(42)));
        router.removeSource(42);
    }

    function test_removeSource_revertsForNonOwner() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        router.removeSource(V2_A);
    }

    function test_getSource_emptySlotIsNone() public view {
        IRouterV2.Source memory source = router.getSource(200);
        assertEq(uint256(source.kind), 0);
        assertEq(source.factory, address(0));
    }

    function test_setTreasury_setsAndEmits() public {
        vm.expectEmit(address(router));
        emit IRouterV2.TreasurySet(treasury, bob);
        vm.prank(owner);
        router.setTreasury(bob);
        assertEq(router.treasury(), bob);
    }

    function test_setTreasury_revertsOnZeroOrRouter() public {
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidTreasury.selector, address(0)));
        router.setTreasury(address(0));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidTreasury.selector, address(router)));
        router.setTreasury(address(router));
        vm.stopPrank();
    }

    function test_setTreasury_revertsForNonOwner() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        router.setTreasury(alice);
    }

    function test_ownership_isTwoStep() public {
        vm.prank(owner);
        router.transferOwnership(bob);
        assertEq(router.owner(), owner);
        assertEq(router.pendingOwner(), bob);
        vm.prank(bob);
        router.acceptOwnership();
        assertEq(router.owner(), bob);
    }

    function test_receive_acceptsTheWrappedNativeOnly() public {
        vm.deal(alice, 1 ether);
        vm.prank(alice);
        (bool success, bytes memory returned) = address(router).call{value: 1 ether}("");
        assertFalse(success);
        assertEq(returned, abi.encodeWithSelector(IRouterV2.NativeSenderNotAllowed.selector, alice));

        vm.deal(address(wnative), 1 ether);
        vm.prank(address(wnative));
        (success,) = address(router).call{value: 1 ether}("");
        assertTrue(success);
    }

    // ---------------------------------------------------------------- previewFees

    function test_previewFees_noFeeNoExpected_allToUser() public view {
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            router.previewFees(1_000_000, 0, 0, false);
        assertEq(user, 1_000_000);
        assertEq(integratorFee + protocolFee + recipientSlip + protocolSlip, 0);
    }

    function test_previewFees_feeAndSlippageWithRecipient() public view {
        // fee 10000 -> 9750 / 250; after fee 990000 vs expected after fee 891000: slippage 99000, captured 49500
        // split 24750 / 24750; the protocol's total is 250 + 24750.
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            router.previewFees(1_000_000, 900_000, 100, true);
        assertEq(user, 940_500);
        assertEq(integratorFee, 9_750);
        assertEq(protocolFee, 25_000);
        assertEq(recipientSlip, 24_750);
        assertEq(protocolSlip, 24_750);
        assertEq(user + integratorFee + protocolFee + recipientSlip, 1_000_000);
    }

    function test_previewFees_slippageWithoutRecipient_allCapturedToProtocol() public view {
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            router.previewFees(1_000_001, 900_000, 0, false);
        // slippage 100001, captured 50000 (rounded down).
        assertEq(user, 950_001);
        assertEq(integratorFee, 0);
        assertEq(recipientSlip, 0);
        assertEq(protocolSlip, 50_000);
        assertEq(protocolFee, 50_000);
    }

    function test_previewFees_oddCapturedRoundsRecipientDown() public view {
        (, uint256 integratorFee,, uint256 recipientSlip, uint256 protocolSlip) =
            router.previewFees(1_000_006, 1_000_000, 0, true);
        // slippage 6, captured 3: recipient 1, protocol 2.
        assertEq(integratorFee, 0);
        assertEq(recipientSlip, 1);
        assertEq(protocolSlip, 2);
    }

    function test_previewFees_revertsOnFeeTooHigh() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.FeeTooHigh.selector, 101, 100));
        router.previewFees(1, 0, 101, true);
    }

    function test_previewFees_revertsOnFeeWithoutRecipient() public {
        vm.expectRevert(IRouterV2.FeeRecipientRequired.selector);
        router.previewFees(1, 0, 1, false);
    }

    // ---------------------------------------------------------------- routes

    function test_executeSwaps_directV2() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(tokenB), AMOUNT, expectedOut, expectedOut);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, expectedOut, 0, _abHops(), 0, address(0), 0);

        assertEq(out, expectedOut);
        assertEq(tokenB.balanceOf(alice), expectedOut);
        assertEq(tokenA.balanceOf(alice), 0);
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether + AMOUNT);
        _assertRouterEmpty();
    }

    function test_executeSwaps_secondV2DeploymentUsesItsFee() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAB2, address(tokenA), AMOUNT, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB2, address(tokenA), address(tokenB), V2_B, AMOUNT));
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertGt(expectedOut, _v2Quote(pairAB2, address(tokenA), AMOUNT, V2_A_FEE_BPS));
        _assertRouterEmpty();
    }

    function test_executeSwaps_reverseDirection() public {
        _fundAndApprove(alice, address(tokenB), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAB, address(tokenB), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenB), address(tokenA), V2_A, AMOUNT));
        uint256 out = _execute(_path(address(tokenB), address(tokenA)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(alice), expectedOut);
        _assertRouterEmpty();
    }

    function test_executeSwaps_directStable() public {
        uint256 amountIn = 10_000e6;
        _fundAndApprove(alice, address(usdc), amountIn);
        uint256 expectedOut = StablePool(stableUsdcDai).getAmountOut(amountIn, address(usdc));
        IRouterV2.Swap[][] memory hops = _hops(_swap(stableUsdcDai, address(usdc), address(dai), STABLE, amountIn));
        uint256 out = _execute(_path(address(usdc), address(dai)), amountIn, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(dai.balanceOf(alice), expectedOut);
        // A balanced stable pool trades near par: 10000 USDC for a little under 10000 DAI.
        assertGt(out, 9_990 ether);
        assertLt(out, 10_000 ether);
        _assertRouterEmpty();
    }

    function test_executeSwaps_multiHopV2() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 outB = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 outC = _v2Quote(pairBC, address(tokenB), outB, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
            _swap(pairBC, address(tokenB), address(tokenC), V2_A, outB)
        );

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(tokenC), AMOUNT, outC, outC);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, outC, 0, hops, 0, address(0), 0);
        assertEq(out, outC);
        assertEq(tokenC.balanceOf(alice), outC);
        assertEq(tokenB.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    function test_executeSwaps_multiHopAcrossKinds() public {
        _fundAndApprove(alice, address(tokenC), AMOUNT);
        uint256 outUsdc = _v2Quote(pairCUsdc, address(tokenC), AMOUNT, V2_A_FEE_BPS);
        // The stable pool's quote after the first hop is the same as before it (a different pool).
        uint256 outDai = StablePool(stableUsdcDai).getAmountOut(outUsdc, address(usdc));
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, AMOUNT),
            _swap(stableUsdcDai, address(usdc), address(dai), STABLE, outUsdc)
        );
        uint256 out =
            _execute(_path(address(tokenC), address(usdc), address(dai)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, outDai);
        assertEq(dai.balanceOf(alice), outDai);
        _assertRouterEmpty();
    }

    function test_executeSwaps_splitAcrossDeployments() public {
        // An amount that does not divide evenly: the last swap takes the remainder.
        uint256 amountIn = AMOUNT + 7;
        _fundAndApprove(alice, address(tokenA), amountIn);
        uint256 share0 = (amountIn * 600) / 1000;
        uint256 share1 = amountIn - share0;
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), share0, V2_A_FEE_BPS)
            + _v2Quote(pairAB2, address(tokenA), share1, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 600),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 400)
        );

        uint256 out = _execute(_path(address(tokenA), address(tokenB)), amountIn, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether + share0);
        assertEq(tokenA.balanceOf(pairAB2), 500_000 ether + share1);
        _assertRouterEmpty();
    }

    function test_executeSwaps_splitOnTheSamePoolTwice() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 share0 = AMOUNT / 4;
        uint256 share1 = AMOUNT - share0;
        (uint256 reserveIn, uint256 reserveOut) = _v2Reserves(pairAB, address(tokenA));
        uint256 out0 = _v2AmountOut(share0, reserveIn, reserveOut, V2_A_FEE_BPS);
        uint256 out1 = _v2AmountOut(share1, reserveIn + share0, reserveOut - out0, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 3)
        );
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, out0 + out1);
        _assertRouterEmpty();
    }

    function test_executeSwaps_zeroQuotedSwapIsSkipped() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAB2, address(tokenA), AMOUNT, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 0),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 5)
        );
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether);
        _assertRouterEmpty();
    }

    function test_executeSwaps_nativeIn() public {
        uint256 amountIn = 10 ether;
        vm.deal(alice, amountIn);
        uint256 expectedOut = _v2Quote(pairAW, address(wnative), amountIn, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(wnative), address(tokenA), V2_A, amountIn));

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(0), address(tokenA), amountIn, expectedOut, expectedOut);
        uint256 out = _execute(_path(address(0), address(tokenA)), amountIn, 0, 0, hops, 0, address(0), amountIn);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(alice), expectedOut);
        assertEq(alice.balance, 0);
        assertEq(wnative.balanceOf(pairAW), 10_000 ether + amountIn);
        _assertRouterEmpty();
    }

    function test_executeSwaps_nativeInSplit() public {
        uint256 amountIn = 10 ether;
        vm.deal(alice, amountIn);
        uint256 share0 = amountIn / 2;
        uint256 expectedOut = _v2Quote(pairAW, address(wnative), share0, V2_A_FEE_BPS)
            + _v2Quote(pairAW2, address(wnative), amountIn - share0, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAW, address(wnative), address(tokenA), V2_A, 1 ether),
            _swap(pairAW2, address(wnative), address(tokenA), V2_B, 1 ether)
        );
        uint256 out = _execute(_path(address(0), address(tokenA)), amountIn, 0, 0, hops, 0, address(0), amountIn);
        assertEq(out, expectedOut);
        _assertRouterEmpty();
    }

    function test_executeSwaps_nativeOut() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(0), AMOUNT, expectedOut, expectedOut);
        uint256 out = _execute(_path(address(tokenA), address(0)), AMOUNT, expectedOut, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(alice.balance, expectedOut);
        assertEq(wnative.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    function test_executeSwaps_nativeOutPaysFeesInNative() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 expectedOut = gross - gross / 10;
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip,) =
            _referenceSplit(gross, expectedOut, 50, true);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));

        uint256 out = _execute(_path(address(tokenA), address(0)), AMOUNT, user, expectedOut, hops, 50, integrator, 0);
        assertEq(out, user);
        assertEq(alice.balance, user);
        assertEq(integrator.balance, integratorFee + recipientSlip);
        assertEq(treasury.balance, protocolFee);
        assertEq(wnative.balanceOf(integrator) + wnative.balanceOf(treasury), 0);
        assertEq(alice.balance + integrator.balance + treasury.balance, gross);
        _assertRouterEmpty();
    }

    function test_executeSwaps_nativeInAndOut() public {
        uint256 amountIn = 10 ether;
        vm.deal(alice, amountIn);
        uint256 outA = _v2Quote(pairAW, address(wnative), amountIn, V2_A_FEE_BPS);
        uint256 outNative = _v2Quote(pairAW2, address(tokenA), outA, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAW, address(wnative), address(tokenA), V2_A, amountIn),
            _swap(pairAW2, address(tokenA), address(wnative), V2_B, outA)
        );
        uint256 out =
            _execute(_path(address(0), address(tokenA), address(0)), amountIn, 0, 0, hops, 0, address(0), amountIn);
        assertEq(out, outNative);
        assertEq(alice.balance, outNative);
        _assertRouterEmpty();
    }

    function test_executeSwaps_wrappedNativeAsAPlainToken() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expectedOut = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        uint256 out = _execute(_path(address(tokenA), address(wnative)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(wnative.balanceOf(alice), expectedOut);
        assertEq(alice.balance, 0);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- where the tokens pass

    function test_tokenInput_isPulledStraightIntoThePoolWhichPaysTheRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAB, AMOUNT);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, bob, gross);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, bob, address(tokenA), address(tokenB), AMOUNT, gross, gross);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)), AMOUNT, gross, 0, _abHops(), 0, address(0), bob, block.timestamp
        );
        assertEq(out, gross);
        assertEq(tokenB.balanceOf(bob), gross);
        assertEq(tokenA.allowance(alice, address(router)), 0);
        _assertRouterEmpty();
    }

    function test_splitHop_pullsEachShareStraightIntoItsPoolAndEachPoolPaysTheRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 share0 = (AMOUNT * 2) / 5;
        uint256 share1 = AMOUNT - share0;
        uint256 out0 = _v2Quote(pairAB, address(tokenA), share0, V2_A_FEE_BPS);
        uint256 out1 = _v2Quote(pairAB2, address(tokenA), share1, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 2),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 3)
        );

        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAB, share0);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, alice, out0);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAB2, share1);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB2, alice, out1);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, out0 + out1);
        assertEq(tokenB.balanceOf(alice), out0 + out1);
        _assertRouterEmpty();
    }

    function test_expectedAmountNotExceeded_poolPaysTheRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        // An output exactly at the expected amount has no positive slippage to capture.
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, alice, gross);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, gross, _abHops(), 0, address(0), 0);
        assertEq(out, gross);
        assertEq(tokenB.balanceOf(treasury), 0);
        _assertRouterEmpty();
    }

    function test_expectedAmountExceeded_poolPaysTheRouterWhichCaptures() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, address(router), gross);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), alice, gross - 1);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), treasury, 1);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, gross - 2, _abHops(), 0, address(0), 0);
        assertEq(out, gross - 1);
        _assertRouterEmpty();
    }

    function test_splitWithAnExpectedAmount_poolsPayTheRouterWhichCapturesOnTheTotal() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 share0 = AMOUNT / 2;
        uint256 out0 = _v2Quote(pairAB, address(tokenA), share0, V2_A_FEE_BPS);
        uint256 out1 = _v2Quote(pairAB2, address(tokenA), AMOUNT - share0, V2_B_FEE_BPS);
        uint256 gross = out0 + out1;
        // Each swap alone stays below the expected amount; together they exceed it.
        uint256 expectedOut = gross - 10 ether;
        (uint256 user,, uint256 protocolFee,,) = _referenceSplit(gross, expectedOut, 0, false);
        assertGt(expectedOut, out0);
        assertGt(expectedOut, out1);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 1)
        );

        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, address(router), out0);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB2, address(router), out1);
        vm.expectEmit(address(router));
        emit IRouterV2.PositiveSlippageCaptured(address(tokenB), 10 ether, 0, 5 ether);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, expectedOut, hops, 0, address(0), 0);
        assertEq(out, user);
        assertEq(tokenB.balanceOf(alice), user);
        assertEq(tokenB.balanceOf(treasury), protocolFee);
        assertEq(protocolFee, 5 ether);
        _assertRouterEmpty();
    }

    function test_nativeInput_routerWrapsAndPaysThePools() public {
        uint256 amountIn = 10 ether;
        vm.deal(alice, amountIn);
        uint256 share0 = amountIn / 4;
        uint256 out0 = _v2Quote(pairAW, address(wnative), share0, V2_A_FEE_BPS);
        uint256 out1 = _v2Quote(pairAW2, address(wnative), amountIn - share0, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAW, address(wnative), address(tokenA), V2_A, 1),
            _swap(pairAW2, address(wnative), address(tokenA), V2_B, 3)
        );

        vm.expectEmit(address(wnative));
        emit IERC20.Transfer(address(router), pairAW, share0);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(pairAW, alice, out0);
        vm.expectEmit(address(wnative));
        emit IERC20.Transfer(address(router), pairAW2, amountIn - share0);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(pairAW2, alice, out1);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(0), address(tokenA), amountIn, out0 + out1, out0 + out1);
        uint256 out = _execute(_path(address(0), address(tokenA)), amountIn, 0, 0, hops, 0, address(0), amountIn);
        assertEq(out, out0 + out1);
        _assertRouterEmpty();
    }

    function test_multiHop_intermediateTokensPassThroughTheRouter() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 outB = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 outC = _v2Quote(pairBC, address(tokenB), outB, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
            _swap(pairBC, address(tokenB), address(tokenC), V2_A, outB)
        );

        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAB, AMOUNT);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, address(router), outB);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), pairBC, outB);
        vm.expectEmit(address(tokenC));
        emit IERC20.Transfer(pairBC, alice, outC);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, outC);
        _assertRouterEmpty();
    }

    function test_recipientIsATokenOfTheHop_isPaidThroughTheRouter() public {
        // Pools refuse to pay their own tokens' contracts, so the router takes the output and pays it on.
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), address(tokenB), gross);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            gross,
            0,
            _abHops(),
            0,
            address(0),
            address(tokenB),
            block.timestamp
        );
        assertEq(out, gross);
        assertEq(tokenB.balanceOf(address(tokenB)), gross);
        _assertRouterEmpty();
    }

    function test_recipientIsThePool_isPaidThroughTheRouter() public {
        // A pool paying itself would keep the output in its reserves; the router pays it on, as before.
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), pairAB, gross);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)), AMOUNT, gross, 0, _abHops(), 0, address(0), pairAB, block.timestamp
        );
        assertEq(out, gross);
        (, uint256 reserveB) = _v2Reserves(pairAB, address(tokenA));
        assertEq(tokenB.balanceOf(pairAB) - reserveB, gross);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- fees and slippage

    function test_fees_integratorAndProtocolShares() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 fee = gross / 100;
        uint256 integratorFee = (fee * 9_750) / 10_000;

        vm.expectEmit(address(router));
        emit IRouterV2.FeesCollected(address(tokenB), integrator, integratorFee, fee - integratorFee);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(tokenB), AMOUNT, gross - fee, gross);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 100, integrator, 0);

        assertEq(out, gross - fee);
        assertEq(tokenB.balanceOf(alice), gross - fee);
        assertEq(tokenB.balanceOf(integrator), integratorFee);
        assertEq(tokenB.balanceOf(treasury), fee - integratorFee);
        _assertRouterEmpty();
    }

    function test_fees_positiveSlippageWithRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 expectedOut = gross - 3 ether;
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            _referenceSplit(gross, expectedOut, 30, true);
        uint256 afterFee = gross - (gross * 30) / 10_000;
        uint256 slippage = afterFee - (expectedOut - (expectedOut * 30) / 10_000);
        assertGt(recipientSlip, 0);

        vm.expectEmit(address(router));
        emit IRouterV2.FeesCollected(address(tokenB), integrator, integratorFee, protocolFee - protocolSlip);
        vm.expectEmit(address(router));
        emit IRouterV2.PositiveSlippageCaptured(address(tokenB), slippage, recipientSlip, protocolSlip);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, user, expectedOut, _abHops(), 30, integrator, 0);

        assertEq(out, user);
        assertEq(user, afterFee - slippage / 2);
        assertEq(tokenB.balanceOf(integrator), integratorFee + recipientSlip);
        assertEq(tokenB.balanceOf(treasury), protocolFee);
        assertEq(tokenB.balanceOf(alice) + tokenB.balanceOf(integrator) + tokenB.balanceOf(treasury), gross);
        _assertRouterEmpty();
    }

    function test_fees_positiveSlippageWithoutRecipient_allCapturedToTreasury() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 expectedOut = gross - 1 ether;

        vm.expectEmit(address(router));
        emit IRouterV2.PositiveSlippageCaptured(address(tokenB), 1 ether, 0, 0.5 ether);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, expectedOut, _abHops(), 0, address(0), 0);

        assertEq(out, gross - 0.5 ether);
        assertEq(tokenB.balanceOf(treasury), 0.5 ether);
        _assertRouterEmpty();
    }

    function test_fees_belowExpected_capturesNothing() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, gross + 1, _abHops(), 0, address(0), 0);
        assertEq(out, gross);
        assertEq(tokenB.balanceOf(treasury), 0);
    }

    function test_fees_feeRecipientWithoutFee_getsSlippageShareOnly() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 out =
            _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, gross - 4, _abHops(), 0, integrator, 0);
        assertEq(out, gross - 2);
        assertEq(tokenB.balanceOf(integrator), 1);
        assertEq(tokenB.balanceOf(treasury), 1);
    }

    // ---------------------------------------------------------------- executeSwapsWithData

    function test_executeSwapsWithData_paysRecipientUntilDeadline() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 fee = (gross * 25) / 10_000;

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, bob, address(tokenA), address(tokenB), AMOUNT, gross - fee, gross);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 25, integrator, bob, block.timestamp
        );
        assertEq(out, gross - fee);
        assertEq(tokenB.balanceOf(bob), gross - fee);
        assertEq(tokenB.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    function test_executeSwapsWithData_nativeOutToRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(0)), AMOUNT, gross, 0, hops, 0, address(0), bob, block.timestamp + 60
        );
        assertEq(out, gross);
        assertEq(bob.balance, gross);
        _assertRouterEmpty();
    }

    function test_executeSwapsWithData_revertsAfterDeadline() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        vm.warp(1_000);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DeadlineExpired.selector, 999, 1_000));
        router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 0, address(0), bob, 999
        );
    }

    function test_executeSwapsWithData_revertsOnZeroOrRouterRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address[] memory path = _path(address(tokenA), address(tokenB));
        IRouterV2.Swap[][] memory hops = _abHops();
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidRecipient.selector, address(0)));
        router.executeSwapsWithData(path, AMOUNT, 0, 0, hops, 0, address(0), address(0), block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidRecipient.selector, address(router)));
        router.executeSwapsWithData(path, AMOUNT, 0, 0, hops, 0, address(0), address(router), block.timestamp);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- errors

    function test_revert_insufficientOutput() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 user = gross - gross / 100;
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, user, user + 1));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, user + 1, 0, _abHops(), 100, integrator, 0);
    }

    function test_revert_insufficientOutputNative() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, gross, gross + 1));
        _execute(_path(address(tokenA), address(0)), AMOUNT, gross + 1, 0, hops, 0, address(0), 0);
    }

    function test_revert_invalidPath_tooShort() public {
        address[] memory one = new address[](1);
        one[0] = address(tokenA);
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(one, AMOUNT, 0, 0, new IRouterV2.Swap[][](0), 0, address(0), 0);
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(new address[](0), AMOUNT, 0, 0, new IRouterV2.Swap[][](0), 0, address(0), 0);
    }

    function test_revert_invalidPath_nativeIntermediate() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT),
            _swap(pairAW2, address(wnative), address(tokenA), V2_B, AMOUNT)
        );
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(_path(address(tokenA), address(0), address(tokenA)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_invalidHopSwaps_moreStagesThanThePathAllows() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
            _swap(pairAB, address(tokenB), address(tokenA), V2_A, AMOUNT)
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidHopSwaps.selector, 2, 1));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_invalidHopSwaps_noStage() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidHopSwaps.selector, 0, 1));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, new IRouterV2.Swap[][](0), 0, address(0), 0);
    }

    /// @dev A path of three tokens run by one stage (once `InvalidHopSwaps`): the stage leaves B, which no stage
    /// spends, so the route reverts before anything is paid out.
    function test_revert_pathLongerThanItsStages_leavesATokenUnspent() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnspentToken.selector, address(tokenB)));
        _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, 0, 0, _abHops(), 0, address(0), 0);
    }

    function test_revert_emptyHop() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.EmptyHop.selector, 0));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_invalidSplit() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 0),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 0)
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidSplit.selector, 0));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_zeroAmount() public {
        vm.expectRevert(IRouterV2.ZeroAmount.selector);
        _execute(_path(address(tokenA), address(tokenB)), 0, 0, 0, _abHops(), 0, address(0), 0);
    }

    function test_revert_nativeValueMismatch_nativeInput() public {
        vm.deal(alice, 2 ether);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(wnative), address(tokenA), V2_A, 2 ether));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeValueMismatch.selector, 1 ether, 2 ether));
        _execute(_path(address(0), address(tokenA)), 2 ether, 0, 0, hops, 0, address(0), 1 ether);
    }

    function test_revert_nativeValueMismatch_tokenInput() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        vm.deal(alice, 1);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeValueMismatch.selector, 1, 0));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 0, address(0), 1);
    }

    function test_revert_swapTokenMismatch() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
            _swap(pairBC, address(tokenB), address(tokenC), V2_A, 1)
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapTokenMismatch.selector, 0, 1));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_swapTokenMismatch_nativeMustBeWrapped() public {
        vm.deal(alice, 1 ether);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(0), address(tokenA), V2_A, 1 ether));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapTokenMismatch.selector, 0, 0));
        _execute(_path(address(0), address(tokenA)), 1 ether, 0, 0, hops, 0, address(0), 1 ether);
    }

    function test_revert_unknownSource() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), 9, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnknownSource.selector, uint8(9)));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_unknownSource_afterRemoval() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        vm.prank(owner);
        router.removeSource(V2_A);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnknownSource.selector, V2_A));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 0, address(0), 0);
    }

    function test_revert_poolNotVouched_maliciousPool() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        FakePair fake = new FakePair(address(tokenA), address(tokenB));
        IRouterV2.Swap[][] memory hops = _hops(_swap(address(fake), address(tokenA), address(tokenB), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V2_A, address(fake)));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(fake.swapCalls(), 0);
    }

    function test_revert_poolNotVouched_maliciousStablePool() public {
        _fundAndApprove(alice, address(usdc), 1e6);
        FakePair fake = new FakePair(address(usdc), address(dai));
        IRouterV2.Swap[][] memory hops = _hops(_swap(address(fake), address(usdc), address(dai), STABLE, 1e6));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, STABLE, address(fake)));
        _execute(_path(address(usdc), address(dai)), 1e6, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_poolNotVouched_poolOfAnotherSource() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB2, address(tokenA), address(tokenB), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V2_A, pairAB2));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_poolNotVouched_poolOfOtherTokens() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairBC, address(tokenA), address(tokenB), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V2_A, pairBC));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_poolNotVouched_zeroPoolForMissingPair() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        // No A/C pair exists, so the factory answers zero; a zero pool must not pass as vouched.
        IRouterV2.Swap[][] memory hops = _hops(_swap(address(0), address(tokenA), address(tokenC), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V2_A, address(0)));
        _execute(_path(address(tokenA), address(tokenC)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_poolNotVouched_evenForAZeroShare() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        FakePair fake = new FakePair(address(tokenA), address(tokenB));
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(address(fake), address(tokenA), address(tokenB), V2_A, 0),
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V2_A, address(fake)));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    /// @dev A core source must be registered with the AMM router (which vouches for core pools); a contract
    /// that cannot answer `getPoolForPair` makes the route revert before anything moves. Core routes are tested
    /// against the AMM in test/amm/integration/RouterV2Core.t.sol.
    function test_revert_coreSourceThatIsNotAnAmmRouter() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        vm.prank(owner);
        router.setSource(3, IRouterV2.SourceKind.Core, address(v2A), 0);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), 3, AMOUNT));
        uint256 before = tokenA.balanceOf(alice);
        vm.expectRevert();
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(tokenA.balanceOf(alice), before);
    }

    /// @dev A launchpad swap's pool must be the registered launchpad itself; a pair named under a launchpad
    /// source is refused before anything moves. Launchpad routes are tested against the launchpad in
    /// test/launchpad/integration/RouterV2Launchpad.t.sol.
    function test_revert_launchpadSourceWithAPoolThatIsNotTheLaunchpad() public {
        vm.deal(alice, 1 ether);
        vm.prank(owner);
        router.setSource(4, IRouterV2.SourceKind.Launchpad, address(v2A), 100);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(wnative), address(tokenA), 4, 1 ether));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, uint8(4), pairAW));
        _execute(_path(address(0), address(tokenA)), 1 ether, 0, 0, hops, 0, address(0), 1 ether);
    }

    function test_revert_dataNotAllowed_v2() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory hops = _abHops();
        hops[0][0].data = hex"01";
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, pairAB));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_dataNotAllowed_stable() public {
        _fundAndApprove(alice, address(usdc), 1e6);
        IRouterV2.Swap[][] memory hops = _hops(_swap(stableUsdcDai, address(usdc), address(dai), STABLE, 1e6));
        hops[0][0].data = abi.encode(keccak256("REF-CODE"));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, stableUsdcDai));
        _execute(_path(address(usdc), address(dai)), 1e6, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_zeroAmountOut() public {
        // 1 wei of A buys nothing of the wrapped native at a 100:1 price.
        _fundAndApprove(alice, address(tokenA), 1);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, 1));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.ZeroAmountOut.selector, pairAW));
        _execute(_path(address(tokenA), address(wnative)), 1, 0, 0, hops, 0, address(0), 0);
    }

    function test_revert_feeTooHigh() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.FeeTooHigh.selector, 101, 100));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 101, integrator, 0);
    }

    function test_revert_feeRecipientRequired() public {
        vm.expectRevert(IRouterV2.FeeRecipientRequired.selector);
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 1, address(0), 0);
    }

    function test_revert_invalidFeeRecipient() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidFeeRecipient.selector, address(router)));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 1, address(router), 0);
    }

    function test_revert_nativeTransferFailed() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address sink = address(new NoReceive());
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeTransferFailed.selector, sink, gross));
        router.executeSwapsWithData(
            _path(address(tokenA), address(0)), AMOUNT, 0, 0, hops, 0, address(0), sink, block.timestamp
        );
    }

    function test_revert_nativeTransferFailed_feeRecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address sink = address(new NoReceive());
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 fee = (gross * 100) / 10_000;
        uint256 integratorFee = (fee * 9_750) / 10_000;
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeTransferFailed.selector, sink, integratorFee));
        _execute(_path(address(tokenA), address(0)), AMOUNT, 0, 0, hops, 100, sink, 0);
    }

    // ---------------------------------------------------------------- badly behaved tokens

    function test_feeOnTransferInput_usesWhatArrived() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        address pair = v2A.createPair(address(fot), address(tokenA));
        fot.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        fot.mint(alice, AMOUNT);
        vm.prank(alice);
        fot.approve(address(router), AMOUNT);
        // One transfer, from alice straight into the pair, pays the token's fee once.
        uint256 atPair = AMOUNT - AMOUNT / 100;
        uint256 expectedOut = _v2Quote(pair, address(fot), atPair, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(fot), address(tokenA), V2_A, AMOUNT));

        vm.expectEmit(address(fot));
        emit IERC20.Transfer(alice, pair, atPair);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(fot), address(tokenA), atPair, expectedOut, expectedOut);
        uint256 out = _execute(_path(address(fot), address(tokenA)), AMOUNT, expectedOut, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(fot.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_feeOnTransferOutput_minAmountOutOnWhatArrives() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        address pair = v2A.createPair(address(fot), address(tokenA));
        fot.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pair, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        // No fee and no expected amount: the pair pays alice directly, and the token takes its fee once.
        uint256 atAlice = gross - gross / 100;
        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(tokenA), address(fot), V2_A, AMOUNT));

        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, atAlice, gross));
        _execute(_path(address(tokenA), address(fot)), AMOUNT, gross, 0, hops, 0, address(0), 0);

        vm.expectEmit(address(fot));
        emit IERC20.Transfer(pair, alice, atAlice);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(fot), AMOUNT, atAlice, atAlice);
        uint256 out = _execute(_path(address(tokenA), address(fot)), AMOUNT, atAlice, 0, hops, 0, address(0), 0);
        assertEq(out, atAlice);
        assertEq(fot.balanceOf(alice), atAlice);
        assertEq(fot.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_feeOnTransferOutput_withAFeeThroughTheRouter() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        address pair = v2A.createPair(address(fot), address(tokenA));
        fot.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        _fundAndApprove(alice, address(tokenA), AMOUNT);
        // A fee to take: the pair pays the router, which splits what it received and pays each share, every
        // transfer paying the token's fee.
        uint256 atRouter = _v2Quote(pair, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        atRouter -= atRouter / 100;
        (uint256 user, uint256 integratorFee, uint256 protocolFee,,) = _referenceSplit(atRouter, 0, 100, true);
        uint256 atAlice = user - user / 100;
        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(tokenA), address(fot), V2_A, AMOUNT));

        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, atAlice, user));
        _execute(_path(address(tokenA), address(fot)), AMOUNT, user, 0, hops, 100, integrator, 0);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(fot), AMOUNT, atAlice, atRouter);
        uint256 out = _execute(_path(address(tokenA), address(fot)), AMOUNT, atAlice, 0, hops, 100, integrator, 0);
        assertEq(out, atAlice);
        assertEq(fot.balanceOf(alice), atAlice);
        assertEq(fot.balanceOf(integrator), integratorFee - integratorFee / 100);
        assertEq(fot.balanceOf(treasury), protocolFee - protocolFee / 100);
        assertEq(fot.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_feeOnTransferInput_splitPullsEachShareIntoItsPool() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        address pair = _addV2Liquidity(v2A, address(fot), 1_000_000 ether, address(tokenA), 1_000_000 ether);
        address pair2 = _addV2Liquidity(v2B, address(fot), 500_000 ether, address(tokenA), 500_000 ether);
        fot.mint(alice, AMOUNT);
        vm.prank(alice);
        fot.approve(address(router), AMOUNT);

        // Each pool's share leaves alice in its own transfer, which pays the token's fee.
        uint256 share0 = (AMOUNT * 3) / 4;
        uint256 share1 = AMOUNT - share0;
        uint256 atPair = share0 - share0 / 100;
        uint256 atPair2 = share1 - share1 / 100;
        uint256 expectedOut =
            _v2Quote(pair, address(fot), atPair, V2_A_FEE_BPS) + _v2Quote(pair2, address(fot), atPair2, V2_B_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pair, address(fot), address(tokenA), V2_A, 3), _swap(pair2, address(fot), address(tokenA), V2_B, 1)
        );

        vm.expectEmit(address(fot));
        emit IERC20.Transfer(alice, pair, atPair);
        vm.expectEmit(address(fot));
        emit IERC20.Transfer(alice, pair2, atPair2);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(
            alice, alice, address(fot), address(tokenA), atPair + atPair2, expectedOut, expectedOut
        );
        uint256 out = _execute(_path(address(fot), address(tokenA)), AMOUNT, expectedOut, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(alice), expectedOut);
        assertEq(fot.balanceOf(alice), 0);
        assertEq(fot.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_feeOnTransferIntermediate() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(200);
        address pairIn = v2A.createPair(address(fot), address(tokenA));
        fot.mint(pairIn, 1_000_000 ether);
        tokenA.mint(pairIn, 1_000_000 ether);
        UniswapV2Pair(pairIn).mint(address(this));
        address pairOut = v2A.createPair(address(fot), address(tokenB));
        fot.mint(pairOut, 1_000_000 ether);
        tokenB.mint(pairOut, 1_000_000 ether);
        UniswapV2Pair(pairOut).mint(address(this));

        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 grossFot = _v2Quote(pairIn, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 atRouter = grossFot - (grossFot * 200) / 10_000;
        uint256 atPair = atRouter - (atRouter * 200) / 10_000;
        uint256 expectedOut = _v2Quote(pairOut, address(fot), atPair, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairIn, address(tokenA), address(fot), V2_A, AMOUNT),
            _swap(pairOut, address(fot), address(tokenB), V2_A, grossFot)
        );
        uint256 out =
            _execute(_path(address(tokenA), address(fot), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, expectedOut);
        assertEq(fot.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_noReturnToken_inAndOut() public {
        NoReturnToken noret = new NoReturnToken();
        address pair = v2A.createPair(address(noret), address(tokenA));
        noret.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        noret.mint(alice, AMOUNT);
        vm.prank(alice);
        noret.approve(address(router), AMOUNT);
        uint256 outA = _v2Quote(pair, address(noret), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(noret), address(tokenA), V2_A, AMOUNT));
        uint256 out = _execute(_path(address(noret), address(tokenA)), AMOUNT, outA, 0, hops, 0, address(0), 0);
        assertEq(out, outA);
        assertEq(noret.balanceOf(alice), 0);

        vm.prank(alice);
        tokenA.approve(address(router), outA);
        uint256 gross = _v2Quote(pair, address(tokenA), outA, V2_A_FEE_BPS);
        uint256 fee = (gross * 100) / 10_000;
        hops = _hops(_swap(pair, address(tokenA), address(noret), V2_A, outA));
        out = _execute(_path(address(tokenA), address(noret)), outA, 0, 0, hops, 100, integrator, 0);
        assertEq(out, gross - fee);
        assertEq(noret.balanceOf(alice), gross - fee);
        assertEq(noret.balanceOf(integrator) + noret.balanceOf(treasury), fee);
        assertEq(noret.balanceOf(address(router)), 0);
        _assertRouterEmpty();
    }

    function test_reentrancy_viaTokenCallbackIsBlocked() public {
        ReentrantToken evil = new ReentrantToken();
        address pair = v2A.createPair(address(evil), address(tokenA));
        evil.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        evil.mint(alice, 2 * AMOUNT);
        vm.prank(alice);
        evil.approve(address(router), 2 * AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(evil), address(tokenA), V2_A, AMOUNT));
        address[] memory path = _path(address(evil), address(tokenA));
        evil.arm(address(router), abi.encodeCall(IRouterV2.executeSwaps, (path, AMOUNT, 0, 0, hops, 0, address(0))));

        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _execute(path, AMOUNT, 0, 0, hops, 0, address(0), 0);
    }

    function test_reentrancy_viaNativeRecipientIsBlocked() public {
        ReentrantRecipient evil = new ReentrantRecipient();
        _fundAndApprove(address(evil), address(tokenA), 2 * AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        address[] memory path = _path(address(tokenA), address(0));

        // Unarmed, the same recipient is paid normally.
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        vm.prank(address(evil));
        router.executeSwaps(path, AMOUNT, 0, 0, hops, 0, address(0));
        assertEq(address(evil).balance, gross);

        evil.arm(address(router), abi.encodeCall(IRouterV2.executeSwaps, (path, AMOUNT, 0, 0, hops, 0, address(0))));
        gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        // The re-entry reverts inside the receive hook, so the payment to the recipient fails.
        vm.prank(address(evil));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeTransferFailed.selector, address(evil), gross));
        router.executeSwaps(path, AMOUNT, 0, 0, hops, 0, address(0));
    }

    // ---------------------------------------------------------------- balances of others

    function test_donationsToTheRouterAreNeverSwept() public {
        _fund(address(tokenA), address(router), 5 ether);
        _fund(address(tokenB), address(router), 6 ether);
        _fund(address(wnative), address(router), 7 ether);
        vm.deal(address(router), 8 ether);

        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        uint256 out = _execute(_path(address(tokenA), address(0)), AMOUNT, 0, 0, hops, 0, address(0), 0);
        assertEq(out, gross);

        _fundAndApprove(alice, address(tokenA), AMOUNT);
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _abHops(), 0, address(0), 0);

        assertEq(tokenA.balanceOf(address(router)), 5 ether);
        assertEq(tokenB.balanceOf(address(router)), 6 ether);
        assertEq(wnative.balanceOf(address(router)), 7 ether);
        assertEq(address(router).balance, 8 ether);
    }
}
