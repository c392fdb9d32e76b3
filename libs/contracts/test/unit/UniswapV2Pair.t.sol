// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {V2Fixture} from "../fixtures/V2Fixture.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {IUniswapV2Pair} from "../../src/sources/v2/interfaces/IUniswapV2Pair.sol";
import {FlashBorrower, ReentrantCallee} from "../mocks/SwapCallees.sol";
import {FeeOnTransferToken, NoReturnToken} from "../mocks/BadTokens.sol";

contract UniswapV2PairTest is V2Fixture {
    uint256 internal constant MINIMUM_LIQUIDITY = 1000;

    // ---------------------------------------------------------------- metadata and initialize

    function test_metadata() public view {
        assertEq(pair.name(), "V2 Liquidity");
        assertEq(pair.symbol(), "V2-LP");
        assertEq(uint256(pair.decimals()), 18);
        assertEq(pair.MINIMUM_LIQUIDITY(), MINIMUM_LIQUIDITY);
        assertEq(pair.factory(), address(factory));
        assertEq(pair.token0(), address(token0));
        assertEq(pair.token1(), address(token1));
        assertEq(pair.swapFeeBps(), FEE_BPS);
        (uint112 r0, uint112 r1, uint32 t) = pair.getReserves();
        assertEq(uint256(r0) + r1 + t, 0);
        assertEq(pair.kLast(), 0);
        assertEq(pair.totalSupply(), 0);
    }

    function test_initialize_revertsForAnyoneButTheFactory() public {
        vm.expectRevert(IUniswapV2Pair.Forbidden.selector);
        pair.initialize(address(1), address(2));
    }

    // ---------------------------------------------------------------- mint

    function test_mint_first_locksTheMinimumAndEmits() public {
        token0.mint(address(pair), 1 ether);
        token1.mint(address(pair), 4 ether);

        vm.expectEmit(address(pair));
        emit IERC20.Transfer(address(0), address(0), MINIMUM_LIQUIDITY);
        vm.expectEmit(address(pair));
        emit IERC20.Transfer(address(0), alice, 2 ether - MINIMUM_LIQUIDITY);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Sync(1 ether, 4 ether);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Mint(address(this), 1 ether, 4 ether);
        uint256 liquidity = pair.mint(alice);

        assertEq(liquidity, 2 ether - MINIMUM_LIQUIDITY);
        assertEq(pair.balanceOf(alice), liquidity);
        assertEq(pair.balanceOf(address(0)), MINIMUM_LIQUIDITY);
        assertEq(pair.totalSupply(), 2 ether);
        (uint256 r0, uint256 r1) = _reserves();
        assertEq(r0, 1 ether);
        assertEq(r1, 4 ether);
        (,, uint32 t) = pair.getReserves();
        assertEq(uint256(t), block.timestamp);
    }

    function test_mint_later_takesTheSmallerShareOfTheTwoAmounts() public {
        _addLiquidity(alice, 1 ether, 4 ether);
        uint256 liquidity = _addLiquidity(bob, 0.5 ether, 3 ether);
        // min(0.5 * 2 / 1, 3 * 2 / 4) = 1: the surplus of token1 is donated to the pool.
        assertEq(liquidity, 1 ether);
        assertEq(pair.totalSupply(), 3 ether);
        (uint256 r0, uint256 r1) = _reserves();
        assertEq(r0, 1.5 ether);
        assertEq(r1, 7 ether);
    }

    function test_mint_revertsWhenTheFirstDepositDoesNotExceedTheMinimum() public {
        token0.mint(address(pair), 1000);
        token1.mint(address(pair), 1000);
        vm.expectRevert(IUniswapV2Pair.InsufficientLiquidityMinted.selector);
        pair.mint(alice);
    }

    function test_mint_revertsWhenNothingWasAdded() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(IUniswapV2Pair.InsufficientLiquidityMinted.selector);
        pair.mint(alice);
    }

    function test_mint_revertsWhenABalanceExceeds112Bits() public {
        token0.mint(address(pair), uint256(type(uint112).max) + 1);
        token1.mint(address(pair), 1 ether);
        vm.expectRevert(IUniswapV2Pair.Overflow.selector);
        pair.mint(alice);
    }

    // ---------------------------------------------------------------- burn

    function test_burn_paysOutTheShareAndEmits() public {
        uint256 liquidity = _addLiquidity(alice, 3 ether, 3 ether);
        vm.prank(alice);
        assertTrue(pair.transfer(address(pair), liquidity));

        uint256 expected = 3 ether - MINIMUM_LIQUIDITY;
        vm.expectEmit(address(pair));
        emit IERC20.Transfer(address(pair), address(0), liquidity);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Sync(1000, 1000);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Burn(address(this), expected, expected, bob);
        (uint256 amount0, uint256 amount1) = pair.burn(bob);

        assertEq(amount0, expected);
        assertEq(amount1, expected);
        assertEq(token0.balanceOf(bob), expected);
        assertEq(token1.balanceOf(bob), expected);
        assertEq(pair.totalSupply(), MINIMUM_LIQUIDITY);
        assertEq(pair.balanceOf(alice), 0);
    }

    function test_burn_revertsWithoutShares() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(IUniswapV2Pair.InsufficientLiquidityBurned.selector);
        pair.burn(bob);
    }

    // ---------------------------------------------------------------- swap

    function test_swap_zeroForOne_paysTheReferenceAmountAndEmits() public {
        _addLiquidity(alice, 5 ether, 10 ether);
        uint256 amountIn = 1 ether;
        uint256 expected = _amountOut(amountIn, 5 ether, 10 ether, FEE_BPS);
        // 1 * 0.997 * 10 / (5 + 0.997) = 1.662497915624478906...
        assertEq(expected, 1662497915624478906);

        token0.mint(address(pair), amountIn);
        vm.expectEmit(address(pair));
        // 10 ether - 1662497915624478906, as a uint112 literal.
        emit IUniswapV2Pair.Sync(6 ether, 8337502084375521094);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Swap(address(this), amountIn, 0, 0, expected, bob);
        pair.swap(0, expected, bob, "");

        assertEq(token1.balanceOf(bob), expected);
        (uint256 r0, uint256 r1) = _reserves();
        assertEq(r0, 6 ether);
        assertEq(r1, 10 ether - expected);
    }

    function test_swap_oneForZero_paysTheReferenceAmount() public {
        _addLiquidity(alice, 5 ether, 10 ether);
        uint256 expected = _amountOut(1 ether, 10 ether, 5 ether, FEE_BPS);
        token1.mint(address(pair), 1 ether);
        pair.swap(expected, 0, bob, "");
        assertEq(token0.balanceOf(bob), expected);
    }

    function test_swap_revertsWithKForOneUnitMoreThanTheReference() public {
        _addLiquidity(alice, 5 ether, 10 ether);
        uint256 expected = _amountOut(1 ether, 5 ether, 10 ether, FEE_BPS);
        token0.mint(address(pair), 1 ether);
        vm.expectRevert(IUniswapV2Pair.K.selector);
        pair.swap(0, expected + 1, bob, "");
    }

    function test_swap_feeIsChargedOnTheInput() public {
        _addLiquidity(alice, 1000 ether, 1000 ether);
        // With no fee the same input would buy strictly more.
        uint256 withFee = _amountOut(10 ether, 1000 ether, 1000 ether, FEE_BPS);
        uint256 withoutFee = _amountOut(10 ether, 1000 ether, 1000 ether, 0);
        assertLt(withFee, withoutFee);
        token0.mint(address(pair), 10 ether);
        vm.expectRevert(IUniswapV2Pair.K.selector);
        pair.swap(0, withoutFee, bob, "");
        pair.swap(0, withFee, bob, "");
    }

    function test_swap_revertsWithoutOutput() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(IUniswapV2Pair.InsufficientOutputAmount.selector);
        pair.swap(0, 0, bob, "");
    }

    function test_swap_revertsWhenAskingForTheWholeReserve() public {
        _addLiquidity(alice, 1 ether, 2 ether);
        vm.expectRevert(IUniswapV2Pair.InsufficientLiquidity.selector);
        pair.swap(1 ether, 0, bob, "");
        vm.expectRevert(IUniswapV2Pair.InsufficientLiquidity.selector);
        pair.swap(0, 2 ether, bob, "");
    }

    function test_swap_revertsWhenPayingAPairToken() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(IUniswapV2Pair.InvalidTo.selector);
        pair.swap(0, 1, address(token0), "");
        vm.expectRevert(IUniswapV2Pair.InvalidTo.selector);
        pair.swap(1, 0, address(token1), "");
    }

    function test_swap_revertsWithoutInput() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(IUniswapV2Pair.InsufficientInputAmount.selector);
        pair.swap(0, 1, bob, "");
    }

    function test_swap_revertsWhenABalanceExceeds112Bits() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        token0.mint(address(pair), type(uint112).max);
        vm.expectRevert(IUniswapV2Pair.Overflow.selector);
        pair.swap(0, 1, bob, "");
    }

    // ---------------------------------------------------------------- flash swaps

    function test_swap_flash_callsBackAndAcceptsRepaymentInTheSameToken() public {
        _addLiquidity(alice, 100 ether, 100 ether);
        FlashBorrower borrower = new FlashBorrower();
        uint256 borrowed = 10 ether;
        // Paying back in token1 only: (b1*10000 - in1*30) * b0*10000 >= r0*r1*10000^2 needs
        // in1 >= borrowed * 10000 / 9970, rounded up.
        uint256 repay = (borrowed * 10_000 + 9969) / 9970;
        token1.mint(address(borrower), repay);
        borrower.configure(IERC20(address(token0)), IERC20(address(token1)), 0, repay);

        pair.swap(0, borrowed, address(borrower), hex"c0ffee");

        assertEq(borrower.calls(), 1);
        assertEq(borrower.lastPool(), address(pair));
        assertEq(borrower.lastSender(), address(this));
        assertEq(borrower.lastAmount0Out(), 0);
        assertEq(borrower.lastAmount1Out(), borrowed);
        assertEq(borrower.lastData(), hex"c0ffee");
        assertEq(token1.balanceOf(address(borrower)), borrowed);
        (, uint256 r1) = _reserves();
        assertEq(r1, 100 ether - borrowed + repay);
    }

    function test_swap_flash_revertsWithKWhenUnderpaid() public {
        _addLiquidity(alice, 100 ether, 100 ether);
        FlashBorrower borrower = new FlashBorrower();
        uint256 borrowed = 10 ether;
        uint256 repay = (borrowed * 10_000 + 9969) / 9970 - 1;
        token1.mint(address(borrower), repay);
        borrower.configure(IERC20(address(token0)), IERC20(address(token1)), 0, repay);

        vm.expectRevert(IUniswapV2Pair.K.selector);
        pair.swap(0, borrowed, address(borrower), hex"01");
    }

    function test_swap_withoutDataDoesNotCallBack() public {
        _addLiquidity(alice, 100 ether, 100 ether);
        FlashBorrower borrower = new FlashBorrower();
        uint256 out = _amountOut(1 ether, 100 ether, 100 ether, FEE_BPS);
        token0.mint(address(pair), 1 ether);
        pair.swap(0, out, address(borrower), "");
        assertEq(borrower.calls(), 0);
    }

    function test_swap_flash_reentryIsBlocked() public {
        _addLiquidity(alice, 100 ether, 100 ether);
        ReentrantCallee callee = new ReentrantCallee();
        bytes[4] memory reentries = [
            abi.encodeCall(UniswapV2Pair.swap, (0, 1, address(callee), "")),
            abi.encodeCall(UniswapV2Pair.sync, ()),
            abi.encodeCall(UniswapV2Pair.skim, (address(callee))),
            abi.encodeCall(UniswapV2Pair.mint, (address(callee)))
        ];
        for (uint256 i; i < reentries.length; ++i) {
            callee.setReentry(reentries[i]);
            vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
            pair.swap(0, 1 ether, address(callee), hex"01");
        }
    }

    // ---------------------------------------------------------------- skim and sync

    function test_skim_sendsTheSurplusAndKeepsTheReserves() public {
        _addLiquidity(alice, 1 ether, 2 ether);
        token0.mint(address(pair), 3);
        token1.mint(address(pair), 5);
        pair.skim(bob);
        assertEq(token0.balanceOf(bob), 3);
        assertEq(token1.balanceOf(bob), 5);
        (uint256 r0, uint256 r1) = _reserves();
        assertEq(r0, 1 ether);
        assertEq(r1, 2 ether);
        assertEq(token0.balanceOf(address(pair)), 1 ether);
    }

    function test_sync_setsTheReservesToTheBalances() public {
        _addLiquidity(alice, 1 ether, 2 ether);
        token0.mint(address(pair), 3);
        vm.expectEmit(address(pair));
        emit IUniswapV2Pair.Sync(1 ether + 3, 2 ether);
        pair.sync();
        (uint256 r0, uint256 r1) = _reserves();
        assertEq(r0, 1 ether + 3);
        assertEq(r1, 2 ether);
    }

    function test_sync_revertsWhenABalanceExceeds112Bits() public {
        token1.mint(address(pair), uint256(type(uint112).max) + 1);
        vm.expectRevert(IUniswapV2Pair.Overflow.selector);
        pair.sync();
    }

    // ---------------------------------------------------------------- price accumulators

    function test_priceCumulative_growsByTheOldPriceTimesTheTimeElapsed() public {
        vm.warp(1000);
        _addLiquidity(alice, 1 ether, 4 ether);
        assertEq(pair.price0CumulativeLast(), 0);

        vm.warp(1010);
        pair.sync();
        // UQ112x112 prices: token0 costs 4 token1, token1 costs a quarter of a token0.
        uint256 price0 = 4 << 112;
        uint256 price1 = 1 << 110;
        assertEq(pair.price0CumulativeLast(), price0 * 10);
        assertEq(pair.price1CumulativeLast(), price1 * 10);

        // A second update in the same block adds nothing.
        pair.sync();
        assertEq(pair.price0CumulativeLast(), price0 * 10);
    }

    // ---------------------------------------------------------------- protocol fee

    function test_protocolFee_mintsASixthOfTheGrowthToFeeTo() public {
        vm.prank(feeSetter);
        factory.setFeeTo(feeSetter);
        _addLiquidity(alice, 1000 ether, 1000 ether);
        assertEq(pair.kLast(), 1000 ether * uint256(1000 ether));

        _swapExactIn(true, 10 ether, bob);
        _swapExactIn(false, 10 ether, bob);
        (uint256 r0, uint256 r1) = _reserves();
        uint256 rootK = _sqrt(r0 * r1);
        uint256 rootKLast = 1000 ether;
        uint256 supply = pair.totalSupply();
        uint256 expectedFee = (supply * (rootK - rootKLast)) / (rootK * 5 + rootKLast);
        assertGt(expectedFee, 0);

        // Any liquidity event mints it; a one-unit-share deposit is the smallest.
        _addLiquidity(bob, r0 / 1e15, r1 / 1e15);
        assertEq(pair.balanceOf(feeSetter), expectedFee);
    }

    function test_protocolFee_offClearsKLast() public {
        vm.prank(feeSetter);
        factory.setFeeTo(feeSetter);
        _addLiquidity(alice, 1 ether, 1 ether);
        assertGt(pair.kLast(), 0);
        vm.prank(feeSetter);
        factory.setFeeTo(address(0));
        _addLiquidity(alice, 1 ether, 1 ether);
        assertEq(pair.kLast(), 0);
        assertEq(pair.balanceOf(feeSetter), 0);
    }

    function test_protocolFee_offMintsNothing() public {
        _addLiquidity(alice, 1000 ether, 1000 ether);
        _swapExactIn(true, 10 ether, bob);
        _addLiquidity(bob, 1 ether, 1 ether);
        assertEq(pair.kLast(), 0);
        assertEq(pair.balanceOf(feeSetter), 0);
    }

    // ---------------------------------------------------------------- share token

    function test_shares_transferApproveTransferFrom() public {
        uint256 liquidity = _addLiquidity(alice, 1 ether, 1 ether);
        vm.prank(alice);
        vm.expectEmit(address(pair));
        emit IERC20.Approval(alice, bob, 10);
        pair.approve(bob, 10);
        vm.prank(bob);
        assertTrue(pair.transferFrom(alice, bob, 4));
        assertEq(pair.allowance(alice, bob), 6);
        assertEq(pair.balanceOf(bob), 4);
        assertEq(pair.balanceOf(alice), liquidity - 4);
    }

    function test_shares_maxAllowanceIsNotSpent() public {
        _addLiquidity(alice, 1 ether, 1 ether);
        vm.prank(alice);
        pair.approve(bob, type(uint256).max);
        vm.prank(bob);
        assertTrue(pair.transferFrom(alice, bob, 1 ether / 2));
        assertEq(pair.allowance(alice, bob), type(uint256).max);
    }

    function test_shares_revertOnShortBalanceAllowanceAndBadAddresses() public {
        uint256 liquidity = _addLiquidity(alice, 1 ether, 1 ether);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, liquidity, liquidity + 1)
        );
        vm.prank(alice);
        _ignore(pair.transfer(bob, liquidity + 1));

        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, bob, 0, 1));
        vm.prank(bob);
        _ignore(pair.transferFrom(alice, bob, 1));

        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InvalidReceiver.selector, address(0)));
        vm.prank(alice);
        _ignore(pair.transfer(address(0), 1));

        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InvalidSpender.selector, address(0)));
        vm.prank(alice);
        pair.approve(address(0), 1);
    }

    // ---------------------------------------------------------------- badly behaved tokens

    function test_noReturnToken_tradesAndWithdraws() public {
        NoReturnToken odd = new NoReturnToken();
        UniswapV2Pair p = UniswapV2Pair(factory.createPair(address(odd), address(token0)));
        odd.mint(address(p), 10 ether);
        token0.mint(address(p), 10 ether);
        uint256 liquidity = p.mint(alice);

        bool oddIsToken0 = p.token0() == address(odd);
        uint256 out = _amountOut(1 ether, 10 ether, 10 ether, FEE_BPS);
        token0.mint(address(p), 1 ether);
        if (oddIsToken0) p.swap(out, 0, bob, "");
        else p.swap(0, out, bob, "");
        assertEq(odd.balanceOf(bob), out);

        vm.prank(alice);
        assertTrue(p.transfer(address(p), liquidity));
        p.burn(alice);
        assertGt(odd.balanceOf(alice), 0);
    }

    function test_feeOnTransferToken_swapsOnWhatArrived() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        UniswapV2Pair p = UniswapV2Pair(factory.createPair(address(fot), address(token0)));
        fot.mint(address(p), 10 ether);
        token0.mint(address(p), 10 ether);
        p.mint(alice);

        // The trader sends 1 token; 1% is burned on the way, so the pair prices what it received.
        fot.mint(alice, 1 ether);
        vm.prank(alice);
        assertTrue(fot.transfer(address(p), 1 ether));
        (uint112 r0, uint112 r1,) = p.getReserves();
        bool fotIsToken0 = p.token0() == address(fot);
        uint256 reserveIn = fotIsToken0 ? r0 : r1;
        uint256 received = fot.balanceOf(address(p)) - reserveIn;
        assertEq(received, 0.99 ether);
        uint256 out = _amountOut(received, reserveIn, fotIsToken0 ? r1 : r0, FEE_BPS);
        if (fotIsToken0) p.swap(0, out, bob, "");
        else p.swap(out, 0, bob, "");
        assertEq(token0.balanceOf(bob), out);
    }

    /// @dev Consumes the result of a call expected to revert.
    function _ignore(bool) internal pure {}

    function _sqrt(uint256 y) internal pure returns (uint256 z) {
        // Bisection: an independent check of the pair's Babylonian square root.
        uint256 hi = y < 2 ? y : (y >> 1) + 1;
        if (hi > type(uint128).max) hi = type(uint128).max;
        uint256 lo;
        while (lo < hi) {
            uint256 mid = (lo + hi + 1) / 2;
            if (mid * mid <= y) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
}
