// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {V2Fixture} from "../fixtures/V2Fixture.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {SqrtMath} from "../../src/sources/libraries/SqrtMath.sol";
import {UniswapV2Factory} from "../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {IUniswapV2Pair} from "../../src/sources/v2/interfaces/IUniswapV2Pair.sol";

contract UniswapV2PairFuzzTest is V2Fixture {
    uint256 internal constant MAX_RESERVE = 1e30;

    /// @notice For any fee, reserves and input, the pair pays exactly the V2 formula: that output passes, one
    /// unit more fails the K check, and the product of reserves does not decrease.
    function testFuzz_swap_paysExactlyTheFormula(
        uint256 feeBps,
        uint256 reserve0,
        uint256 reserve1,
        uint256 amountIn,
        bool zeroForOne
    ) public {
        feeBps = bound(feeBps, 0, 1000);
        reserve0 = bound(reserve0, 1e4, MAX_RESERVE);
        reserve1 = bound(reserve1, 1e4, MAX_RESERVE);
        amountIn = bound(amountIn, 1, MAX_RESERVE);

        UniswapV2Pair p =
            UniswapV2Pair(new UniswapV2Factory(feeSetter, feeBps).createPair(address(token0), address(token1)));
        token0.mint(address(p), reserve0);
        token1.mint(address(p), reserve1);
        p.mint(alice);

        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 out = _amountOut(amountIn, reserveIn, reserveOut, feeBps);
        (zeroForOne ? token0 : token1).mint(address(p), amountIn);
        if (out == 0) {
            // Too small an input to buy a single unit.
            return;
        }

        if (out + 1 < reserveOut) {
            vm.expectRevert(IUniswapV2Pair.K.selector);
            _swap(p, zeroForOne, out + 1);
        }
        _swap(p, zeroForOne, out);

        (uint112 r0, uint112 r1,) = p.getReserves();
        assertGe(uint256(r0) * r1, reserve0 * reserve1, "K decreased");
        assertEq(zeroForOne ? r0 : r1, reserveIn + amountIn);
        assertEq(zeroForOne ? r1 : r0, reserveOut - out);
    }

    /// @notice A provider who adds and then removes liquidity never gets back more than it put in.
    function testFuzz_mintThenBurn_neverPaysMoreThanDeposited(
        uint256 seed0,
        uint256 seed1,
        uint256 amount0,
        uint256 amount1
    ) public {
        seed0 = bound(seed0, 1e4, MAX_RESERVE);
        seed1 = bound(seed1, 1e4, MAX_RESERVE);
        amount0 = bound(amount0, 0, MAX_RESERVE);
        amount1 = bound(amount1, 0, MAX_RESERVE);
        _addLiquidity(alice, seed0, seed1);
        uint256 supply = pair.totalSupply();
        vm.assume((amount0 * supply) / seed0 > 0 && (amount1 * supply) / seed1 > 0);

        uint256 liquidity = _addLiquidity(bob, amount0, amount1);
        vm.prank(bob);
        assertTrue(pair.transfer(address(pair), liquidity));
        (uint256 r0, uint256 r1) = _reserves();
        supply = pair.totalSupply();
        if ((liquidity * r0) / supply == 0 || (liquidity * r1) / supply == 0) {
            // Too small a share to pay out a unit of both tokens.
            vm.expectRevert(IUniswapV2Pair.InsufficientLiquidityBurned.selector);
            pair.burn(bob);
            return;
        }
        (uint256 out0, uint256 out1) = pair.burn(bob);
        assertLe(out0, amount0);
        assertLe(out1, amount1);
    }

    /// @notice The square root helper returns the floor of the real root.
    function testFuzz_sqrt_isTheFloor(uint256 y) public pure {
        uint256 z = SqrtMath.sqrt(y);
        assertLe(z * z, y);
        if (z < type(uint128).max) assertGt((z + 1) * (z + 1), y);
    }

    function _swap(UniswapV2Pair p, bool zeroForOne, uint256 out) internal {
        if (zeroForOne) p.swap(0, out, bob, "");
        else p.swap(out, 0, bob, "");
    }
}
