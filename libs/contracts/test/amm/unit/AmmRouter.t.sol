// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {AmmFixture} from "../fixtures/AmmFixture.sol";
import {CoreSourceCaller, FreezableToken, ReturnsFalseToken} from "../mocks/AmmMocks.sol";
import {FeeOnTransferToken} from "../../mocks/BadTokens.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {AmmPool} from "../../../src/amm/AmmPool.sol";
import {AmmRouter} from "../../../src/amm/AmmRouter.sol";
import {RefCodeRegistry} from "../../../src/amm/RefCodeRegistry.sol";
import {IAmmPool} from "../../../src/amm/interfaces/IAmmPool.sol";
import {IAmmRouter} from "../../../src/amm/interfaces/IAmmRouter.sol";

contract AmmRouterTest is AmmFixture {
    uint256 internal constant USDC_IN = 10_000e6;

    TestERC20 internal usdt;
    AmmPool internal stablePool;

    /// @dev A second pool (USDT/USDC at $1 each, $100k a side) so that distribution spans pools.
    function setUp() public override {
        super.setUp();
        usdt = new TestERC20("Tether", "USDT", 6);
        vm.prank(owner);
        oracle.setPrice(address(usdt), 1e18);
        stablePool = new AmmPool(
            address(usdt), address(usdc), address(oracle), address(registry), _defaultParams(), 1 hours, owner
        );
        usdt.mint(owner, 100_000e6);
        usdc.mint(owner, 100_000e6);
        vm.startPrank(owner);
        usdt.approve(address(stablePool), type(uint256).max);
        usdc.approve(address(stablePool), type(uint256).max);
        stablePool.addLiquidity(100_000e6, 100_000e6);
        stablePool.setRouter(address(router));
        router.addPool(address(stablePool));
        vm.stopPrank();
        usdt.mint(alice, 1_000_000e6);
        vm.prank(alice);
        usdt.approve(address(router), type(uint256).max);
    }

    function _newPool(address tokenA, address tokenB) internal returns (AmmPool) {
        return new AmmPool(tokenA, tokenB, address(oracle), address(registry), _defaultParams(), 1 hours, owner);
    }

    // ---------------------------------------------------------------- registry of pools

    function test_constructor_setsState() public {
        assertEq(router.refCodeRegistry(), address(registry));
        assertEq(router.owner(), owner);
        vm.expectRevert(IAmmRouter.ZeroAddress.selector);
        new AmmRouter(owner, address(0));
    }

    function test_getPools_listsRegisteredPools() public view {
        address[] memory pools = router.getPools();
        assertEq(pools.length, 2);
        assertEq(pools[0], address(pool));
        assertEq(pools[1], address(stablePool));
    }

    function test_getPoolForPair_isOrderIndependent() public view {
        assertEq(router.getPoolForPair(address(whype), address(usdc)), address(pool));
        assertEq(router.getPoolForPair(address(usdc), address(whype)), address(pool));
        assertEq(router.getPoolForPair(address(usdt), address(usdc)), address(stablePool));
        assertEq(router.getPoolForPair(address(whype), address(usdt)), address(0));
        assertEq(router.getPoolForPair(address(usdc), address(usdc)), address(0));
    }

    function test_addPool_emitsAndRejectsDuplicates() public {
        TestERC20 other = new TestERC20("Other", "OTH", 18);
        AmmPool p = _newPool(address(other), address(whype));
        (address t0, address t1) = p.getTokens();
        vm.expectEmit(address(router));
        emit IAmmRouter.PoolAdded(address(p), t0, t1);
        vm.prank(owner);
        router.addPool(address(p));
        assertEq(router.getPoolForPair(address(whype), address(other)), address(p));

        AmmPool again = _newPool(address(whype), address(other));
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.PoolAlreadyExists.selector, address(p)));
        router.addPool(address(again));
    }

    function test_addPool_rejectsAnotherRegistryAndZero() public {
        RefCodeRegistry otherRegistry = new RefCodeRegistry(owner, 0);
        AmmPool p = new AmmPool(
            address(whype), address(usdt), address(oracle), address(otherRegistry), _defaultParams(), 60, owner
        );
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.RegistryMismatch.selector, address(p)));
        router.addPool(address(p));
        vm.expectRevert(IAmmRouter.ZeroAddress.selector);
        router.addPool(address(0));
        vm.stopPrank();
    }

    function test_addPool_removePool_onlyOwner() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        router.addPool(address(pool));
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        router.removePool(address(pool));
        vm.stopPrank();
    }

    function test_removePool_unlistsAndFreesThePair() public {
        (address t0, address t1) = pool.getTokens();
        vm.expectEmit(address(router));
        emit IAmmRouter.PoolRemoved(address(pool), t0, t1);
        vm.prank(owner);
        router.removePool(address(pool));
        address[] memory pools = router.getPools();
        assertEq(pools.length, 1);
        assertEq(pools[0], address(stablePool));
        assertEq(router.getPoolForPair(address(whype), address(usdc)), address(0));

        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.PoolNotFound.selector, address(pool)));
        router.removePool(address(pool));

        // The pair can take a pool again.
        vm.prank(owner);
        router.addPool(address(pool));
        assertEq(router.getPoolForPair(address(usdc), address(whype)), address(pool));
    }

    function test_removePool_lastOne() public {
        vm.startPrank(owner);
        router.removePool(address(stablePool));
        router.removePool(address(pool));
        vm.stopPrank();
        assertEq(router.getPools().length, 0);
    }

    // ---------------------------------------------------------------- swaps and quotes

    function test_swap_pullsTradesAndPaysTheCaller() public {
        uint256 estimate = router.estimateSwap(address(usdc), address(whype), USDC_IN);
        assertEq(estimate, pool.estimateSwap(address(usdc), address(whype), USDC_IN));
        uint256 whypeBefore = whype.balanceOf(alice);
        uint256 usdcBefore = usdc.balanceOf(alice);

        vm.expectEmit(address(pool));
        emit IAmmPool.Swap(address(router), address(usdc), address(whype), USDC_IN, estimate, 30.5e6);
        vm.prank(alice);
        uint256 out = router.swap(address(usdc), address(whype), USDC_IN, estimate);

        assertEq(out, estimate);
        assertEq(whype.balanceOf(alice) - whypeBefore, out);
        assertEq(usdcBefore - usdc.balanceOf(alice), USDC_IN);
        assertEq(whype.balanceOf(address(router)), 0);
        assertEq(usdc.balanceOf(address(router)), 0);
        assertEq(usdc.allowance(address(router), address(pool)), 0);
    }

    function test_swapWithRef_accruesToTheCode() public {
        vm.expectEmit(address(pool));
        emit IAmmPool.SwapWithRef(
            address(router), address(usdc), address(whype), USDC_IN, 398.78e18, 30.5e6, REF, 30.5e6 * 3_000 / 10_000
        );
        vm.prank(alice);
        uint256 out = router.swap(address(usdc), address(whype), USDC_IN, 0, REF);
        assertEq(out, 398.78e18);
        (uint256 claimUsdc, uint256 claimWhype) = router.getRefClaimable(address(usdc), address(whype), REF);
        assertEq(claimUsdc, 30.5e6 * 3_000 / 10_000);
        assertEq(claimWhype, 0);
    }

    function test_swapWithRef_invalidCodeDoesNotBlock() public {
        vm.prank(alice);
        uint256 out = router.swap(address(usdc), address(whype), USDC_IN, 0, keccak256("nobody"));
        assertEq(out, 398.78e18);
    }

    function test_swap_revertsWithoutAPool() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.swap(address(whype), address(usdt), 1e18, 0);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(usdc), address(usdc)));
        router.swap(address(usdc), address(usdc), 1e6, 0, REF);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.estimateSwap(address(whype), address(usdt), 1e18);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.estimateSwapBatch(address(whype), address(usdt), new uint256[](1));
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.getReserves(address(whype), address(usdt));
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.getRefClaimable(address(whype), address(usdt), REF);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.NoPoolForPair.selector, address(whype), address(usdt)));
        router.claimRefFees(address(whype), address(usdt), REF);
    }

    function test_swap_revertsWithoutApproval() public {
        usdc.mint(bob, USDC_IN);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.TransferFailed.selector, address(usdc)));
        router.swap(address(usdc), address(whype), USDC_IN, 0);
    }

    function test_swap_bubblesPoolErrors() public {
        uint256 estimate = router.estimateSwap(address(usdc), address(whype), USDC_IN);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.SlippageExceeded.selector, estimate, estimate + 1));
        router.swap(address(usdc), address(whype), USDC_IN, estimate + 1);
        vm.prank(alice);
        vm.expectRevert(IAmmPool.ZeroAmount.selector);
        router.swap(address(usdc), address(whype), 0, 0);
    }

    function test_swap_refusesFeeOnTransferInput() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        vm.prank(owner);
        oracle.setPrice(address(fot), 1e18);
        AmmPool p = _newPool(address(fot), address(usdc));
        vm.prank(owner);
        router.addPool(address(p));
        fot.mint(alice, 10e18);
        vm.startPrank(alice);
        fot.approve(address(router), type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.FeeOnTransferNotSupported.selector, address(fot)));
        router.swap(address(fot), address(usdc), 10e18, 0);
        vm.stopPrank();
    }

    function test_swap_returnsFalseToken_revertsTransferFailed() public {
        ReturnsFalseToken falseToken = new ReturnsFalseToken();
        vm.prank(owner);
        oracle.setPrice(address(falseToken), 1e18);
        AmmPool p = _newPool(address(falseToken), address(usdc));
        vm.prank(owner);
        router.addPool(address(p));
        falseToken.mint(alice, 10e18);
        vm.startPrank(alice);
        falseToken.approve(address(router), type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(IAmmRouter.TransferFailed.selector, address(falseToken)));
        router.swap(address(falseToken), address(usdc), 10e18, 0);
        vm.stopPrank();
    }

    function test_estimateSwapBatch_isThePoolsBatch() public view {
        uint256[] memory amounts = new uint256[](3);
        amounts[0] = 1e6;
        amounts[1] = USDC_IN;
        amounts[2] = 300_000e6;
        uint256[] memory outs = router.estimateSwapBatch(address(usdc), address(whype), amounts);
        for (uint256 i; i < 3; ++i) {
            assertEq(outs[i], router.estimateSwap(address(usdc), address(whype), amounts[i]));
        }
    }

    function test_getReserves_inTheOrderGiven() public view {
        (uint256 rWhype, uint256 rUsdc) = router.getReserves(address(whype), address(usdc));
        assertEq(rWhype, WHYPE_LIQUIDITY);
        assertEq(rUsdc, USDC_LIQUIDITY);
        (rUsdc, rWhype) = router.getReserves(address(usdc), address(whype));
        assertEq(rWhype, WHYPE_LIQUIDITY);
        assertEq(rUsdc, USDC_LIQUIDITY);
    }

    /// @notice RouterV2's `core` branch: verify the pool with getPoolForPair, approve it and call its swap; the
    /// pool pays the caller (msg.sender).
    function test_directPoolSwap_asRouterV2Will() public {
        CoreSourceCaller caller = new CoreSourceCaller();
        usdc.mint(address(caller), 2 * USDC_IN);
        uint256 estimate = router.estimateSwap(address(usdc), address(whype), USDC_IN);
        uint256 out = caller.swapVia(router, address(pool), address(usdc), address(whype), USDC_IN, estimate, 0);
        assertEq(out, estimate);
        assertEq(whype.balanceOf(address(caller)), out);
        assertEq(usdc.allowance(address(caller), address(pool)), 0);

        caller.swapVia(router, address(pool), address(usdc), address(whype), USDC_IN, 0, REF);
        (uint256 claimUsdc,) = router.getRefClaimable(address(usdc), address(whype), REF);
        assertGt(claimUsdc, 0);

        vm.expectRevert(abi.encodeWithSelector(CoreSourceCaller.PoolNotVouched.selector, address(stablePool)));
        caller.swapVia(router, address(stablePool), address(usdc), address(whype), 1, 0, 0);
    }

    // ---------------------------------------------------------------- referral fees

    function _accrue() internal {
        vm.startPrank(alice);
        router.swap(address(usdc), address(whype), USDC_IN, 0, REF);
        router.swap(address(whype), address(usdc), 400e18, 0, REF);
        router.swap(address(usdt), address(usdc), USDC_IN, 0, REF);
        vm.stopPrank();
    }

    function test_getRefClaimable_inTheOrderGiven() public {
        _accrue();
        (uint256 a, uint256 b) = router.getRefClaimable(address(usdc), address(whype), REF);
        (uint256 c, uint256 d) = router.getRefClaimable(address(whype), address(usdc), REF);
        assertEq(a, d);
        assertEq(b, c);
        assertGt(a, 0);
        assertGt(b, 0);
        bytes32 unknown = keccak256("nobody");
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.InvalidRefCode.selector, unknown));
        router.getRefClaimable(address(usdc), address(whype), unknown);
    }

    function test_claimRefFees_paysTheClaimWalletOnly() public {
        _accrue();
        (uint256 claimUsdc, uint256 claimWhype) = router.getRefClaimable(address(usdc), address(whype), REF);

        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.UnauthorizedRefCodeClaim.selector, REF, alice));
        router.claimRefFees(address(usdc), address(whype), REF);

        vm.prank(refWallet);
        (uint256 a, uint256 b) = router.claimRefFees(address(usdc), address(whype), REF);
        assertEq(a, claimUsdc);
        assertEq(b, claimWhype);
        assertEq(usdc.balanceOf(refWallet), claimUsdc);
        assertEq(whype.balanceOf(refWallet), claimWhype);
        assertEq(usdc.balanceOf(address(router)), 0);
    }

    function test_claimRefFees_respectsTheLock() public {
        _accrue();
        address newWallet = makeAddr("newWallet");
        vm.prank(owner);
        registry.setClaimWallet(REF, newWallet);
        vm.prank(newWallet);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.RefCodeClaimLocked.selector, REF, block.timestamp + CLAIM_LOCK));
        router.claimRefFees(address(usdc), address(whype), REF);
    }

    function test_distributeRefFees_paysEveryPoolAndCode() public {
        bytes32 second = keccak256("beta");
        address secondWallet = makeAddr("secondWallet");
        vm.prank(owner);
        registry.registerRefCode(second, secondWallet);
        _accrue();
        vm.prank(alice);
        router.swap(address(usdc), address(usdt), USDC_IN, 0, second);

        (uint256 refUsdc, uint256 refWhype) = router.getRefClaimable(address(usdc), address(whype), REF);
        (uint256 refUsdt, uint256 refUsdc2) = router.getRefClaimable(address(usdt), address(usdc), REF);
        (, uint256 secondUsdc) = router.getRefClaimable(address(usdt), address(usdc), second);
        assertGt(refUsdt, 0);
        assertEq(refUsdc2, 0);

        (uint256 e0, uint256 e1) = address(whype) < address(usdc) ? (refWhype, refUsdc) : (refUsdc, refWhype);
        vm.expectEmit(address(router));
        emit IAmmRouter.RefFeesDistributed(address(pool), REF, refWallet, e0, e1);
        vm.prank(bob);
        router.distributeRefFees();

        assertEq(usdc.balanceOf(refWallet), refUsdc);
        assertEq(whype.balanceOf(refWallet), refWhype);
        assertEq(usdt.balanceOf(refWallet), refUsdt);
        assertEq(usdc.balanceOf(secondWallet), secondUsdc);
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        assertEq(t0 + t1, 0);
        (t0, t1) = stablePool.totalRefClaimable();
        assertEq(t0 + t1, 0);
    }

    function test_distributeRefFees_skipsLockedAndRevokedCodes() public {
        bytes32 revoked = keccak256("gamma");
        address revokedWallet = makeAddr("revokedWallet");
        vm.prank(owner);
        registry.registerRefCode(revoked, revokedWallet);
        _accrue();
        vm.prank(alice);
        router.swap(address(usdc), address(whype), USDC_IN, 0, revoked);
        address newWallet = makeAddr("newWallet");
        vm.startPrank(owner);
        registry.revokeRefCode(revoked);
        registry.setClaimWallet(REF, newWallet);
        vm.stopPrank();

        router.distributeRefFees();
        assertEq(usdc.balanceOf(newWallet), 0, "locked code skipped");
        assertEq(usdc.balanceOf(refWallet), 0, "old wallet never paid");
        assertEq(usdc.balanceOf(revokedWallet), 0, "revoked code skipped");

        vm.warp(block.timestamp + CLAIM_LOCK);
        router.distributeRefFees();
        assertGt(usdc.balanceOf(newWallet), 0, "paid once unlocked");
        // The revoked code's accrual stays claimable by its wallet.
        vm.prank(revokedWallet);
        router.claimRefFees(address(usdc), address(whype), revoked);
        assertGt(usdc.balanceOf(revokedWallet), 0);
    }

    function test_distributeRefFees_bounded() public {
        bytes32 second = keccak256("beta");
        address secondWallet = makeAddr("secondWallet");
        vm.prank(owner);
        registry.registerRefCode(second, secondWallet);
        _accrue();
        vm.prank(alice);
        router.swap(address(usdc), address(whype), USDC_IN, 0, second);

        router.distributeRefFees(1, 1);
        assertGt(usdc.balanceOf(secondWallet), 0);
        assertEq(usdc.balanceOf(refWallet), 0);

        router.distributeRefFees(5, 10); // past the end: nothing
        router.distributeRefFees(0, type(uint256).max);
        assertGt(usdc.balanceOf(refWallet), 0);
    }

    function test_distributeRefFees_reportsAFailingPoolAndGoesOn() public {
        FreezableToken frz = new FreezableToken();
        vm.prank(owner);
        oracle.setPrice(address(frz), 1e18);
        AmmPool frozenPool = _newPool(address(frz), address(usdc));
        frz.mint(owner, 100_000e18);
        usdc.mint(owner, 100_000e6);
        vm.startPrank(owner);
        frz.approve(address(frozenPool), type(uint256).max);
        usdc.approve(address(frozenPool), type(uint256).max);
        uint256 frzAmount = 100_000e18;
        uint256 usdcAmount = 100_000e6;
        (uint256 a0, uint256 a1) = address(frz) < address(usdc) ? (frzAmount, usdcAmount) : (usdcAmount, frzAmount);
        frozenPool.addLiquidity(a0, a1);
        router.addPool(address(frozenPool));
        vm.stopPrank();
        frz.mint(alice, 1_000e18);
        vm.startPrank(alice);
        frz.approve(address(router), type(uint256).max);
        router.swap(address(frz), address(usdc), 1_000e18, 0, REF);
        vm.stopPrank();
        _accrue();

        frz.setFrozen(true);
        vm.expectEmit(address(router));
        emit IAmmRouter.RefFeesDistributionFailed(
            address(frozenPool), REF, abi.encodeWithSelector(IAmmPool.TransferFailed.selector, address(frz))
        );
        router.distributeRefFees();
        assertGt(usdt.balanceOf(refWallet), 0, "the other pools still paid");
        assertEq(frz.balanceOf(refWallet), 0);
        (uint256 c0, uint256 c1) = router.getRefClaimable(address(frz), address(usdc), REF);
        assertGt(c0 + c1, 0, "the failed pool kept the accrual");
    }
}
