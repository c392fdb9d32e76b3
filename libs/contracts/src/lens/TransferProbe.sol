// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title TransferProbe
/// @notice Finds out how a token's transfers behave, in an `eth_call` only: the service places this runtime code
/// (a state override) at an account that holds the token, such as a pool, and at RouterV2's address, then calls
/// `probe` on the holder. It sends a tenth of its balance to the router and the router sends what arrived back,
/// each transfer measured as the receiver's balance change: a revert, a `false` answer or a fee taken shows in the
/// two steps. Never deployed.
contract TransferProbe {
    /// @notice The transfer went through and did not answer false.
    uint8 public constant OK = 0;
    /// @notice The transfer reverted.
    uint8 public constant REVERTED = 1;
    /// @notice The transfer answered something other than true (SafeERC20 treats it as failed).
    uint8 public constant RETURNED_FALSE = 2;
    /// @notice The holder had none of the token: nothing was tried.
    uint8 public constant NO_BALANCE = 3;

    /// @notice One transfer: its outcome, the amount sent, what the receiver's balance grew by, the revert data.
    struct Step {
        uint8 outcome;
        uint256 sent;
        uint256 received;
        bytes revertData;
    }

    /// @notice Sends a tenth of this account's balance of `token` to `next`, which (running this code too) sends
    /// what arrived back.
    /// @param token The token.
    /// @param next The second account (RouterV2's address).
    /// @return first The transfer from this account to `next`.
    /// @return second The transfer back, when the first delivered something.
    function probe(address token, address next) external returns (Step memory first, Step memory second) {
        return _probe(token, next, IERC20(token).balanceOf(address(this)) / 10);
    }

    /// @notice As `probe`, with `amount` (at most this account's balance) instead of a tenth of the balance: the
    /// amounts a route moves, for tokens whose transfers depend on the amount (a maximum transfer size).
    /// @param token The token.
    /// @param next The second account (RouterV2's address).
    /// @param amount The amount to send; the whole balance when it holds less.
    /// @return first The transfer from this account to `next`.
    /// @return second The transfer back, when the first delivered something.
    function probeAmount(address token, address next, uint256 amount)
        external
        returns (Step memory first, Step memory second)
    {
        uint256 balance = IERC20(token).balanceOf(address(this));
        return _probe(token, next, amount < balance ? amount : balance);
    }

    function _probe(address token, address next, uint256 amount)
        private
        returns (Step memory first, Step memory second)
    {
        if (amount == 0) {
            first.outcome = NO_BALANCE;
            return (first, second);
        }
        first = _send(token, next, amount);
        if (first.outcome != OK || first.received == 0) return (first, second);
        second = TransferProbe(next).forward(token, address(this), first.received);
    }

    /// @notice Sends `amount` of `token` to `to` and measures it.
    /// @param token The token.
    /// @param to The receiver.
    /// @param amount The amount.
    /// @return step The transfer.
    function forward(address token, address to, uint256 amount) external returns (Step memory step) {
        return _send(token, to, amount);
    }

    function _send(address token, address to, uint256 amount) private returns (Step memory step) {
        step.sent = amount;
        uint256 before = IERC20(token).balanceOf(to);
        (bool ok, bytes memory answer) = token.call(abi.encodeCall(IERC20.transfer, (to, amount)));
        if (!ok) {
            step.outcome = REVERTED;
            step.revertData = answer;
            return step;
        }
        // As SafeERC20: no answer is success (from a contract), otherwise the first word must be 1.
        if (answer.length != 0 && (answer.length < 32 || abi.decode(answer, (uint256)) != 1)) {
            step.outcome = RETURNED_FALSE;
        }
        uint256 afterwards = IERC20(token).balanceOf(to);
        step.received = afterwards > before ? afterwards - before : 0;
    }
}
