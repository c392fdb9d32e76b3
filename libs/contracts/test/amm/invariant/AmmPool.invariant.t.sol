// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AmmFixture} from "../fixtures/AmmFixture.sol";
import {AmmHandler} from "./handlers/AmmHandler.sol";

contract AmmInvariantTest is AmmFixture {
    AmmHandler internal handler;

    function setUp() public override {
        super.setUp();
        bytes32[] memory codes = new bytes32[](4);
        codes[0] = REF;
        codes[1] = keccak256("beta");
        codes[2] = keccak256("revoked");
        codes[3] = keccak256("unregistered");
        address[] memory wallets = new address[](4);
        wallets[0] = refWallet;
        wallets[1] = makeAddr("betaWallet");
        wallets[2] = makeAddr("revokedWallet");
        wallets[3] = makeAddr("spareWallet");
        vm.startPrank(owner);
        registry.registerRefCode(codes[1], wallets[1]);
        registry.registerRefCode(codes[2], wallets[2]);
        registry.revokeRefCode(codes[2]);
        vm.stopPrank();

        handler = new AmmHandler(pool, router, registry, oracle, whype, usdc, owner, treasury, codes, wallets);
        whype.transferOwnership(address(handler));
        usdc.transferOwnership(address(handler));

        bytes4[] memory selectors = new bytes4[](7);
        selectors[0] = AmmHandler.swap.selector;
        selectors[1] = AmmHandler.updatePrices.selector;
        selectors[2] = AmmHandler.warp.selector;
        selectors[3] = AmmHandler.claim.selector;
        selectors[4] = AmmHandler.distribute.selector;
        selectors[5] = AmmHandler.changeClaimWallet.selector;
        selectors[6] = AmmHandler.claimProtocolFees.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    // Each invariant function is a campaign of its own (64 runs x 32 calls); the checks are grouped into two
    // to keep the suite fast, with a message per check.

    /// @notice Accounting: per token, balance >= reserve + protocol fees + all referral claimables (here exactly
    /// equal: no one donates to the pool); the aggregate referral claimable is the sum of every code's; the
    /// router keeps no tokens or allowances.
    function invariant_accounting() public view {
        assertTrue(_surplus(pool, address(whype)) >= 0, "WHYPE balance < owed");
        assertTrue(_surplus(pool, address(usdc)) >= 0, "USDC balance < owed");
        assertEq(_surplus(pool, address(whype)), 0, "WHYPE accounting drifted");
        assertEq(_surplus(pool, address(usdc)), 0, "USDC accounting drifted");

        bytes32[] memory codes = handler.codes();
        uint256 sum0;
        uint256 sum1;
        for (uint256 i; i < codes.length; ++i) {
            if (!registry.isRegistered(codes[i])) continue;
            (uint256 c0, uint256 c1) = pool.getRefClaimable(codes[i]);
            sum0 += c0;
            sum1 += c1;
        }
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        assertEq(t0, sum0, "token0 total referral claimable != sum of codes");
        assertEq(t1, sum1, "token1 total referral claimable != sum of codes");

        assertEq(whype.balanceOf(address(router)), 0, "router holds WHYPE");
        assertEq(usdc.balanceOf(address(router)), 0, "router holds USDC");
        assertEq(usdc.allowance(address(router), address(pool)), 0, "router left a USDC allowance");
        assertEq(whype.allowance(address(router), address(pool)), 0, "router left a WHYPE allowance");
    }

    /// @notice Safety: no swap succeeded on a stale price; every swap paid exactly its same-state estimate;
    /// referral fees were claimed only by the code's claim wallet and paid only to claim wallets (what the claim
    /// wallets hold is exactly what was paid out as referral fees).
    function invariant_safety() public view {
        assertEq(handler.ghostStaleSwaps(), 0, "a swap succeeded on a stale price");
        assertEq(handler.ghostEstimateMismatches(), 0, "a swap paid other than its estimate");
        assertEq(handler.ghostUnauthorizedClaims(), 0, "a claim succeeded for another caller");
        assertEq(handler.ghostMisdirectedPayouts(), 0, "referral fees left the pool to someone else");
        address[] memory wallets = handler.wallets();
        uint256 heldWhype;
        uint256 heldUsdc;
        for (uint256 i; i < wallets.length; ++i) {
            heldWhype += whype.balanceOf(wallets[i]);
            heldUsdc += usdc.balanceOf(wallets[i]);
        }
        assertEq(heldWhype, handler.ghostRefPaid(address(whype)), "WHYPE reached a claim wallet otherwise");
        assertEq(heldUsdc, handler.ghostRefPaid(address(usdc)), "USDC reached a claim wallet otherwise");
    }
}
