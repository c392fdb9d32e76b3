// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IAmmPool} from "../interfaces/IAmmPool.sol";

/// @title AmmMath
/// @notice The pricing of the oracle-priced pools: value at oracle prices, inventory weight, the dynamic fee
/// rate and the quote of a swap. Pure functions, so that `estimateSwap` and `swap` share them exactly.
/// @dev Scales: prices are USD per whole token, 1e18 fixed point; values are USD, 1e18 fixed point; weights
/// and fee rates are fractions, 1e18 = 100%. See IAmmPool for the fee formula and its bounds.
library AmmMath {
    /// @dev 100% as a weight or a fee rate.
    uint256 internal constant ONE = 1e18;

    /// @dev One basis point as a 1e18 rate.
    uint256 internal constant BPS_TO_E18 = 1e14;

    /// @notice What a quote reads from the pool and its oracle.
    /// @param reserve0 The reserve of token0.
    /// @param reserve1 The reserve of token1.
    /// @param price0 The USD price of one whole token0, 1e18 fixed point, not zero.
    /// @param price1 The USD price of one whole token1, 1e18 fixed point, not zero.
    /// @param unit0 10^decimals of token0.
    /// @param unit1 10^decimals of token1.
    struct State {
        uint256 reserve0;
        uint256 reserve1;
        uint256 price0;
        uint256 price1;
        uint256 unit0;
        uint256 unit1;
    }

    /// @notice The result of a quote.
    /// @param amountOut The output, rounded down.
    /// @param fee The fee in tokenIn, rounded up.
    /// @param feeRate The fee rate applied, 1e18 = 100%.
    struct Quote {
        uint256 amountOut;
        uint256 fee;
        uint256 feeRate;
    }

    /// @notice The USD value of `amount` base units of a token, rounded down.
    function value(uint256 amount, uint256 priceE18, uint256 unit) internal pure returns (uint256) {
        return Math.mulDiv(amount, priceE18, unit);
    }

    /// @notice The share of token0 in the total value, 1e18 = 100%; `target` when there is no value at all.
    function weight0(uint256 value0, uint256 value1, uint256 target) internal pure returns (uint256) {
        uint256 total = value0 + value1;
        return total == 0 ? target : Math.mulDiv(value0, ONE, total);
    }

    /// @notice The fee rate of a swap that moves the inventory weight from `wBefore` to `wAfter`: the marginal
    /// rate at the midpoint, baseFee +- slope * |midpoint - target| (plus when the swap's direction moves w away
    /// from the target, minus when toward it), clamped to [minFee, maxFee]. The adjustment rounds up when it
    /// adds to the fee and down when it subtracts, so the rate rounds in the pool's favour.
    /// @param params The pool's fee parameters.
    /// @param wBefore The weight before the swap.
    /// @param wAfter The weight after the swap (gross of the fee).
    /// @param token0In Whether the swap pays token0 in (which raises w).
    /// @return rate The fee rate, 1e18 = 100%.
    function feeRate(IAmmPool.FeeParams memory params, uint256 wBefore, uint256 wAfter, bool token0In)
        internal
        pure
        returns (uint256 rate)
    {
        // Cannot overflow: both weights are at most ONE.
        uint256 mid = (wBefore + wAfter) / 2;
        uint256 target = params.targetWeight0;
        bool away;
        uint256 distance;
        if (mid >= target) {
            distance = mid - target;
            away = token0In;
        } else {
            distance = target - mid;
            away = !token0In;
        }
        uint256 slope = uint256(params.slopeBps) * BPS_TO_E18;
        uint256 base = uint256(params.baseFeeBps) * BPS_TO_E18;
        if (away) {
            rate = base + Math.mulDiv(slope, distance, ONE, Math.Rounding.Ceil);
        } else {
            uint256 discount = Math.mulDiv(slope, distance, ONE);
            rate = base > discount ? base - discount : 0;
        }
        uint256 minRate = uint256(params.minFeeBps) * BPS_TO_E18;
        uint256 maxRate = uint256(params.maxFeeBps) * BPS_TO_E18;
        if (rate < minRate) rate = minRate;
        else if (rate > maxRate) rate = maxRate;
    }

    /// @notice The marginal fee rates of both directions at the current inventory.
    /// @return fee0In The rate of an infinitesimal swap paying token0 in.
    /// @return fee1In The rate of an infinitesimal swap paying token1 in.
    function marginalFeeRates(IAmmPool.FeeParams memory params, State memory state)
        internal
        pure
        returns (uint256 fee0In, uint256 fee1In)
    {
        uint256 w = inventoryWeight0(params, state);
        fee0In = feeRate(params, w, w, true);
        fee1In = feeRate(params, w, w, false);
    }

    /// @notice The inventory share of token0 in value at the oracle prices.
    function inventoryWeight0(IAmmPool.FeeParams memory params, State memory state) internal pure returns (uint256) {
        return weight0(
            value(state.reserve0, state.price0, state.unit0),
            value(state.reserve1, state.price1, state.unit1),
            params.targetWeight0
        );
    }

    /// @notice Quotes a swap of `amountIn`: its value at the oracle prices converted into the output token,
    /// less the dynamic fee taken from the input. Does not check the output against the reserve.
    /// @param params The pool's fee parameters.
    /// @param state Reserves, prices and units.
    /// @param token0In Whether token0 is paid in.
    /// @param amountIn The input, fee included.
    /// @return q The output, the fee and the rate.
    function quote(IAmmPool.FeeParams memory params, State memory state, bool token0In, uint256 amountIn)
        internal
        pure
        returns (Quote memory q)
    {
        (uint256 wBefore, uint256 wAfter) = weightsAround(params, state, token0In, amountIn);
        q.feeRate = feeRate(params, wBefore, wAfter, token0In);
        q.fee = Math.mulDiv(amountIn, q.feeRate, ONE, Math.Rounding.Ceil);
        // The pool caps the rate at MAX_FEE_BPS (5%), so the rounded-up fee is at most amountIn.
        q.amountOut = convert(state, token0In, amountIn - q.fee);
    }

    /// @notice The inventory weight of token0 before a swap of `amountIn` and after it, gross of the fee: at the
    /// oracle prices the gross output has the input's value, so the inventory gains that value on the input
    /// side and loses it (at most all it has) on the output side.
    function weightsAround(IAmmPool.FeeParams memory params, State memory state, bool token0In, uint256 amountIn)
        internal
        pure
        returns (uint256 wBefore, uint256 wAfter)
    {
        uint256 value0 = value(state.reserve0, state.price0, state.unit0);
        uint256 value1 = value(state.reserve1, state.price1, state.unit1);
        wBefore = weight0(value0, value1, params.targetWeight0);
        if (token0In) {
            uint256 valueIn = value(amountIn, state.price0, state.unit0);
            value0 += valueIn;
            value1 = value1 > valueIn ? value1 - valueIn : 0;
        } else {
            uint256 valueIn = value(amountIn, state.price1, state.unit1);
            value1 += valueIn;
            value0 = value0 > valueIn ? value0 - valueIn : 0;
        }
        wAfter = weight0(value0, value1, params.targetWeight0);
    }

    /// @notice `amount` of the input token converted at the oracle prices into the output token, rounded down
    /// once: amount * priceIn / unitIn (its value) * unitOut / priceOut. The products are bounded: prices are at
    /// most 1e36 (the pool's MAX_PRICE), units at most 1e18.
    function convert(State memory state, bool token0In, uint256 amount) internal pure returns (uint256) {
        return token0In
            ? Math.mulDiv(amount, state.price0 * state.unit1, state.price1 * state.unit0)
            : Math.mulDiv(amount, state.price1 * state.unit0, state.price0 * state.unit1);
    }
}
