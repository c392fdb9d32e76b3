// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {RouterFixture} from "../router/RouterFixture.sol";
import {RouterV2Handler} from "../router/RouterV2Handler.sol";

contract RouterV2InvariantTest is RouterFixture {
    RouterV2Handler internal handler;

    function setUp() public override {
        super.setUp();
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
    /// suite fast): the router holds nothing, the payouts sum exactly to the gross output as previewFees splits
    /// it, and every call paid at least minAmountOut or reverted with InsufficientOutput.
    function invariant_routerV2() public view {
        _assertRouterHoldsNothing();
        _assertFeePartsSumExactly();
        _assertMinimumOrRevert();
    }

    /// @dev The router holds none of any token and no native coin.
    function _assertRouterHoldsNothing() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), 0, "router holds token A");
        assertEq(tokenB.balanceOf(r), 0, "router holds token B");
        assertEq(tokenC.balanceOf(r), 0, "router holds token C");
        assertEq(usdc.balanceOf(r), 0, "router holds USDC");
        assertEq(dai.balanceOf(r), 0, "router holds DAI");
        assertEq(wnative.balanceOf(r), 0, "router holds wrapped native");
        assertEq(r.balance, 0, "router holds native coin");
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
    }
}
