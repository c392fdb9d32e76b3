// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ConcentratedFixture} from "../router/ConcentratedFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";

/// @notice Random routes through the real V3 and Algebra pools (single hop either way, one hop split with a real
/// V2 pair, multi-hop mixing kinds, native in and out, fees with slippage capture) of random sizes: the output is
/// exactly what the pools' own quotes chain to, and the router ends every call holding nothing, even though a
/// third party sent it tokens and native coin beforehand.
contract RouterV2ConcentratedFuzzTest is ConcentratedFixture {
    uint256 internal constant DONATION = 3 ether;
    uint256 internal constant MAX_AMOUNT = 5_000 ether;

    function setUp() public override {
        super.setUp();
        _fundAndApprove(alice, address(tokenA), 1_000_000 ether);
        _fundAndApprove(alice, address(tokenB), 1_000_000 ether);
        _fundAndApprove(alice, address(tokenC), 1_000_000 ether);
        vm.deal(alice, 1_000 ether);
        _fund(address(tokenA), address(router), DONATION);
        _fund(address(tokenB), address(router), DONATION);
        _fund(address(tokenC), address(router), DONATION);
        _fund(address(wnative), address(router), DONATION);
        vm.deal(address(router), DONATION);
    }

    function testFuzz_concentratedRoutesPayTheQuotesAndLeaveNothing(
        uint256 amountSeed,
        uint256 shape,
        bool reverse,
        uint256 weightSeed
    ) public {
        uint256 amountIn = bound(amountSeed, 1e9, MAX_AMOUNT);
        shape = bound(shape, 0, 5);
        address[] memory path;
        IRouterV2.Swap[][] memory hops;
        uint256 expected;
        uint256 value;
        if (shape == 0) (path, hops, expected) = _single(amountIn, reverse, false);
        else if (shape == 1) (path, hops, expected) = _single(amountIn, reverse, true);
        else if (shape == 2) (path, hops, expected) = _splitWithV2(amountIn, weightSeed);
        else if (shape == 3) (path, hops, expected) = _multiHop(amountIn, reverse);
        else if (shape == 4) (path, hops, expected, value) = _native(amountIn, reverse);
        else (path, hops, expected) = _single(amountIn, reverse, weightSeed % 2 == 0);
        // A native input is sized down to the WHYPE pool (`_native` returns it as the value to send).
        if (value != 0) amountIn = value;

        uint256 out;
        if (shape == 5) {
            // Through the router, which takes a fee and captures the slippage above a lowered expectation.
            uint256 lowered = expected - expected / 200;
            (uint256 userAmount,,,,) = _referenceSplit(expected, lowered, 25, true);
            vm.prank(alice);
            out = router.executeSwapsWithData(
                path, amountIn, userAmount, lowered, hops, 25, integrator, bob, block.timestamp
            );
            assertEq(out, userAmount, "user amount differs from the split of the quote");
        } else {
            vm.prank(alice);
            out = router.executeSwaps{value: value}(path, amountIn, 0, 0, hops, 0, address(0));
            assertEq(out, expected, "output differs from the chained quotes");
        }

        address r = address(router);
        assertEq(tokenA.balanceOf(r), DONATION, "router's A changed");
        assertEq(tokenB.balanceOf(r), DONATION, "router's B changed");
        assertEq(tokenC.balanceOf(r), DONATION, "router's C changed");
        assertEq(wnative.balanceOf(r), DONATION, "router's WHYPE changed");
        assertEq(r.balance, DONATION, "router's native coin changed");
    }

    // ---------------------------------------------------------------- shapes

    function _single(uint256 amountIn, bool reverse, bool algebra)
        internal
        returns (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 expected)
    {
        (address tokenIn, address tokenOut) =
            reverse ? (address(tokenB), address(tokenA)) : (address(tokenA), address(tokenB));
        path = _path(tokenIn, tokenOut);
        if (algebra) {
            expected = _quoteAlgebra(algebraAB, tokenIn, amountIn);
            hops = _hops(_swap(algebraAB, tokenIn, tokenOut, ALGEBRA, amountIn));
        } else {
            (expected,) = _quoteV3(tokenIn, tokenOut, FEE_MEDIUM, amountIn);
            hops = _hops(_swap(v3AB, tokenIn, tokenOut, V3, amountIn));
        }
    }

    function _splitWithV2(uint256 amountIn, uint256 weightSeed)
        internal
        returns (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 expected)
    {
        uint256 q0 = 1 + (weightSeed % 1000);
        uint256 q1 = 1 + ((weightSeed >> 16) % 1000);
        uint256 q2 = 1 + ((weightSeed >> 32) % 1000);
        uint256 total = q0 + q1 + q2;
        uint256 s0 = Math.mulDiv(amountIn, q0, total);
        uint256 s1 = Math.mulDiv(amountIn, q1, total);
        uint256 s2 = amountIn - s0 - s1;
        path = _path(address(tokenA), address(tokenB));
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](3);
        hops[0][0] = _swap(v3AB, address(tokenA), address(tokenB), V3, q0);
        hops[0][1] = _swap(algebraAB, address(tokenA), address(tokenB), ALGEBRA, q1);
        hops[0][2] = _swap(realPairAB, address(tokenA), address(tokenB), V2_REAL, q2);
        (expected,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, s0);
        expected += _quoteAlgebra(algebraAB, address(tokenA), s1) + _quoteRealV2(address(tokenA), s2);
    }

    function _multiHop(uint256 amountIn, bool reverse)
        internal
        returns (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 expected)
    {
        uint256 mid;
        if (!reverse) {
            // A -(Algebra)-> B -(V3)-> C
            mid = _quoteAlgebra(algebraAB, address(tokenA), amountIn);
            (expected,) = _quoteV3(address(tokenB), address(tokenC), FEE_LOW, mid);
            path = _path(address(tokenA), address(tokenB), address(tokenC));
            hops = _hops(
                _swap(algebraAB, address(tokenA), address(tokenB), ALGEBRA, amountIn),
                _swap(v3BC, address(tokenB), address(tokenC), V3, mid)
            );
        } else {
            // C -(V3)-> B -(Algebra)-> A
            (mid,) = _quoteV3(address(tokenC), address(tokenB), FEE_LOW, amountIn);
            expected = _quoteAlgebra(algebraAB, address(tokenB), mid);
            path = _path(address(tokenC), address(tokenB), address(tokenA));
            hops = _hops(
                _swap(v3BC, address(tokenC), address(tokenB), V3, amountIn),
                _swap(algebraAB, address(tokenB), address(tokenA), ALGEBRA, mid)
            );
        }
    }

    function _native(uint256 amountIn, bool out)
        internal
        returns (address[] memory path, IRouterV2.Swap[][] memory hops, uint256 expected, uint256 value)
    {
        if (!out) {
            // The pool holds about 1,600 WHYPE of positions: a hundredth of the A-sized amounts.
            amountIn /= 100;
            (expected,) = _quoteV3(address(wnative), address(tokenA), FEE_MEDIUM, amountIn);
            path = _path(address(0), address(tokenA));
            hops = _hops(_swap(v3AW, address(wnative), address(tokenA), V3, amountIn));
            value = amountIn;
        } else {
            (expected,) = _quoteV3(address(tokenA), address(wnative), FEE_MEDIUM, amountIn);
            path = _path(address(tokenA), address(0));
            hops = _hops(_swap(v3AW, address(tokenA), address(wnative), V3, amountIn));
        }
    }
}
