// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchpadFixture} from "../fixtures/LaunchpadFixture.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {RouterV2} from "../../../src/router/RouterV2.sol";
import {IRouterV2} from "../../../src/router/interfaces/IRouterV2.sol";

/// @notice RouterV2's `launchpad` kind: buys and sells on bonding curves before graduation.
contract RouterV2LaunchpadTest is LaunchpadFixture {
    uint8 internal constant CURVES = 4;

    RouterV2 internal router;
    address internal token;
    address internal treasury;

    function setUp() public override {
        super.setUp();
        treasury = makeAddr("treasury");
        router = new RouterV2(owner, address(wrapped), treasury);
        router.setSource(CURVES, IRouterV2.SourceKind.Launchpad, address(launchpad), 100);
        token = _create(creator, 1 ether);
    }

    function _route(address tokenIn, address tokenOut, address pathIn, address pathOut, uint256 amountIn)
        internal
        view
        returns (address[] memory tokens, IRouterV2.Swap[][] memory hops)
    {
        tokens = new address[](2);
        tokens[0] = pathIn;
        tokens[1] = pathOut;
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = IRouterV2.Swap({
            pool: address(launchpad),
            tokenIn: tokenIn,
            tokenOut: tokenOut,
            routerIndex: CURVES,
            amountIn: amountIn,
            data: ""
        });
    }

    function test_buyWithNativeCoin_paysTheEstimate() public {
        uint256 value = 5 ether;
        uint256 quoted = launchpad.estimateBuy(token, value);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), token, address(0), token, value);
        vm.deal(alice, value);
        vm.prank(alice);
        uint256 out = router.executeSwaps{value: value}(tokens, value, quoted, quoted, hops, 0, address(0));
        assertEq(out, quoted);
        assertEq(LaunchpadToken(token).balanceOf(alice), quoted);
        assertEq(LaunchpadToken(token).balanceOf(address(router)), 0);
        assertEq(address(router).balance, 0);
        assertEq(wrapped.balanceOf(address(router)), 0);
    }

    function test_sellForNativeCoin_needsOnlyTheRoutersApproval() public {
        uint256 bought = _buy(alice, token, 3 ether);
        uint256 amount = bought / 2;
        uint256 quoted = launchpad.estimateSell(token, amount);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(token, address(wrapped), token, address(0), amount);
        vm.startPrank(alice);
        LaunchpadToken(token).approve(address(router), amount);
        uint256 before = alice.balance;
        uint256 out = router.executeSwaps(tokens, amount, quoted, quoted, hops, 0, address(0));
        vm.stopPrank();
        assertEq(out, quoted);
        assertEq(alice.balance - before, quoted);
        assertEq(LaunchpadToken(token).balanceOf(alice), bought - amount);
        assertEq(address(router).balance, 0);
        assertEq(wrapped.balanceOf(address(router)), 0);
    }

    function test_buyThatSellsOutTheCurve_refundsTheRestToTheCaller() public {
        // The pair is deployed, so the router's sell-out buy graduates the token in the same call.
        factory.createPair(token, address(wrapped));
        uint256 value = SELL_OUT;
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), token, address(0), token, value);
        vm.deal(alice, value);
        vm.prank(alice);
        uint256 out = router.executeSwaps{value: value}(tokens, value, 1, 0, hops, 0, address(0));
        assertEq(out, LaunchpadToken(token).balanceOf(alice));
        assertGt(alice.balance, 0);
        assertLt(alice.balance, value);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertEq(address(router).balance, 0);
        assertEq(wrapped.balanceOf(address(router)), 0);
    }

    function test_buyThatSellsOutTheCurve_withoutThePair_freezesTheCurve() public {
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), token, address(0), token, SELL_OUT);
        vm.deal(alice, SELL_OUT);
        vm.prank(alice);
        uint256 out = router.executeSwaps{value: SELL_OUT}(tokens, SELL_OUT, 1, 0, hops, 0, address(0));
        assertEq(out, LaunchpadToken(token).balanceOf(alice));
        assertEq(launchpad.getTokensForSale(token), 0);
        assertFalse(launchpad.getTokenState(token).graduated);
        (tokens, hops) = _route(address(wrapped), token, address(0), token, 1 ether);
        vm.deal(alice, 1 ether);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        router.executeSwaps{value: 1 ether}(tokens, 1 ether, 0, 0, hops, 0, address(0));
    }

    function test_revert_frozenCurveAfterGraduation() public {
        _graduate(bob, token);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), token, address(0), token, 1 ether);
        vm.deal(alice, 1 ether);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        router.executeSwaps{value: 1 ether}(tokens, 1 ether, 0, 0, hops, 0, address(0));
    }

    function test_revert_tokenNotFromTheLaunchpad() public {
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), address(factory), address(0), address(factory), 1 ether);
        vm.deal(alice, 1 ether);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, CURVES, address(launchpad)));
        router.executeSwaps{value: 1 ether}(tokens, 1 ether, 0, 0, hops, 0, address(0));
    }

    function test_revert_nativeCoinFromAnyoneElse() public {
        vm.deal(alice, 1 ether);
        vm.prank(alice);
        (bool ok,) = address(router).call{value: 1 ether}("");
        assertFalse(ok);
        vm.deal(address(launchpad), 1 ether);
        vm.prank(address(launchpad));
        (ok,) = address(router).call{value: 1 ether}("");
        assertFalse(ok);
    }

    function test_creatorCannotSellThroughTheRouterDuringTheLock() public {
        uint256 amount = LaunchpadToken(token).balanceOf(creator) / 2;
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(token, address(wrapped), token, address(0), amount);
        uint256 unlockTime = launchpad.getTokenMetadata(token).creationTimestamp + 1 hours;
        vm.startPrank(creator, creator);
        LaunchpadToken(token).approve(address(router), amount);
        // The router's pull of the creator's tokens is a transfer out of the creator's address: the token refuses it.
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.CreatorTokensLocked.selector, unlockTime));
        router.executeSwaps(tokens, amount, 0, 0, hops, 0, address(0));
        vm.warp(unlockTime - 1);
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.CreatorTokensLocked.selector, unlockTime));
        router.executeSwaps(tokens, amount, 0, 0, hops, 0, address(0));
        // From the unlock time on the same route sells.
        vm.warp(unlockTime);
        uint256 quoted = launchpad.estimateSell(token, amount);
        assertEq(router.executeSwaps(tokens, amount, 0, 0, hops, 0, address(0)), quoted);
        vm.stopPrank();
    }

    function testFuzz_buyThenSellThroughTheRouter_equalsTheEstimates(uint256 value) public {
        value = bound(value, 0.01 ether, 200 ether);
        uint256 quotedBuy = launchpad.estimateBuy(token, value);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(wrapped), token, address(0), token, value);
        vm.deal(alice, value);
        vm.prank(alice);
        assertEq(router.executeSwaps{value: value}(tokens, value, 0, 0, hops, 0, address(0)), quotedBuy);

        uint256 quotedSell = launchpad.estimateSell(token, quotedBuy);
        (tokens, hops) = _route(token, address(wrapped), token, address(0), quotedBuy);
        vm.startPrank(alice);
        LaunchpadToken(token).approve(address(router), quotedBuy);
        assertEq(router.executeSwaps(tokens, quotedBuy, 0, 0, hops, 0, address(0)), quotedSell);
        vm.stopPrank();
        assertLe(quotedSell, value);
        assertEq(address(router).balance, 0);
    }
}
