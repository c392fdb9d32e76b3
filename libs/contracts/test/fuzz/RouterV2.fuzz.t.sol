// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {VM_ADDRESS} from "../base/Vm.sol";
import {SplitRouteFixture} from "../router/SplitRouteFixture.sol";
import {FeeOnTransferToken} from "../mocks/BadTokens.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";

/// @dev The state snapshots the split-route fuzz tests need beyond our `Vm` subset (same address).
interface StateVm {
    function snapshotState() external returns (uint256 snapshotId);
    function revertToState(uint256 snapshotId) external returns (bool success);
}

StateVm constant stateVm = StateVm(VM_ADDRESS);

contract RouterV2FuzzTest is SplitRouteFixture {
    // ---------------------------------------------------------------- fee math

    /// @notice previewFees equals the transcription of `splitOutput` on any amounts, and the parts sum exactly.
    function testFuzz_previewFees_matchesTheReference(
        uint256 gross,
        uint256 expected,
        uint256 feeBps,
        bool hasRecipient
    ) public view {
        feeBps = hasRecipient ? bound(feeBps, 0, 100) : 0;
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            router.previewFees(gross, expected, feeBps, hasRecipient);
        (uint256 rUser, uint256 rIntegratorFee, uint256 rProtocolFee, uint256 rRecipientSlip, uint256 rProtocolSlip) =
            _referenceSplit(gross, expected, feeBps, hasRecipient);

        assertEq(user, rUser, "userAmount");
        assertEq(integratorFee, rIntegratorFee, "integratorFee");
        assertEq(protocolFee, rProtocolFee, "protocolFee");
        assertEq(recipientSlip, rRecipientSlip, "recipientSlippage");
        assertEq(protocolSlip, rProtocolSlip, "protocolSlippage");
        // The parts of the gross output (protocolFee already holds protocolSlippage); each term is <= gross, so
        // summing in a checked context cannot overflow without failing here.
        assertEq(user + integratorFee + protocolFee + recipientSlip, gross, "parts do not sum to gross");
        assertLe(protocolSlip, protocolFee);
        if (!hasRecipient) assertEq(recipientSlip + integratorFee, 0);
    }

    /// @notice Slippage is captured only above the expected amount, and the user always keeps at least half of it.
    function testFuzz_previewFees_userKeepsHalfOfTheSlippage(uint256 gross, uint256 expected, uint256 feeBps)
        public
        view
    {
        gross = bound(gross, 0, type(uint128).max);
        expected = bound(expected, 0, type(uint128).max);
        feeBps = bound(feeBps, 0, 100);
        (uint256 user,,,,) = router.previewFees(gross, expected, feeBps, true);
        uint256 afterFee = gross - (gross * feeBps) / 10_000;
        uint256 expectedAfterFee = expected - (expected * feeBps) / 10_000;
        if (expected == 0 || afterFee <= expectedAfterFee) {
            assertEq(user, afterFee);
        } else {
            assertGe(user, expectedAfterFee + (afterFee - expectedAfterFee) / 2);
            assertLe(user, afterFee);
        }
    }

    function testFuzz_previewFees_revertsAboveTheMaximum(uint256 feeBps) public {
        feeBps = bound(feeBps, 101, type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.FeeTooHigh.selector, feeBps, 100));
        router.previewFees(1 ether, 0, feeBps, true);
    }

    function testFuzz_previewFees_revertsOnAFeeWithoutRecipient(uint256 feeBps) public {
        feeBps = bound(feeBps, 1, 100);
        vm.expectRevert(IRouterV2.FeeRecipientRequired.selector);
        router.previewFees(1 ether, 0, feeBps, false);
    }

    // ---------------------------------------------------------------- splits

    /// @notice Any quoted amounts split the whole input: every wei goes to a pool, the output is what the pools
    /// pay for their shares, and the router keeps nothing. Two swaps share a pool, so its reserves move between.
    function testFuzz_split_routesTheWholeInputAndConservesValue(uint256 amountIn, uint256 q0, uint256 q1, uint256 q2)
        public
    {
        amountIn = bound(amountIn, 1e6, 100_000 ether);
        q0 = bound(q0, 0, 1e50);
        q1 = bound(q1, 0, 1e50);
        q2 = bound(q2, 0, 1e50);
        if (q0 + q1 + q2 == 0) q2 = 1;
        uint256 expectedOut = _expectedSplitOut(amountIn, q0, q1, q2);

        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](3);
        hops[0][0] = _swap(pairAB, address(tokenA), address(tokenB), V2_A, q0);
        hops[0][1] = _swap(pairAB2, address(tokenA), address(tokenB), V2_B, q1);
        hops[0][2] = _swap(pairAB, address(tokenA), address(tokenB), V2_A, q2);

        _fundAndApprove(alice, address(tokenA), amountIn);
        uint256 poolsABefore = tokenA.balanceOf(pairAB) + tokenA.balanceOf(pairAB2);
        uint256 poolsBBefore = tokenB.balanceOf(pairAB) + tokenB.balanceOf(pairAB2);
        vm.prank(alice);
        uint256 out = router.executeSwaps(_path(address(tokenA), address(tokenB)), amountIn, 0, 0, hops, 0, address(0));

        assertEq(out, expectedOut, "output");
        assertEq(tokenB.balanceOf(alice), out);
        assertEq(tokenA.balanceOf(pairAB) + tokenA.balanceOf(pairAB2) - poolsABefore, amountIn, "input not all routed");
        assertEq(poolsBBefore - tokenB.balanceOf(pairAB) - tokenB.balanceOf(pairAB2), out, "output not conserved");
        assertEq(tokenA.balanceOf(address(router)), 0);
        assertEq(tokenB.balanceOf(address(router)), 0);
    }

    /// @notice Quoted amounts near the top of uint256 still split without overflow.
    function testFuzz_split_hugeQuotes(uint256 q0, uint256 q1) public {
        q0 = bound(q0, 1, type(uint256).max / 2);
        q1 = bound(q1, 1, type(uint256).max / 2);
        uint256 amountIn = 1_000 ether;
        _fundAndApprove(alice, address(tokenA), amountIn);
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, q0),
            _swap(pairAB2, address(tokenA), address(tokenB), V2_B, q1)
        );
        uint256 before = tokenA.balanceOf(pairAB) + tokenA.balanceOf(pairAB2);
        vm.prank(alice);
        router.executeSwaps(_path(address(tokenA), address(tokenB)), amountIn, 0, 0, hops, 0, address(0));
        assertEq(tokenA.balanceOf(pairAB) + tokenA.balanceOf(pairAB2) - before, amountIn);
        assertEq(tokenA.balanceOf(address(router)), 0);
        assertEq(tokenB.balanceOf(address(router)), 0);
    }

    // ---------------------------------------------------------------- routes with fees

    /// @notice The recipient, the integrator and the treasury get exactly the reference split of the gross output,
    /// in the output token or in native coin, and nothing else moves.
    function testFuzz_route_paysTheSplitExactly(
        uint256 amountIn,
        uint256 feeBps,
        uint256 expectedSeed,
        bool hasRecipient,
        bool nativeOut
    ) public {
        amountIn = bound(amountIn, 1e9, 10_000 ether);
        feeBps = hasRecipient ? bound(feeBps, 0, 100) : 0;
        (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 gross) = _directRoute(nativeOut, amountIn);
        uint256 expected = bound(expectedSeed, 0, 2 * gross);

        _fundAndApprove(alice, address(tokenA), amountIn);
        vm.prank(alice);
        uint256 out =
            router.executeSwaps(path, amountIn, 0, expected, hops, feeBps, hasRecipient ? integrator : address(0));

        _assertPaid(path[1], gross, expected, feeBps, hasRecipient, out);
        assertEq(tokenB.balanceOf(address(router)), 0);
        assertEq(wnative.balanceOf(address(router)), 0);
        assertEq(address(router).balance, 0);
    }

    /// @dev A -> B on v2A, or A -> native coin; with its gross output at the current reserves.
    function _directRoute(bool nativeOut, uint256 amountIn)
        internal
        view
        returns (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 gross)
    {
        address pool = nativeOut ? pairAW : pairAB;
        address tokenOut = nativeOut ? address(wnative) : address(tokenB);
        path = _path(address(tokenA), nativeOut ? address(0) : tokenOut);
        hops = _hops(_swap(pool, address(tokenA), tokenOut, V2_A, amountIn));
        gross = _v2Quote(pool, address(tokenA), amountIn, V2_A_FEE_BPS);
    }

    /// @dev alice, the integrator and the treasury hold exactly the reference split of `gross` in `token`.
    function _assertPaid(address token, uint256 gross, uint256 expected, uint256 feeBps, bool hasRecipient, uint256 out)
        internal
        view
    {
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip,) =
            _referenceSplit(gross, expected, feeBps, hasRecipient);
        assertEq(out, user, "returned");
        assertEq(_balance(token, alice), user, "user");
        assertEq(_balance(token, integrator), integratorFee + recipientSlip, "integrator");
        assertEq(_balance(token, treasury), protocolFee, "treasury");
        assertEq(_balance(token, alice) + _balance(token, integrator) + _balance(token, treasury), gross, "sum");
    }

    /// @notice The caller receives at least minAmountOut, or the call reverts with InsufficientOutput.
    function testFuzz_route_minAmountOutHoldsOrReverts(uint256 amountIn, uint256 minOut, uint256 feeBps) public {
        amountIn = bound(amountIn, 1e9, 10_000 ether);
        feeBps = bound(feeBps, 0, 100);
        uint256 gross = _v2Quote(pairAB, address(tokenA), amountIn, V2_A_FEE_BPS);
        minOut = bound(minOut, 0, 2 * gross);
        uint256 user = gross - (gross * feeBps) / 10_000;

        _fundAndApprove(alice, address(tokenA), amountIn);
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, amountIn));
        if (user < minOut) {
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, user, minOut));
        }
        vm.prank(alice);
        uint256 out =
            router.executeSwaps(_path(address(tokenA), address(tokenB)), amountIn, minOut, 0, hops, feeBps, integrator);
        if (user >= minOut) {
            assertEq(out, user);
            assertGe(tokenB.balanceOf(alice), minOut);
        }
    }

    /// @notice With a fee-on-transfer input of any rate, the router trades exactly what reached the pool.
    function testFuzz_feeOnTransferInput(uint256 amountIn, uint256 tokenFeeBps) public {
        amountIn = bound(amountIn, 1e9, 10_000 ether);
        tokenFeeBps = bound(tokenFeeBps, 0, 5_000);
        FeeOnTransferToken fot = new FeeOnTransferToken(tokenFeeBps);
        address pair = v2A.createPair(address(fot), address(tokenA));
        fot.mint(pair, 1_000_000 ether);
        tokenA.mint(pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(address(this));

        fot.mint(alice, amountIn);
        vm.prank(alice);
        fot.approve(address(router), amountIn);
        // The input moves once, from alice straight into the pair.
        uint256 atPair = amountIn - (amountIn * tokenFeeBps) / 10_000;
        uint256 expectedOut = _v2Quote(pair, address(fot), atPair, V2_A_FEE_BPS);

        IRouterV2.Swap[][] memory hops = _hops(_swap(pair, address(fot), address(tokenA), V2_A, amountIn));
        vm.prank(alice);
        uint256 out = router.executeSwaps(_path(address(fot), address(tokenA)), amountIn, 0, 0, hops, 0, address(0));
        assertEq(out, expectedOut);
        assertEq(fot.balanceOf(address(router)), 0);
        assertEq(tokenA.balanceOf(address(router)), 0);
    }

    /// @dev The output of the three-way split: shares by quote (the last takes the remainder), the first and
    /// last swaps on the same pool in sequence.
    function _expectedSplitOut(uint256 amountIn, uint256 q0, uint256 q1, uint256 q2) internal view returns (uint256) {
        uint256 total = q0 + q1 + q2;
        uint256 s0 = (amountIn * q0) / total;
        uint256 s1 = (amountIn * q1) / total;
        uint256 s2 = amountIn - s0 - s1;
        (uint256 rIn, uint256 rOut) = _v2Reserves(pairAB, address(tokenA));
        uint256 out0 = _v2AmountOut(s0, rIn, rOut, V2_A_FEE_BPS);
        uint256 out1 = _v2Quote(pairAB2, address(tokenA), s1, V2_B_FEE_BPS);
        uint256 out2 = _v2AmountOut(s2, rIn + s0, rOut - out0, V2_A_FEE_BPS);
        return out0 + out1 + out2;
    }

    function _balance(address token, address account) internal view returns (uint256) {
        return token == address(0) ? account.balance : IERC20(token).balanceOf(account);
    }

    // ---------------------------------------------------------------- routes that split across paths

    /// @notice Any split of the input across A -> B and A -> C -> B (pools of their own) pays exactly what the two
    /// shares pay on their paths run alone from the same state.
    function testFuzz_twoPaths_payTheSumOfEachPathAlone(uint256 amountIn, uint256 quotedDirect, uint256 quotedViaC)
        public
    {
        amountIn = bound(amountIn, 1e12, 100_000 ether);
        quotedDirect = bound(quotedDirect, 0, 1e6);
        quotedViaC = bound(quotedViaC, 0, 1e6);
        if (quotedDirect + quotedViaC == 0) quotedViaC = 1;
        (, uint256 shareDirect, uint256 shareViaC) = _twoPathsAToBOut(amountIn, quotedDirect, quotedViaC);
        _fundAndApprove(alice, address(tokenA), amountIn);

        uint256 state = stateVm.snapshotState();
        uint256 direct = _runAlone(
            _path(address(tokenA), address(tokenB)),
            shareDirect,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, 1))
        );
        stateVm.revertToState(state);
        uint256 viaC = _runAlone(
            _path(address(tokenA), address(tokenC), address(tokenB)),
            shareViaC,
            _hops(
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, 1),
                _swap(pairBC, address(tokenC), address(tokenB), V2_A, 1)
            )
        );
        stateVm.revertToState(state);

        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(quotedDirect, quotedViaC);
        vm.prank(alice);
        uint256 out = router.executeSwaps(tokens, amountIn, 0, 0, stages, 0, address(0));
        assertEq(out, direct + viaC, "split != sum of the paths alone");
        assertEq(tokenB.balanceOf(alice), out);
        assertEq(tokenA.balanceOf(alice), 0);
        _assertRouterHoldsNone();
    }

    /// @notice Likewise for the diamond A -> B -> USDC, A -> C -> USDC, whose last stage's pools pay directly.
    function testFuzz_diamond_paysTheSumOfEachPathAlone(uint256 amountIn, uint256 quotedViaB, uint256 quotedViaC)
        public
    {
        // From 100 A: a non-zero share (at least a 2e6th of the input) still buys some USDC (6 decimals).
        amountIn = bound(amountIn, 100 ether, 100_000 ether);
        quotedViaB = bound(quotedViaB, 0, 1e6);
        quotedViaC = bound(quotedViaC, 0, 1e6);
        if (quotedViaB + quotedViaC == 0) quotedViaB = 1;
        uint256 shareViaB = (amountIn * quotedViaB) / (quotedViaB + quotedViaC);
        _fundAndApprove(alice, address(tokenA), amountIn);

        uint256 state = stateVm.snapshotState();
        uint256 viaB = _runAlone(
            _path(address(tokenA), address(tokenB), address(usdc)),
            shareViaB,
            _hops(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1)
            )
        );
        stateVm.revertToState(state);
        uint256 viaC = _runAlone(
            _path(address(tokenA), address(tokenC), address(usdc)),
            amountIn - shareViaB,
            _hops(
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, 1),
                _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1)
            )
        );
        stateVm.revertToState(state);

        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(quotedViaB, quotedViaC);
        vm.prank(alice);
        uint256 out = router.executeSwaps(tokens, amountIn, 0, 0, stages, 0, address(0));
        assertEq(out, viaB + viaC, "split != sum of the paths alone");
        assertEq(usdc.balanceOf(alice), out);
        _assertRouterHoldsNone();
    }

    /// @dev alice runs a linear route for `amountIn` (nothing for a zero share, which the split trades as none).
    function _runAlone(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        returns (uint256)
    {
        if (amountIn == 0) return 0;
        vm.prank(alice);
        return router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0));
    }

    function _assertRouterHoldsNone() internal view {
        assertEq(tokenA.balanceOf(address(router)), 0);
        assertEq(tokenB.balanceOf(address(router)), 0);
        assertEq(tokenC.balanceOf(address(router)), 0);
        assertEq(usdc.balanceOf(address(router)), 0);
    }
}
