// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {V4Fixture} from "../router/V4Fixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IV4PoolManager} from "../../src/sources/v4/interfaces/IV4PoolManager.sol";

/// @notice RouterV2's `UniswapV4` kind on v4-core's PoolManager: exact-input swaps across initialized ticks equal to
/// the wei to V4Quoter (v4-periphery), the native coin as a pool currency (in and out), splits of one stage across
/// V4 pools (one unlock) and V3 and V2 pools, multi-stage routes, the devnet's hooks (a dynamic fee, a fee taken by
/// beforeSwap's return delta once allowed, a hook refusing large swaps), direct payout, and the router holding
/// nothing, and owing nothing, after each call.
contract RouterV2UniswapV4Test is V4Fixture {
    uint256 internal constant AMOUNT = 5_000 ether;

    function setUp() public override {
        super.setUp();
        _fundAndApprove(alice, address(tokenA), 1_000_000 ether);
        _fundAndApprove(alice, address(tokenB), 1_000_000 ether);
        vm.deal(alice, 1_000 ether);
    }

    function _execute(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        returns (uint256 out)
    {
        vm.prank(alice);
        out = router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0));
    }

    function _assertRouterEmpty() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), 0, "router holds A");
        assertEq(tokenB.balanceOf(r), 0, "router holds B");
        assertEq(tokenC.balanceOf(r), 0, "router holds C");
        assertEq(wnative.balanceOf(r), 0, "router holds WHYPE");
        assertEq(r.balance, 0, "router holds native coin");
    }

    // ---------------------------------------------------------------- registry and hook policy

    function test_uniswapV4KindIsSeven() public pure {
        assertEq(uint8(IRouterV2.SourceKind.UniswapV4), 7);
    }

    function test_hooksWithoutSwapPermissionsAreAllowed() public view {
        assertTrue(router.isHookAllowed(V4, address(0)), "no hook");
        assertTrue(router.isHookAllowed(V4, address(dynamicFeeHook)), "afterInitialize only");
        assertFalse(router.isHookAllowed(V4, address(inputFeeHook)), "beforeSwap with a delta");
        assertFalse(router.isHookAllowed(V4, address(swapLimitHook)), "beforeSwap");
    }

    function test_setHookAllowedIsOwnerOnlyAndPerSource() public {
        vm.expectRevert();
        router.setHookAllowed(V4, address(inputFeeHook), true);
        vm.expectEmit(true, true, false, true, address(router));
        emit IRouterV2.HookAllowedSet(V4, address(inputFeeHook), true);
        vm.prank(owner);
        router.setHookAllowed(V4, address(inputFeeHook), true);
        assertTrue(router.isHookAllowed(V4, address(inputFeeHook)));
        assertFalse(router.isHookAllowed(V3, address(inputFeeHook)), "another slot");
        vm.prank(owner);
        router.setHookAllowed(V4, address(inputFeeHook), false);
        assertFalse(router.isHookAllowed(V4, address(inputFeeHook)));
    }

    // ---------------------------------------------------------------- single swaps

    function test_exactInputEqualsV4QuoterBothWays() public {
        uint256 expected = _quoteV4(keyAB, address(tokenA), AMOUNT);
        uint256 before = tokenB.balanceOf(alice);
        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)), AMOUNT, _hops(_v4(keyAB, address(tokenA), address(tokenB), AMOUNT))
        );
        assertEq(out, expected, "A -> B");
        assertEq(tokenB.balanceOf(alice) - before, expected, "paid to alice");
        _assertRouterEmpty();

        expected = _quoteV4(keyAB, address(tokenB), 3 * AMOUNT);
        out = _execute(
            _path(address(tokenB), address(tokenA)),
            3 * AMOUNT,
            _hops(_v4(keyAB, address(tokenB), address(tokenA), 3 * AMOUNT))
        );
        assertEq(out, expected, "B -> A");
        _assertRouterEmpty();
    }

    function test_largeSwapCrossesTicksAndStillEqualsTheQuoter() public {
        uint256 amountIn = 6_000 ether;
        uint256 expected = _quoteV4(keyAB500, address(tokenA), amountIn);
        _fundAndApprove(alice, address(tokenA), amountIn);
        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            amountIn,
            _hops(_v4(keyAB500, address(tokenA), address(tokenB), amountIn))
        );
        assertEq(out, expected);
        // 1 A = 2 B before the trade: a trade this deep pays well below the spot rate (ticks were crossed).
        assertLt(out, amountIn * 195 / 100, "moved past the narrow range");
        _assertRouterEmpty();
    }

    function test_nativeInputSettlesTheNativeCoin() public {
        uint256 amountIn = 10 ether;
        uint256 expected = _quoteV4(keyNativeA, address(wnative), amountIn);
        uint256 managerBefore = address(manager).balance;
        vm.prank(alice);
        uint256 out = router.executeSwaps{value: amountIn}(
            _path(address(0), address(tokenA)),
            amountIn,
            0,
            0,
            _hops(_v4(keyNativeA, address(wnative), address(tokenA), amountIn)),
            0,
            address(0)
        );
        assertEq(out, expected);
        assertEq(address(manager).balance - managerBefore, amountIn, "the manager was paid in native coin");
        _assertRouterEmpty();
    }

    function test_nativeOutputIsTakenAndPaidInNativeCoin() public {
        uint256 expected = _quoteV4(keyNativeA, address(tokenA), AMOUNT);
        uint256 before = alice.balance;
        uint256 out = _execute(
            _path(address(tokenA), address(0)),
            AMOUNT,
            _hops(_v4(keyNativeA, address(tokenA), address(wnative), AMOUNT))
        );
        assertEq(out, expected);
        assertEq(alice.balance - before, expected);
        _assertRouterEmpty();
    }

    function test_wrappedNativeOutputOfANativePool() public {
        uint256 expected = _quoteV4(keyNativeA, address(tokenA), AMOUNT);
        uint256 out = _execute(
            _path(address(tokenA), address(wnative)),
            AMOUNT,
            _hops(_v4(keyNativeA, address(tokenA), address(wnative), AMOUNT))
        );
        assertEq(out, expected);
        assertEq(wnative.balanceOf(alice), expected, "paid in the wrapped token");
        _assertRouterEmpty();
    }

    function test_wrappedNativeInputOfANativePool() public {
        vm.startPrank(alice);
        wnative.deposit{value: 10 ether}();
        IERC20(address(wnative)).approve(address(router), 10 ether);
        vm.stopPrank();
        uint256 expected = _quoteV4(keyNativeA, address(wnative), 10 ether);
        uint256 out = _execute(
            _path(address(wnative), address(tokenA)),
            10 ether,
            _hops(_v4(keyNativeA, address(wnative), address(tokenA), 10 ether))
        );
        assertEq(out, expected);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- splits and multi-stage routes

    function test_oneStageSplitAcrossV4V3AndV2() public {
        (uint256 q1, uint256 q2, uint256 q3, uint256 q4) = (2_000 ether, 1_500 ether, 1_000 ether, 500 ether);
        uint256 expected = _quoteV4(keyAB, address(tokenA), q1) + _quoteV4(keyAB500, address(tokenA), q2);
        (uint256 v3Out,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, q3);
        expected += v3Out + _quoteRealV2(address(tokenA), q4);
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](4);
        hops[0][0] = _v4(keyAB, address(tokenA), address(tokenB), q1);
        hops[0][1] = _swap(v3AB, address(tokenA), address(tokenB), V3, q3);
        hops[0][2] = _v4(keyAB500, address(tokenA), address(tokenB), q2);
        hops[0][3] = _swap(realPairAB, address(tokenA), address(tokenB), V2_REAL, q4);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), q1 + q2 + q3 + q4, hops);
        assertEq(out, expected);
        _assertRouterEmpty();
    }

    function test_stageOfTwoV4PoolsSharesOneUnlock() public {
        IRouterV2.Swap[][] memory hops = _splitHop(
            _v4(keyAB, address(tokenA), address(tokenB), AMOUNT),
            _v4(keyAB500, address(tokenA), address(tokenB), AMOUNT)
        );
        uint256 expected = _quoteV4(keyAB, address(tokenA), AMOUNT) + _quoteV4(keyAB500, address(tokenA), AMOUNT);
        vm.expectCall(address(manager), abi.encodeWithSelector(IV4PoolManager.unlock.selector), 1);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), 2 * AMOUNT, hops);
        assertEq(out, expected);
        _assertRouterEmpty();
    }

    function test_twoStagesV4ThenV3AndNativeOut() public {
        uint256 mid = _quoteV4(keyAB, address(tokenB), 2 * AMOUNT);
        uint256 expected = _quoteV4(keyNativeA, address(tokenA), mid);
        uint256 before = alice.balance;
        uint256 out = _execute(
            _path(address(tokenB), address(tokenA), address(0)),
            2 * AMOUNT,
            _hops(
                _v4(keyAB, address(tokenB), address(tokenA), 2 * AMOUNT),
                _v4(keyNativeA, address(tokenA), address(wnative), mid)
            )
        );
        assertEq(out, expected);
        assertEq(alice.balance - before, expected);
        _assertRouterEmpty();
    }

    function test_feeAndSlippageOnAV4Route() public {
        uint256 expected = _quoteV4(keyAB, address(tokenA), AMOUNT);
        (uint256 user, uint256 integratorFee, uint256 protocolFee,,) =
            _referenceSplit(expected, expected - 1 ether, 50, true);
        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            user,
            expected - 1 ether,
            _hops(_v4(keyAB, address(tokenA), address(tokenB), AMOUNT)),
            50,
            integrator
        );
        assertEq(out, user);
        assertGt(tokenB.balanceOf(integrator), integratorFee - 1, "integrator fee and slippage");
        assertGt(tokenB.balanceOf(treasury), protocolFee - 1, "protocol fee and slippage");
        _assertRouterEmpty();
    }

    function test_directPayoutGoesFromTheManagerToTheRecipient() public {
        uint256 expected = _quoteV4(keyAB, address(tokenA), AMOUNT);
        vm.expectCall(
            address(manager), abi.encodeWithSelector(IV4PoolManager.take.selector, address(tokenB), bob, expected)
        );
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            expected,
            0,
            _hops(_v4(keyAB, address(tokenA), address(tokenB), AMOUNT)),
            0,
            address(0),
            bob,
            block.timestamp
        );
        assertEq(out, expected);
        assertEq(tokenB.balanceOf(bob), expected);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- hooks

    function test_dynamicFeeFollowsTheHook() public {
        uint256 atFirst = _quoteV4(keyDynamic, address(tokenA), AMOUNT);
        assertGt(atFirst, _quoteV4(keyAB, address(tokenA), AMOUNT), "0.25% pays more than 0.3%");
        vm.prank(owner);
        dynamicFeeHook.setFee(keyDynamic, 100);
        uint256 expected = _quoteV4(keyDynamic, address(tokenA), AMOUNT);
        assertGt(expected, atFirst, "0.01% now");
        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_v4(keyDynamic, address(tokenA), address(tokenB), AMOUNT))
        );
        assertEq(out, expected);
        _assertRouterEmpty();
    }

    function test_allowedInputFeeHookTradesForItsQuote() public {
        vm.prank(owner);
        router.setHookAllowed(V4, address(inputFeeHook), true);
        uint256 expected = _quoteV4(keyInputFee, address(tokenA), AMOUNT);
        assertLt(expected, _quoteV4(keyAB, address(tokenA), AMOUNT), "the hook's fee");
        uint256 treasuryBefore = tokenA.balanceOf(treasury);
        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_v4(keyInputFee, address(tokenA), address(tokenB), AMOUNT))
        );
        assertEq(out, expected);
        assertEq(tokenA.balanceOf(treasury) - treasuryBefore, AMOUNT / 1000, "the hook took 0.1% of the input");
        _assertRouterEmpty();
    }

    function test_shareTooSmallToBuyAnything() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.ZeroAmountOut.selector, address(manager)));
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            1,
            0,
            0,
            _hops(_v4(keyAB, address(tokenA), address(tokenB), 1)),
            0,
            address(0)
        );
    }

    function test_hookThatRefusesLargeSwaps() public {
        vm.prank(owner);
        router.setHookAllowed(V4, address(swapLimitHook), true);
        uint256 expected = _quoteV4(keyLimitBC, address(tokenB), 100 ether);
        uint256 out = _execute(
            _path(address(tokenB), address(tokenC)),
            100 ether,
            _hops(_v4(keyLimitBC, address(tokenB), address(tokenC), 100 ether))
        );
        assertEq(out, expected);

        IRouterV2.Swap[][] memory hops = _hops(_v4(keyLimitBC, address(tokenB), address(tokenC), 101 ether));
        vm.prank(alice);
        vm.expectRevert();
        router.executeSwaps(_path(address(tokenB), address(tokenC)), 101 ether, 0, 0, hops, 0, address(0));
        _assertRouterEmpty();
    }

    function test_zeroShareOfAV4SwapIsValidatedButNotTraded() public {
        IRouterV2.Swap[][] memory hops = _splitHop(
            _v4(keyAB500, address(tokenA), address(tokenB), 1), _v4(keyAB, address(tokenA), address(tokenB), AMOUNT)
        );
        // The first swap's share floors to zero (1e6 wei split 1 : 5000e18); the last takes the remainder, all of it.
        uint256 expected = _quoteV4(keyAB, address(tokenA), 1e6);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), 1e6, hops);
        assertEq(out, expected);
        _assertRouterEmpty();
    }
}
