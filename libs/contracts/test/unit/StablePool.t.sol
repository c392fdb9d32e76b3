// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {StableFixture} from "../fixtures/StableFixture.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {StablePool} from "../../src/sources/stable/StablePool.sol";
import {IStablePool} from "../../src/sources/stable/interfaces/IStablePool.sol";
import {FlashBorrower, ReentrantCallee} from "../mocks/SwapCallees.sol";

contract StablePoolTest is StableFixture {
    uint256 internal constant MINIMUM_LIQUIDITY = 1000;

    // ---------------------------------------------------------------- metadata

    function test_metadata_describesThePool() public view {
        (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1) = pool.metadata();
        assertEq(dec0, _unit(token0));
        assertEq(dec1, _unit(token1));
        assertEq(r0 + r1, 0);
        assertTrue(st);
        assertEq(t0, address(token0));
        assertEq(t1, address(token1));
        (address a, address b) = pool.tokens();
        assertEq(a, address(token0));
        assertEq(b, address(token1));
        assertTrue(pool.stable());
        assertEq(pool.swapFeeBps(), FEE_BPS);
        assertEq(pool.factory(), address(factory));
        assertEq(pool.MINIMUM_LIQUIDITY(), MINIMUM_LIQUIDITY);
    }

    function test_nameAndSymbol_comeFromTheTokens() public view {
        string memory pairSymbols = string.concat(token0.symbol(), "/", token1.symbol());
        assertEq(pool.name(), string.concat("Stable AMM - ", pairSymbols));
        assertEq(pool.symbol(), string.concat("sAMM-", pairSymbols));
        assertEq(uint256(pool.decimals()), 18);
    }

    // ---------------------------------------------------------------- mint

    function test_mint_first_requiresEqualNormalisedAmounts() public {
        token0.mint(address(pool), 1000 * _unit(token0));
        token1.mint(address(pool), 1001 * _unit(token1));
        vm.expectRevert(IStablePool.DepositsNotEqual.selector);
        pool.mint(alice);
    }

    function test_mint_first_revertsAtOrBelowTheMinimumK() public {
        // 1e-6 of a token each, 1e12 normalised: k = (1e12 * 1e12 / 1e18) * 2e6 / 1e18 rounds to 0.
        token0.mint(address(pool), _unit(token0) / 1e6);
        token1.mint(address(pool), _unit(token1) / 1e6);
        vm.expectRevert(IStablePool.BelowMinimumK.selector);
        pool.mint(alice);
    }

    function test_mint_first_locksTheMinimumAndEmits() public {
        uint256 amount0 = 1000 * _unit(token0);
        uint256 amount1 = 1000 * _unit(token1);
        token0.mint(address(pool), amount0);
        token1.mint(address(pool), amount1);
        uint256 expected = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;

        vm.expectEmit(address(pool));
        emit IERC20.Transfer(address(0), address(0), MINIMUM_LIQUIDITY);
        vm.expectEmit(address(pool));
        emit IERC20.Transfer(address(0), alice, expected);
        vm.expectEmit(address(pool));
        emit IStablePool.Sync(amount0, amount1);
        vm.expectEmit(address(pool));
        emit IStablePool.Mint(address(this), amount0, amount1);
        uint256 liquidity = pool.mint(alice);

        assertEq(liquidity, expected);
        assertEq(pool.balanceOf(address(0)), MINIMUM_LIQUIDITY);
        (uint256 r0, uint256 r1, uint256 t) = pool.getReserves();
        assertEq(r0, amount0);
        assertEq(r1, amount1);
        assertEq(t, block.timestamp);
        assertEq(pool.reserve0(), amount0);
        assertEq(pool.reserve1(), amount1);
        assertEq(pool.blockTimestampLast(), block.timestamp);
    }

    function test_mint_later_takesTheSmallerShareAndAllowsUnevenAmounts() public {
        uint256 first = _addBalancedLiquidity(alice, 1000);
        uint256 supply = first + MINIMUM_LIQUIDITY;
        uint256 liquidity = _addLiquidity(bob, 500 * _unit(token0), 100 * _unit(token1));
        assertEq(liquidity, (100 * _unit(token1) * supply) / (1000 * _unit(token1)));
    }

    function test_mint_revertsWhenNothingWasAdded() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(IStablePool.InsufficientLiquidityMinted.selector);
        pool.mint(alice);
    }

    // ---------------------------------------------------------------- burn

    function test_burn_paysOutTheShareAndEmits() public {
        uint256 liquidity = _addBalancedLiquidity(alice, 1000);
        uint256 supply = pool.totalSupply();
        vm.prank(alice);
        assertTrue(pool.transfer(address(pool), liquidity));
        uint256 expected0 = (liquidity * 1000 * _unit(token0)) / supply;
        uint256 expected1 = (liquidity * 1000 * _unit(token1)) / supply;

        vm.expectEmit(address(pool));
        emit IStablePool.Burn(address(this), bob, expected0, expected1);
        (uint256 amount0, uint256 amount1) = pool.burn(bob);

        assertEq(amount0, expected0);
        assertEq(amount1, expected1);
        assertEq(token0.balanceOf(bob), expected0);
        assertEq(token1.balanceOf(bob), expected1);
        assertEq(pool.totalSupply(), MINIMUM_LIQUIDITY);
    }

    function test_burn_revertsWithoutShares() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(IStablePool.InsufficientLiquidityBurned.selector);
        pool.burn(bob);
    }

    // ---------------------------------------------------------------- getAmountOut

    function test_getAmountOut_matchesTheReferenceInBothDirections() public {
        _addBalancedLiquidity(alice, 1_000_000);
        uint256[4] memory sizes = [uint256(1), 1000, 100_000, 900_000];
        for (uint256 i; i < sizes.length; ++i) {
            uint256 in0 = sizes[i] * _unit(token0);
            uint256 in1 = sizes[i] * _unit(token1);
            assertEq(pool.getAmountOut(in0, address(token0)), _referenceAmountOut(in0, address(token0)));
            assertEq(pool.getAmountOut(in1, address(token1)), _referenceAmountOut(in1, address(token1)));
        }
    }

    function test_getAmountOut_matchesTheReferenceInAnImbalancedPool() public {
        _addBalancedLiquidity(alice, 1_000_000);
        _swapExactIn(true, 600_000 * _unit(token0), bob);
        uint256 in0 = 1000 * _unit(token0);
        uint256 in1 = 1000 * _unit(token1);
        assertEq(pool.getAmountOut(in0, address(token0)), _referenceAmountOut(in0, address(token0)));
        assertEq(pool.getAmountOut(in1, address(token1)), _referenceAmountOut(in1, address(token1)));
        // token1 is now scarce: selling token0 pays less than one for one, selling token1 more.
        assertLt(pool.getAmountOut(in0, address(token0)), _unit(token1) * 1000);
        assertGt(pool.getAmountOut(in1, address(token1)), _unit(token0) * 1000);
    }

    function test_getAmountOut_staysNearParityForABalancedPool() public {
        _addBalancedLiquidity(alice, 1_000_000);
        // 10,000 in a 1M/1M stable pool: the fee (0.04%) dominates, price impact is tiny.
        uint256 out = pool.getAmountOut(10_000 * _unit(token0), address(token0));
        assertGt(out, (9_995 * _unit(token1)));
        assertLt(out, (9_996 * _unit(token1)));
    }

    function test_getAmountOut_isZeroForAnEmptyPoolOrNoInput() public {
        assertEq(pool.getAmountOut(1e6, address(token0)), 0);
        _addBalancedLiquidity(alice, 1000);
        assertEq(pool.getAmountOut(0, address(token0)), 0);
    }

    function test_getAmountOut_revertsForAForeignToken() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(abi.encodeWithSelector(IStablePool.InvalidToken.selector, alice));
        pool.getAmountOut(1, alice);
    }

    // ---------------------------------------------------------------- swap

    function test_swap_paysTheQuoteAndEmits() public {
        _addBalancedLiquidity(alice, 1_000_000);
        uint256 amountIn = 5000 * _unit(token0);
        uint256 quoted = pool.getAmountOut(amountIn, address(token0));
        assertEq(quoted, _referenceAmountOut(amountIn, address(token0)));
        uint256 fee = (amountIn * FEE_BPS) / 10_000;
        (uint256 r0, uint256 r1) = _reserves();

        token0.mint(address(pool), amountIn);
        vm.expectEmit(address(pool));
        emit IStablePool.Fees(address(this), fee, 0);
        vm.expectEmit(address(pool));
        emit IStablePool.Sync(r0 + amountIn, r1 - quoted);
        vm.expectEmit(address(pool));
        emit IStablePool.Swap(address(this), bob, amountIn, 0, 0, quoted);
        pool.swap(0, quoted, bob, "");

        assertEq(token1.balanceOf(bob), quoted);
        (uint256 n0, uint256 n1) = _reserves();
        assertEq(n0, r0 + amountIn);
        assertEq(n1, r1 - quoted);
    }

    function test_swap_oneForZero_paysTheQuote() public {
        _addBalancedLiquidity(alice, 1_000_000);
        uint256 out = _swapExactIn(false, 7777 * _unit(token1), bob);
        assertGt(out, 0);
        assertEq(token0.balanceOf(bob), out);
    }

    function test_swap_revertsWithKForOneUnitMoreThanTheQuote() public {
        _addBalancedLiquidity(alice, 1_000_000);
        // Into the 6-decimal side, where one unit is 1e12 normalised units.
        uint256 amountIn1 = 5000 * _unit(token1);
        uint256 quoted = pool.getAmountOut(amountIn1, address(token1));
        token1.mint(address(pool), amountIn1);
        vm.expectRevert(IStablePool.K.selector);
        pool.swap(quoted + 1, 0, bob, "");
        pool.swap(quoted, 0, bob, "");

        // And into the 18-decimal side.
        uint256 amountIn0 = 5000 * _unit(token0);
        quoted = pool.getAmountOut(amountIn0, address(token0));
        token0.mint(address(pool), amountIn0);
        vm.expectRevert(IStablePool.K.selector);
        pool.swap(0, quoted + 1, bob, "");
    }

    function test_swap_increasesTheInvariant() public {
        _addBalancedLiquidity(alice, 1_000_000);
        uint256 before = _poolK();
        _swapExactIn(true, 50_000 * _unit(token0), bob);
        assertGt(_poolK(), before);
    }

    function test_swap_revertsWithoutOutput() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(IStablePool.InsufficientOutputAmount.selector);
        pool.swap(0, 0, bob, "");
    }

    function test_swap_revertsWhenAskingForTheWholeReserve() public {
        _addBalancedLiquidity(alice, 1000);
        (uint256 r0, uint256 r1) = _reserves();
        vm.expectRevert(IStablePool.InsufficientLiquidity.selector);
        pool.swap(r0, 0, bob, "");
        vm.expectRevert(IStablePool.InsufficientLiquidity.selector);
        pool.swap(0, r1, bob, "");
    }

    function test_swap_revertsWhenPayingAPoolToken() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(IStablePool.InvalidTo.selector);
        pool.swap(0, 1, address(token0), "");
        vm.expectRevert(IStablePool.InvalidTo.selector);
        pool.swap(1, 0, address(token1), "");
    }

    function test_swap_revertsWithoutInput() public {
        _addBalancedLiquidity(alice, 1000);
        vm.expectRevert(IStablePool.InsufficientInputAmount.selector);
        pool.swap(0, 1, bob, "");
    }

    // ---------------------------------------------------------------- flash swaps

    function test_swap_flash_callsTheHookAndAcceptsRepayment() public {
        _addBalancedLiquidity(alice, 1_000_000);
        FlashBorrower borrower = new FlashBorrower();
        uint256 borrowed = 1000 * _unit(token1);
        // Repaid in the same token, the invariant holds when the repayment net of the fee covers the loan.
        uint256 repay = (borrowed * 10_000 + (10_000 - FEE_BPS - 1)) / (10_000 - FEE_BPS);
        token1.mint(address(borrower), repay);
        borrower.configure(IERC20(address(token0)), IERC20(address(token1)), 0, repay);

        pool.swap(0, borrowed, address(borrower), hex"beef");

        assertEq(borrower.calls(), 1);
        assertEq(borrower.lastPool(), address(pool));
        assertEq(borrower.lastSender(), address(this));
        assertEq(borrower.lastAmount0Out(), 0);
        assertEq(borrower.lastAmount1Out(), borrowed);
        assertEq(borrower.lastData(), hex"beef");
        assertEq(token1.balanceOf(address(borrower)), borrowed);
    }

    function test_swap_flash_revertsWithKWhenUnpaid() public {
        _addBalancedLiquidity(alice, 1_000_000);
        FlashBorrower borrower = new FlashBorrower();
        uint256 borrowed = 1000 * _unit(token1);
        token1.mint(address(borrower), borrowed);
        borrower.configure(IERC20(address(token0)), IERC20(address(token1)), 0, borrowed);
        // Returning exactly the loan leaves the fee unpaid.
        vm.expectRevert(IStablePool.K.selector);
        pool.swap(0, borrowed, address(borrower), hex"01");
    }

    function test_swap_flash_reentryIsBlocked() public {
        _addBalancedLiquidity(alice, 1000);
        ReentrantCallee callee = new ReentrantCallee();
        bytes[4] memory reentries = [
            abi.encodeCall(StablePool.swap, (0, 1, address(callee), "")),
            abi.encodeCall(StablePool.sync, ()),
            abi.encodeCall(StablePool.skim, (address(callee))),
            abi.encodeCall(StablePool.burn, (address(callee)))
        ];
        for (uint256 i; i < reentries.length; ++i) {
            callee.setReentry(reentries[i]);
            vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
            pool.swap(0, 1, address(callee), hex"01");
        }
    }

    // ---------------------------------------------------------------- skim and sync

    function test_skim_sendsTheSurplusAndKeepsTheReserves() public {
        _addBalancedLiquidity(alice, 1000);
        (uint256 r0, uint256 r1) = _reserves();
        token0.mint(address(pool), 3);
        token1.mint(address(pool), 5);
        pool.skim(bob);
        assertEq(token0.balanceOf(bob), 3);
        assertEq(token1.balanceOf(bob), 5);
        (uint256 n0, uint256 n1) = _reserves();
        assertEq(n0, r0);
        assertEq(n1, r1);
    }

    function test_sync_setsTheReservesToTheBalances() public {
        _addBalancedLiquidity(alice, 1000);
        (uint256 r0, uint256 r1) = _reserves();
        token1.mint(address(pool), 7);
        vm.expectEmit(address(pool));
        emit IStablePool.Sync(r0, r1 + 7);
        pool.sync();
        (uint256 n0, uint256 n1) = _reserves();
        assertEq(n0, r0);
        assertEq(n1, r1 + 7);
    }

    function test_reserveCumulative_growsByTheOldReservesTimesTheTimeElapsed() public {
        vm.warp(1000);
        _addBalancedLiquidity(alice, 1000);
        (uint256 r0, uint256 r1) = _reserves();
        vm.warp(1012);
        pool.sync();
        assertEq(pool.reserve0CumulativeLast(), r0 * 12);
        assertEq(pool.reserve1CumulativeLast(), r1 * 12);
    }

    // ---------------------------------------------------------------- helpers

    function _sqrt(uint256 y) internal pure returns (uint256) {
        uint256 lo;
        uint256 hi = y < 2 ? y : (y >> 1) + 1;
        if (hi > type(uint128).max) hi = type(uint128).max;
        while (lo < hi) {
            uint256 mid = (lo + hi + 1) / 2;
            if (mid * mid <= y) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
}
