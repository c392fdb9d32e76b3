// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IWrappedNative} from "./interfaces/IWrappedNative.sol";

/// @title WrappedNative
/// @notice WETH9-compatible wrapped native coin. Unlike WETH9, `totalSupply` is the sum of balances (kept in
/// storage) rather than this contract's native balance, so native coin forced in without a deposit is not
/// counted; and `withdraw` forwards all gas instead of 2300.
/// @dev As in WETH9, the fallback deposits: a call to a function this contract lacks (e.g. `permit`) does
/// not revert. Callers must not take a successful call as proof that such a function exists.
contract WrappedNative is IWrappedNative {
    /// @notice The token name, e.g. "Wrapped HYPE".
    string public name;

    /// @notice The token symbol, e.g. "WHYPE".
    string public symbol;

    /// @notice Always 18, as the native coin.
    uint8 public constant decimals = 18;

    /// @notice The sum of all balances.
    uint256 public totalSupply;

    /// @notice The wrapped balance of each account.
    mapping(address account => uint256) public balanceOf;

    /// @notice What each spender may move on behalf of each owner.
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @param name_ The token name, e.g. "Wrapped HYPE".
    /// @param symbol_ The token symbol, e.g. "WHYPE".
    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    /// @notice Wraps native coin sent without data.
    receive() external payable {
        _deposit(msg.sender, msg.value);
    }

    /// @notice Wraps native coin sent with data that matches no function (WETH9 behaviour).
    fallback() external payable {
        _deposit(msg.sender, msg.value);
    }

    /// @inheritdoc IWrappedNative
    function deposit() external payable {
        _deposit(msg.sender, msg.value);
    }

    /// @inheritdoc IWrappedNative
    function withdraw(uint256 amount) external {
        uint256 balance = balanceOf[msg.sender];
        if (balance < amount) revert InsufficientBalance(msg.sender, balance, amount);
        // Cannot underflow: amount <= balance <= totalSupply.
        unchecked {
            balanceOf[msg.sender] = balance - amount;
            totalSupply -= amount;
        }
        emit Withdrawal(msg.sender, amount);
        (bool success,) = msg.sender.call{value: amount}("");
        if (!success) revert NativeTransferFailed(msg.sender, amount);
    }

    /// @notice Approves `spender` to move up to `amount` of the caller's tokens.
    /// @param spender The account allowed to spend.
    /// @param amount The allowance; `type(uint256).max` is never decremented.
    /// @return Always true.
    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    /// @notice Moves `amount` of the caller's tokens to `to`.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return Always true; failures revert.
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Moves `amount` of `from`'s tokens to `to`, spending the caller's allowance unless the caller is
    /// `from` or the allowance is `type(uint256).max`.
    /// @param from The account debited.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return Always true; failures revert.
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (from != msg.sender) {
            uint256 allowed = allowance[from][msg.sender];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
                // Cannot underflow: amount <= allowed.
                unchecked {
                    allowance[from][msg.sender] = allowed - amount;
                }
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    /// @dev Credits `amount` to `to`.
    function _deposit(address to, uint256 amount) private {
        // Cannot overflow: the sum of balances is bounded by the native coin's total supply.
        unchecked {
            balanceOf[to] += amount;
            totalSupply += amount;
        }
        emit Deposit(to, amount);
    }

    /// @dev Moves `amount` from `from` to `to`; the sum of balances is unchanged.
    function _transfer(address from, address to, uint256 amount) private {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        // Cannot underflow: amount <= balance. Cannot overflow: balances sum to totalSupply.
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
