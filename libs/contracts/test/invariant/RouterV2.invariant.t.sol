// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SplitRouteFixture} from "../router/SplitRouteFixture.sol";
import {RouterV2Handler} from "../router/RouterV2Handler.sol";

/// @notice Random routes, linear and split across paths, by several actors, while the router holds tokens and
/// native coin a third party sent it before the campaign: after every call the router holds exactly that, never
/// less (no route spends it) and never more (no route leaves anything behind).
contract RouterV2InvariantTest is SplitRouteFixture {
    /// @dev What a third party sent the router of each token, and of native coin, before the campaign.
    uint256 internal constant DONATION = 3 ether;

    RouterV2Handler internal handler;

    function setUp() public override {
        super.setUp();
        _fund(address(tokenA), address(router), DONATION);
        _fund(address(tokenB), address(router), DONATION);
        _fund(address(tokenC), address(router), DONATION);
        _fund(address(usdc), address(router), DONATION);
        _fund(address(dai), address(router), DONATION);
        _fund(address(wnative), address(router), DONATION);
        vm.deal(address(router), DONATION);
        handler = new RouterV2Handler(
            RouterV2Handler.Deployment({
                router: router,
                wnative: address(wnative),
                tokenA: tokenA,
                tokenB: tokenB,
                tokenC: tokenC,
                usdc: usdc,
                dai: dai,
                pairAB: pairAB,
                pairBC: pairBC,
                pairAW: pairAW,
                pairCUsdc: pairCUsdc,
                pairAB2: pairAB2,
                pairAW2: pairAW2,
                stableUsdcDai: stableUsdcDai,
                pairAC: pairAC,
                pairBUsdc: pairBUsdc,
                pairWB: pairWB,
                treasury: treasury
            }),
            4
        );
        // The handler mints the actors' inputs.
        tokenA.transferOwnership(address(handler));
        tokenB.transferOwnership(address(handler));
        tokenC.transferOwnership(address(handler));
        usdc.transferOwnership(address(handler));
        dai.transferOwnership(address(handler));

        bytes4[] memory selectors = new bytes4[](1);
        selectors[0] = RouterV2Handler.swap.selector;
        targetContract(address(handler));
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    /// @notice Checked after every call of one campaign (one campaign rather than one per property keeps the
    /// suite fast): the router holds exactly what it held before the campaign, the payouts sum exactly to the
    /// gross output as previewFees splits it, and every call paid at least minAmountOut or reverted with
    /// InsufficientOutput.
    function invariant_routerV2() public view {
        _assertRouterHoldsOnlyTheDonations();
        _assertFeePartsSumExactly();
        _assertMinimumOrRevert();
    }

    /// @dev The router holds what was sent it before the campaign, of every token and of native coin.
    function _assertRouterHoldsOnlyTheDonations() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), DONATION, "router's token A changed");
        assertEq(tokenB.balanceOf(r), DONATION, "router's token B changed");
        assertEq(tokenC.balanceOf(r), DONATION, "router's token C changed");
        assertEq(usdc.balanceOf(r), DONATION, "router's USDC changed");
        assertEq(dai.balanceOf(r), DONATION, "router's DAI changed");
        assertEq(wnative.balanceOf(r), DONATION, "router's wrapped native changed");
        assertEq(r.balance, DONATION, "router's native coin changed");
    }

    /// @dev The recipient, the fee recipient and the treasury together got exactly the gross output, split as
    /// previewFees splits it.
    function _assertFeePartsSumExactly() internal view {
        assertEq(handler.ghostSumMismatches(), 0, "payouts do not sum to the gross output");
        assertEq(handler.ghostSplitMismatches(), 0, "payouts differ from previewFees");
    }

    /// @dev Every call either paid the recipient at least minAmountOut or reverted with InsufficientOutput for an
    /// amount below it; nothing else reverted.
    function _assertMinimumOrRevert() internal view {
        assertEq(handler.ghostMinimumViolations(), 0, "paid below the minimum");
        assertEq(handler.ghostUnexpectedReverts(), 0, "unexpected revert");
    }

    /// @notice Each run really traded.
    function afterInvariant() public view {
        assertGt(handler.ghostSwaps(), 0, "no swap executed");
        assertGt(handler.ghostSplitPathSwaps(), 0, "no route split across paths");
    }
}
