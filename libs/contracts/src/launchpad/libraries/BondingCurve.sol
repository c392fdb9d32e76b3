// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title BondingCurve
/// @notice The launchpad's constant-product curve math on virtual reserves, with the 1% native-side fee.
/// Every result rounds in the curve's favour: the fee rounds up, the new reserve on the paid-out side rounds
/// up (so tokens out and native out round down), and the native coin needed for a partial fill rounds up.
/// Hence the product of the reserves never decreases.
library BondingCurve {
    /// @notice Basis-point denominator.
    uint256 internal constant BPS = 10_000;

    /// @notice The trading fee: 1% of the native coin in (buys) or out (sells).
    uint256 internal constant FEE_BPS = 100;

    /// @notice A buy's outcome.
    /// @param hypeUsed The native coin spent, fee included (less than the amount offered on a partial fill).
    /// @param fee The fee part of `hypeUsed`.
    /// @param tokensOut The tokens bought.
    /// @param newHypeReserve The virtual native reserve after the buy.
    /// @param newTokenReserve The virtual token reserve after the buy.
    struct Buy {
        uint256 hypeUsed;
        uint256 fee;
        uint256 tokensOut;
        uint256 newHypeReserve;
        uint256 newTokenReserve;
    }

    /// @notice A sale's outcome.
    /// @param grossOut The native coin leaving the curve (the seller's proceeds plus the fee).
    /// @param fee The fee part of `grossOut`.
    /// @param hypeOut The native coin paid to the seller.
    /// @param newHypeReserve The virtual native reserve after the sale.
    /// @param newTokenReserve The virtual token reserve after the sale.
    struct Sell {
        uint256 grossOut;
        uint256 fee;
        uint256 hypeOut;
        uint256 newHypeReserve;
        uint256 newTokenReserve;
    }

    /// @notice The fee on a native amount: 1%, rounded up.
    function feeOf(uint256 amount) internal pure returns (uint256) {
        return Math.ceilDiv(amount * FEE_BPS, BPS);
    }

    /// @notice Buys with `hypeIn` on the curve (x, y), which may not go below `tokenFloor` tokens: when
    /// `hypeIn` would take y below it, the buy takes exactly y - tokenFloor tokens and spends the least native
    /// coin that pays for them (the caller refunds the rest).
    /// @param hypeReserve The virtual native reserve x.
    /// @param tokenReserve The virtual token reserve y (>= tokenFloor).
    /// @param tokenFloor The token reserve at which the curve sells out.
    /// @param hypeIn The native coin offered, fee included.
    function quoteBuy(uint256 hypeReserve, uint256 tokenReserve, uint256 tokenFloor, uint256 hypeIn)
        internal
        pure
        returns (Buy memory buy)
    {
        uint256 k = hypeReserve * tokenReserve;
        uint256 fee = feeOf(hypeIn);
        // fee <= hypeIn because FEE_BPS < BPS (ceil of 1% of a number is at most the number).
        uint256 net = hypeIn - fee;
        uint256 newHype = hypeReserve + net;
        uint256 newToken = Math.ceilDiv(k, newHype);
        if (newToken >= tokenFloor) {
            buy.hypeUsed = hypeIn;
            buy.fee = fee;
            buy.newHypeReserve = newHype;
            buy.newTokenReserve = newToken;
            // newToken <= tokenReserve since newHype >= hypeReserve and ceil(k / x) = y when newHype = x.
            buy.tokensOut = tokenReserve - newToken;
            return buy;
        }
        // Partial fill: the curve sells out. The native reserve must reach ceil(k / tokenFloor).
        uint256 netNeeded = Math.ceilDiv(k, tokenFloor) - hypeReserve;
        uint256 gross = grossForNet(netNeeded);
        fee = feeOf(gross);
        buy.hypeUsed = gross;
        buy.fee = fee;
        buy.newHypeReserve = hypeReserve + (gross - fee);
        buy.newTokenReserve = tokenFloor;
        buy.tokensOut = tokenReserve - tokenFloor;
    }

    /// @notice The least native coin `g` whose net of fee, g - feeOf(g), is at least `net`.
    /// @dev g - feeOf(g) is nondecreasing in g. Below g0 = ceil(net * BPS / (BPS - FEE_BPS)) the net is
    /// below `net`; g0 + 1 always suffices, since g - feeOf(g) > g * (BPS - FEE_BPS) / BPS - 1.
    function grossForNet(uint256 net) internal pure returns (uint256 gross) {
        gross = Math.ceilDiv(net * BPS, BPS - FEE_BPS);
        if (gross - feeOf(gross) < net) ++gross;
    }

    /// @notice Sells `tokensIn` to the curve (x, y).
    /// @param hypeReserve The virtual native reserve x.
    /// @param tokenReserve The virtual token reserve y.
    /// @param tokensIn The tokens sold.
    function quoteSell(uint256 hypeReserve, uint256 tokenReserve, uint256 tokensIn)
        internal
        pure
        returns (Sell memory sell)
    {
        uint256 newToken = tokenReserve + tokensIn;
        uint256 newHype = Math.ceilDiv(hypeReserve * tokenReserve, newToken);
        // newHype <= hypeReserve because newToken >= tokenReserve.
        uint256 gross = hypeReserve - newHype;
        uint256 fee = feeOf(gross);
        sell.grossOut = gross;
        sell.fee = fee;
        sell.hypeOut = gross - fee;
        sell.newHypeReserve = newHype;
        sell.newTokenReserve = newToken;
    }

    /// @notice Native wei per whole token (10^6 base units) at reserves (x, y), rounded down.
    function price(uint256 hypeReserve, uint256 tokenReserve) internal pure returns (uint256) {
        return tokenReserve == 0 ? 0 : hypeReserve * 1e6 / tokenReserve;
    }
}
