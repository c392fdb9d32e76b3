// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/// @title IWrappedNative
/// @notice A WETH9-compatible ERC20 wrapper of the chain's native coin (HYPE on 999, ETH on 4663), 1:1 and
/// with 18 decimals. An allowance of `type(uint256).max` is never decremented.
interface IWrappedNative is IERC20Metadata {
    /// @notice An account tried to move or unwrap more than it holds.
    /// @param account The account whose balance was short.
    /// @param balance Its balance.
    /// @param needed The amount asked for.
    error InsufficientBalance(address account, uint256 balance, uint256 needed);

    /// @notice A spender tried to move more than its allowance.
    /// @param owner The account whose tokens were to be moved.
    /// @param spender The caller.
    /// @param allowance The spender's allowance.
    /// @param needed The amount asked for.
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    /// @notice Sending the unwrapped native coin to the caller failed.
    /// @param to The recipient.
    /// @param amount The amount in wei.
    error NativeTransferFailed(address to, uint256 amount);

    /// @notice Native coin was wrapped.
    /// @param to The account credited.
    /// @param amount The amount in wei.
    event Deposit(address indexed to, uint256 amount);

    /// @notice Wrapped coin was unwrapped.
    /// @param from The account debited and paid.
    /// @param amount The amount in wei.
    event Withdrawal(address indexed from, uint256 amount);

    /// @notice Wraps `msg.value` for the caller. Plain transfers and calls with unknown data do the same.
    function deposit() external payable;

    /// @notice Unwraps `amount` of the caller's balance and sends it the native coin.
    /// @param amount The amount in wei.
    function withdraw(uint256 amount) external;
}
