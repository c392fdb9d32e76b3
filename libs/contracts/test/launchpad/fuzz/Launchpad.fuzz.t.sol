// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchpadFixture} from "../fixtures/LaunchpadFixture.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {BondingCurve} from "../../../src/launchpad/libraries/BondingCurve.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

contract LaunchpadFuzzTest is LaunchpadFixture {
    /// @dev A curve with the creator's purchase of `pre` native coin (below the sell-out; none when tiny).
    function _token(uint256 pre) internal returns (address) {
        pre = bound(pre, 0, 590 ether);
        return _create(creator, pre < 1e9 ? 0 : pre);
    }

    function _k(address token) internal view returns (uint256) {
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        return x * y;
    }

    /// @notice estimateBuy is what buyTokens gives, to the unit, and the native coin spent is the whole value
    /// unless the curve sells out.
    function testFuzz_estimateBuyEqualsExecution(uint256 pre, uint256 value) public {
        address token = _token(pre);
        value = bound(value, 1, 2000 ether);
        uint256 estimate = launchpad.estimateBuy(token, value);
        uint256 forSale = launchpad.getTokensForSale(token);
        vm.deal(alice, value);
        if (estimate == 0) {
            vm.prank(alice);
            vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenPurchaseFailed.selector, value));
            launchpad.buyTokens{value: value}(token);
            return;
        }
        vm.prank(alice);
        launchpad.buyTokens{value: value}(token);
        assertEq(LaunchpadToken(token).balanceOf(alice), estimate);
        if (estimate < forSale) assertEq(alice.balance, 0);
        else assertEq(estimate, forSale);
    }

    /// @notice estimateSell is what sellTokens pays, to the wei.
    function testFuzz_estimateSellEqualsExecution(uint256 pre, uint256 value, uint256 amount) public {
        address token = _token(bound(pre, 0, 300 ether));
        uint256 bought = _buy(alice, token, bound(value, 0.001 ether, 250 ether));
        amount = bound(amount, 1, bought);
        uint256 estimate = launchpad.estimateSell(token, amount);
        assertEq(_sell(alice, token, amount), estimate);
    }

    /// @notice Rounding never favours the trader: buying then selling everything returns less than was paid,
    /// whether sold at once or in pieces, and the fees are never less than 1% each way.
    function testFuzz_buyThenSellNeverProfits(uint256 pre, uint256 value, uint8 pieces) public {
        address token = _token(bound(pre, 0, 300 ether));
        value = bound(value, 1e9, 250 ether);
        uint256 bought = _buy(alice, token, value);
        uint256 n = bound(pieces, 1, 8);
        uint256 out;
        for (uint256 i; i < n; ++i) {
            uint256 amount = i == n - 1 ? LaunchpadToken(token).balanceOf(alice) : bought / n;
            if (amount == 0) continue;
            out += _sell(alice, token, amount);
        }
        assertEq(LaunchpadToken(token).balanceOf(alice), 0);
        assertLt(out, value);
        // Round trip at least 1% in and 1% out.
        assertLe(out, value * 99 / 100 * 99 / 100 + 1);
    }

    /// @notice Splitting a buy never buys more tokens than one buy of the total.
    function testFuzz_splitBuyNeverBeatsOneBuy(uint256 pre, uint256 a, uint256 b) public {
        address token = _token(bound(pre, 0, 300 ether));
        a = bound(a, 1e9, 100 ether);
        b = bound(b, 1e9, 100 ether);
        uint256 whole = launchpad.estimateBuy(token, a + b);
        uint256 split = _buy(alice, token, a);
        split += _buy(alice, token, b);
        assertLe(split, whole);
    }

    /// @notice The buy that sells out the curve takes exactly the rest, spends the least native coin that pays
    /// for it, refunds the remainder and graduates the token: in the same call when its pair is deployed, else
    /// through `graduate`.
    function testFuzz_partialFillAtSellOut(uint256 pre, uint256 value, bool pairDeployed) public {
        address token = _token(pre);
        if (pairDeployed) factory.createPair(token, address(wrapped));
        value = bound(value, 610 ether, 100_000 ether);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        uint256 forSale = launchpad.getTokensForSale(token);
        uint256 netNeeded = (x * y + Y_END - 1) / Y_END - x;
        uint256 gross = BondingCurve.grossForNet(netNeeded);

        assertEq(launchpad.estimateBuy(token, value), forSale);
        vm.deal(alice, value);
        vm.prank(alice);
        launchpad.buyTokens{value: value}(token);
        assertEq(LaunchpadToken(token).balanceOf(alice), forSale);
        assertEq(alice.balance, value - gross);
        assertEq(launchpad.getTokenState(token).graduated, pairDeployed);
        if (!pairDeployed) launchpad.graduate(token);
        assertTrue(launchpad.getTokenState(token).graduated);
        // Minimal: one wei less would not have paid for the rest.
        assertLt(gross - 1 - _fee(gross - 1), netNeeded);
        // Everything raised went to the pool; only fees remain here.
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees());
        UniswapV2Pair pair = UniswapV2Pair(launchpad.getTokenState(token).pair);
        assertEq(wrapped.balanceOf(address(pair)), x + gross - _fee(gross) - V);
        assertEq(LaunchpadToken(token).balanceOf(address(pair)), RESERVED);
    }

    /// @notice The product of the curve's reserves never decreases, through any sequence of trades.
    function testFuzz_kNeverDecreases(uint256 pre, uint256[6] memory amounts) public {
        address token = _token(bound(pre, 0, 300 ether));
        uint256 k = _k(token);
        for (uint256 i; i < amounts.length; ++i) {
            if (i % 2 == 0) {
                uint256 value = bound(amounts[i], 1e6, 40 ether);
                if (launchpad.estimateBuy(token, value) == 0) continue;
                _buy(alice, token, value);
            } else {
                uint256 balance = LaunchpadToken(token).balanceOf(alice);
                if (balance == 0) continue;
                _sell(alice, token, bound(amounts[i], 1, balance));
            }
            uint256 next = _k(token);
            assertGe(next, k);
            k = next;
        }
    }

    /// @notice grossForNet is the least gross amount whose net of the fee covers `net`.
    function testFuzz_grossForNet(uint256 net) public pure {
        net = bound(net, 1, 1e30);
        uint256 gross = BondingCurve.grossForNet(net);
        assertGe(gross - BondingCurve.feeOf(gross), net);
        assertLt(gross - 1 - BondingCurve.feeOf(gross - 1), net);
    }

    /// @notice The buy quote never spends more than offered and never leaves the curve below its floor.
    function testFuzz_quoteBuyBounds(uint256 x, uint256 y, uint256 value) public pure {
        x = bound(x, V, 2000 ether);
        y = bound(y, Y_END, Y0);
        value = bound(value, 1, 1e24);
        BondingCurve.Buy memory buy = BondingCurve.quoteBuy(x, y, Y_END, value);
        assertLe(buy.hypeUsed, value);
        assertGe(buy.newTokenReserve, Y_END);
        assertEq(buy.tokensOut, y - buy.newTokenReserve);
        assertGe(buy.newHypeReserve * buy.newTokenReserve, x * y);
        assertEq(buy.fee, BondingCurve.feeOf(buy.hypeUsed));
    }
}
