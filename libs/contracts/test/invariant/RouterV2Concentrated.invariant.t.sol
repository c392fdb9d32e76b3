// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ConcentratedFixture} from "../router/ConcentratedFixture.sol";
import {ConcentratedRouteHandler} from "./handlers/ConcentratedRouteHandler.sol";

/// @notice Random sequences of routes through the real V3 and Algebra pools (and a V2 pair) by several actors,
/// while the router holds tokens a third party sent it: after every call the router holds exactly that (no route
/// leaves anything behind or spends it), and nothing reverts but a pool running out of liquidity.
contract RouterV2ConcentratedInvariantTest is ConcentratedFixture {
    uint256 internal constant DONATION = 5 ether;

    ConcentratedRouteHandler internal handler;

    function setUp() public override {
        super.setUp();
        _fund(address(tokenA), address(router), DONATION);
        _fund(address(tokenB), address(router), DONATION);
        _fund(address(tokenC), address(router), DONATION);
        handler = new ConcentratedRouteHandler(
            ConcentratedRouteHandler.Deployment({
                router: router,
                tokenA: tokenA,
                tokenB: tokenB,
                tokenC: tokenC,
                v3AB: v3AB,
                v3BC: v3BC,
                algebraAB: algebraAB,
                algebraBC: algebraBC,
                realPairAB: realPairAB,
                v3Slot: V3,
                algebraSlot: ALGEBRA,
                v2Slot: V2_REAL
            }),
            3
        );
        // The handler mints the actors' inputs.
        tokenA.transferOwnership(address(handler));
        tokenB.transferOwnership(address(handler));
        tokenC.transferOwnership(address(handler));

        bytes4[] memory selectors = new bytes4[](1);
        selectors[0] = ConcentratedRouteHandler.swap.selector;
        targetContract(address(handler));
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    /// @notice The router holds exactly the donations after every call; no call reverted unexpectedly.
    function invariant_routerHoldsNothingOfItsOwn() public view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), DONATION, "router's A changed");
        assertEq(tokenB.balanceOf(r), DONATION, "router's B changed");
        assertEq(tokenC.balanceOf(r), DONATION, "router's C changed");
        assertEq(wnative.balanceOf(r), 0, "router holds WHYPE");
        assertEq(r.balance, 0, "router holds native coin");
        assertEq(handler.ghostUnexpectedReverts(), 0, "unexpected revert");
    }

    /// @notice Each run really traded.
    function afterInvariant() public view {
        assertGt(handler.ghostSwaps(), 0, "no swap executed");
    }
}
