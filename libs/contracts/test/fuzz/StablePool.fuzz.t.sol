// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {StableFixture} from "../fixtures/StableFixture.sol";
import {StableMath} from "../../src/sources/libraries/StableMath.sol";
import {IStablePool} from "../../src/sources/stable/interfaces/IStablePool.sol";

contract StablePoolFuzzTest is StableFixture {
    /// @dev Whole tokens per side; the invariant's intermediate products stay far from overflow below it.
    uint256 internal constant MAX_WHOLE = 1e9;

    /// @dev Seeds a balanced pool of `whole` tokens a side, then tilts it with a swap of up to half a reserve.
    function _seed(uint256 whole, uint256 tilt, bool tiltZeroForOne) internal {
        whole = bound(whole, 1000, MAX_WHOLE);
        _addBalancedLiquidity(alice, whole);
        tilt = bound(tilt, 0, (whole * _unit(tiltZeroForOne ? token0 : token1)) / 2);
        if (tilt > 0 && pool.getAmountOut(tilt, address(tiltZeroForOne ? token0 : token1)) > 0) {
            _swapExactIn(tiltZeroForOne, tilt, bob);
        }
    }

    function _boundInput(uint256 amountIn, bool zeroForOne) internal view returns (uint256) {
        (uint256 r0, uint256 r1) = _reserves();
        return bound(amountIn, 1, zeroForOne ? r0 : r1);
    }

    /// @notice Swapping in exactly what getAmountOut quotes passes the check, and never lowers the invariant.
    function testFuzz_getAmountOut_swapPassesAndKNeverDecreases(
        uint256 whole,
        uint256 tilt,
        bool tiltZeroForOne,
        uint256 amountIn,
        bool zeroForOne
    ) public {
        _seed(whole, tilt, tiltZeroForOne);
        amountIn = _boundInput(amountIn, zeroForOne);
        uint256 before = _poolK();
        uint256 out = pool.getAmountOut(amountIn, address(zeroForOne ? token0 : token1));
        vm.assume(out > 0);

        (zeroForOne ? token0 : token1).mint(address(pool), amountIn);
        if (zeroForOne) pool.swap(0, out, bob, "");
        else pool.swap(out, 0, bob, "");
        assertGe(_poolK(), before, "K decreased");
    }

    /// @notice getAmountOut is the most a swap allows: one unit more fails.
    function testFuzz_getAmountOut_isTheMostTheSwapAllows(
        uint256 whole,
        uint256 tilt,
        bool tiltZeroForOne,
        uint256 amountIn,
        bool zeroForOne
    ) public {
        _seed(whole, tilt, tiltZeroForOne);
        amountIn = _boundInput(amountIn, zeroForOne);
        uint256 out = pool.getAmountOut(amountIn, address(zeroForOne ? token0 : token1));
        (zeroForOne ? token0 : token1).mint(address(pool), amountIn);
        vm.expectRevert(IStablePool.K.selector);
        if (zeroForOne) pool.swap(0, out + 1, bob, "");
        else pool.swap(out + 1, 0, bob, "");
    }

    /// @notice getAmountOut (Newton's method) equals the reference quote (bisection) to the unit.
    function testFuzz_getAmountOut_matchesTheReference(
        uint256 whole,
        uint256 tilt,
        bool tiltZeroForOne,
        uint256 amountIn,
        bool zeroForOne
    ) public {
        _seed(whole, tilt, tiltZeroForOne);
        amountIn = _boundInput(amountIn, zeroForOne);
        address tokenIn = address(zeroForOne ? token0 : token1);
        assertEq(pool.getAmountOut(amountIn, tokenIn), _referenceAmountOut(amountIn, tokenIn));
    }

    /// @notice From one whole token a side upwards, the solver returns the smallest y that keeps the invariant.
    function testFuzz_getY_isTheSmallestAdmissibleY(uint256 x, uint256 y, uint256 dx) public pure {
        x = bound(x, 1e18, 1e27);
        y = bound(y, 1e18, 1e27);
        dx = bound(dx, 0, 1e27);
        uint256 xy = StableMath.k(x, y);
        uint256 solved = StableMath.getY(x + dx, xy, y);
        assertGe(StableMath.k(x + dx, solved), xy);
        assertLe(solved, y);
        assertLt(StableMath.k(x + dx, solved - 1), xy);
    }

    /// @notice For dust and extreme imbalances too, where the rounded invariant is flat over many y and plain
    /// Newton steps can oscillate, the solver converges to a y that keeps the invariant and whose predecessor
    /// does not (or that meets it exactly, as Velodrome accepts).
    function testFuzz_getY_convergesOnDustAndImbalance(uint256 x, uint256 y, uint256 dx) public pure {
        x = bound(x, 1e12, 1e28);
        y = bound(y, 1e12, 1e28);
        dx = bound(dx, 0, 1e28);
        uint256 xy = StableMath.k(x, y);
        vm.assume(xy > 0);
        uint256 solved = StableMath.getY(x + dx, xy, y);
        uint256 reached = StableMath.k(x + dx, solved);
        assertGe(reached, xy);
        assertLe(solved, y);
        if (reached > xy) assertLt(StableMath.k(x + dx, solved - 1), xy);
    }

    /// @notice The case where Velodrome's iteration oscillates between two points forever.
    function test_getY_convergesWhereNewtonOscillates() public pure {
        uint256 x = 1e15 + 1000;
        uint256 y = 1000999999999999000;
        uint256 xy = StableMath.k(x, y);
        uint256 solved = StableMath.getY(x + 2909, xy, y);
        uint256 reached = StableMath.k(x + 2909, solved);
        assertGe(reached, xy);
        if (reached > xy) assertLt(StableMath.k(x + 2909, solved - 1), xy);
    }
}
