// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title RouteSimulator
/// @notice Executes a RouterV2 transaction in an `eth_call` only, as the payer of the route: the service places this
/// runtime code (a state override) at a payer account, gives that account the input (a balance override of the
/// native coin, or of the token's balance slot) and calls `simulate` on it. The payer approves the router for
/// exactly the input, sends the router the exact calldata of the answer and measures what the recipient's balance
/// of the output grew by. Never deployed.
contract RouteSimulator {
    /// @notice What the transaction did.
    /// @param approved The approval call did not revert (false too where none was made).
    /// @param ok The router's call returned (did not revert).
    /// @param userAmountOut What the router returned (its own measure of what the recipient received).
    /// @param received What the recipient's balance of the output grew by, measured here.
    /// @param gasUsed The gas the router's call used.
    /// @param balance The payer's balance of the input before the call (to check the input was there).
    /// @param revertData The router's revert data when it reverted.
    struct Outcome {
        bool approved;
        bool ok;
        uint256 userAmountOut;
        uint256 received;
        uint256 gasUsed;
        uint256 balance;
        bytes revertData;
    }

    /// @notice Accepts the native coin a route that unwraps pays its recipient.
    receive() external payable {}

    /// @notice EIP-1271: every signature is this account's, so a route signed through Permit2 goes through
    /// Permit2's signature check as the payer's (the payer has this code only inside the `eth_call`).
    function isValidSignature(bytes32, bytes calldata) external pure returns (bytes4) {
        return this.isValidSignature.selector;
    }

    /// @notice Approves `spender` for `amountIn` of `tokenIn` (when `approve`), sends `router` `data` with the native
    /// `amountIn` as value for a native input (`tokenIn` zero), and measures `recipient`'s balance of `tokenOut`
    /// (the native coin for zero) before and after.
    /// @param router The contract the transaction is sent to: RouterV2, or RouterV2Permit2 for a signed route.
    /// @param spender Who takes the input: RouterV2, or Permit2 for a signed route.
    /// @param tokenIn The input token, or zero for the native coin.
    /// @param amountIn The input the calldata spends.
    /// @param tokenOut The output token as paid, or zero for the native coin.
    /// @param recipient Who the route pays (this account for `executeSwaps`).
    /// @param approve Whether to approve the router first (false where the payer's real allowance is to be used).
    /// @param data The calldata.
    /// @return outcome What happened.
    function simulate(
        address router,
        address spender,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        address recipient,
        bool approve,
        bytes calldata data
    ) external returns (Outcome memory outcome) {
        uint256 value;
        if (tokenIn == address(0)) {
            value = amountIn;
            outcome.balance = address(this).balance;
        } else {
            outcome.balance = IERC20(tokenIn).balanceOf(address(this));
            // Kept, not required: tokens without a return value approve all the same, and a failed approval
            // shows as the call's revert.
            if (approve) (outcome.approved,) = tokenIn.call(abi.encodeCall(IERC20.approve, (spender, amountIn)));
        }
        uint256 before = _balanceOf(tokenOut, recipient);
        uint256 gasBefore = gasleft();
        (bool ok, bytes memory answer) = router.call{value: value}(data);
        outcome.gasUsed = gasBefore - gasleft();
        if (!ok) {
            outcome.revertData = answer;
            return outcome;
        }
        outcome.ok = true;
        if (answer.length >= 32) outcome.userAmountOut = abi.decode(answer, (uint256));
        uint256 afterwards = _balanceOf(tokenOut, recipient);
        outcome.received = afterwards > before ? afterwards - before : 0;
    }

    function _balanceOf(address token, address owner) private view returns (uint256) {
        if (token == address(0)) return owner.balance;
        return IERC20(token).balanceOf(owner);
    }
}
