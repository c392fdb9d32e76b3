// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IRouterV2} from "../interfaces/IRouterV2.sol";

/// @title FeeMath
/// @notice The router's split of a gross output into the user's amount, the integrator fee, the protocol's share
/// and captured positive slippage. It is the on-chain twin of `splitOutput` in the fee-math library and must
/// stay identical to it: every share is `amount * bps / 10000` rounded down, and the parts sum to the whole.
library FeeMath {
    /// @notice The basis-point denominator.
    uint256 internal constant BPS = 10_000;

    /// @notice The largest integrator fee: 100 bps (1%).
    uint256 internal constant MAX_FEE_BPS = 100;

    /// @notice The integrator's share of the fee, in bps of the fee: 97.5%.
    uint256 internal constant INTEGRATOR_SHARE_BPS = 9_750;

    /// @notice The captured share of positive slippage: 50%.
    uint256 internal constant SLIPPAGE_CAPTURE_BPS = 5_000;

    /// @notice A gross output split into its parts; field for field the `FeeSplit` of `splitOutput`.
    /// @param userAmount What the user receives.
    /// @param integratorFee The fee recipient's share of the fee.
    /// @param protocolFee Everything the protocol receives: its share of the fee plus `protocolSlippage`.
    /// @param positiveSlippage The output above the expected amount (both after the fee), before the split.
    /// @param recipientSlippage The captured slippage paid to the fee recipient.
    /// @param protocolSlippage The captured slippage paid to the protocol.
    struct Split {
        uint256 userAmount;
        uint256 integratorFee;
        uint256 protocolFee;
        uint256 positiveSlippage;
        uint256 recipientSlippage;
        uint256 protocolSlippage;
    }

    /// @notice Reverts unless `feeBps` is at most `MAX_FEE_BPS` and a fee comes with a recipient.
    /// @param feeBps The integrator fee in bps.
    /// @param hasFeeRecipient Whether a fee recipient is set.
    function checkFee(uint256 feeBps, bool hasFeeRecipient) internal pure {
        if (feeBps > MAX_FEE_BPS) revert IRouterV2.FeeTooHigh(feeBps, MAX_FEE_BPS);
        if (feeBps > 0 && !hasFeeRecipient) revert IRouterV2.FeeRecipientRequired();
    }

    /// @notice `amount * bps / 10000` rounded down, for any `amount` (no intermediate overflow).
    /// @param amount The amount.
    /// @param bps The share in bps.
    /// @return The share of `amount`.
    function bpsOf(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return Math.mulDiv(amount, bps, BPS);
    }

    /// @notice Splits a gross output as `splitOutput` does.
    /// @param grossAmountOut The output of the last hop.
    /// @param expectedAmountOut The quoted gross output; zero turns slippage capture off.
    /// @param feeBps The integrator fee in bps (at most `MAX_FEE_BPS`).
    /// @param hasFeeRecipient Whether a fee recipient is set.
    /// @return split The parts; `userAmount + integratorFee + protocolFee + recipientSlippage == grossAmountOut`.
    function splitOutput(uint256 grossAmountOut, uint256 expectedAmountOut, uint256 feeBps, bool hasFeeRecipient)
        internal
        pure
        returns (Split memory split)
    {
        checkFee(feeBps, hasFeeRecipient);
        // Nothing to split without a fee or an expected amount: every part below would be zero.
        if (feeBps == 0 && expectedAmountOut == 0) {
            split.userAmount = grossAmountOut;
            return split;
        }

        uint256 fee = bpsOf(grossAmountOut, feeBps);
        split.integratorFee = bpsOf(fee, INTEGRATOR_SHARE_BPS);
        uint256 afterFee;
        uint256 expectedAfterFee;
        // Cannot underflow: feeBps <= MAX_FEE_BPS < BPS, so fee <= grossAmountOut and the expected amount's fee
        // <= expectedAmountOut; INTEGRATOR_SHARE_BPS < BPS, so integratorFee <= fee.
        unchecked {
            split.protocolFee = fee - split.integratorFee;
            afterFee = grossAmountOut - fee;
            expectedAfterFee = expectedAmountOut - bpsOf(expectedAmountOut, feeBps);
        }

        if (expectedAmountOut > 0 && afterFee > expectedAfterFee) {
            // Cannot underflow: afterFee > expectedAfterFee.
            unchecked {
                split.positiveSlippage = afterFee - expectedAfterFee;
            }
        }
        uint256 captured = bpsOf(split.positiveSlippage, SLIPPAGE_CAPTURE_BPS);
        split.recipientSlippage = hasFeeRecipient ? captured / 2 : 0;
        // Cannot overflow or underflow: recipientSlippage <= captured <= positiveSlippage <= afterFee, and
        // protocolFee + captured <= fee + afterFee = grossAmountOut.
        unchecked {
            split.protocolSlippage = captured - split.recipientSlippage;
            split.protocolFee += split.protocolSlippage;
            split.userAmount = afterFee - captured;
        }
    }
}
