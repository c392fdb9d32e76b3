// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

/// @title LiquidityToken
/// @notice The ERC20 share token of a pool (18 decimals, no permit). Unlike OpenZeppelin's ERC20 it can mint to
/// the zero address, where pools lock their first `MINIMUM_LIQUIDITY` shares for good, as Uniswap V2 does.
/// @dev An allowance of `type(uint256).max` is never decremented. Failures revert with the ERC-6093 errors.
abstract contract LiquidityToken is IERC20Metadata, IERC20Errors {
    /// @notice Always 18.
    uint8 public constant decimals = 18;

    /// @notice The number of shares in existence, including the locked minimum.
    uint256 public totalSupply;

    /// @notice The shares of each account.
    mapping(address account => uint256) public balanceOf;

    /// @notice What each spender may move on behalf of each owner.
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @notice Approves `spender` to move up to `amount` of the caller's shares.
    /// @param spender The account allowed to spend.
    /// @param amount The allowance; `type(uint256).max` is never decremented.
    /// @return Always true.
    function approve(address spender, uint256 amount) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    /// @notice Moves `amount` of the caller's shares to `to`.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return Always true; failures revert.
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Moves `amount` of `from`'s shares to `to`, spending the caller's allowance unless the caller is
    /// `from` or the allowance is `type(uint256).max`.
    /// @param from The account debited.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return Always true; failures revert.
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (from != msg.sender) {
            uint256 allowed = allowance[from][msg.sender];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert ERC20InsufficientAllowance(msg.sender, allowed, amount);
                // Cannot underflow: amount <= allowed.
                unchecked {
                    allowance[from][msg.sender] = allowed - amount;
                }
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    /// @dev Creates `amount` shares for `to`; `to` may be the zero address (the permanent lock).
    function _mint(address to, uint256 amount) internal {
        totalSupply += amount;
        // Cannot overflow: the balance is at most totalSupply, which the checked addition above bounds.
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    /// @dev Destroys `amount` of `from`'s shares.
    function _burn(address from, uint256 amount) internal {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert ERC20InsufficientBalance(from, balance, amount);
        // Cannot underflow: amount <= balance <= totalSupply.
        unchecked {
            balanceOf[from] = balance - amount;
            totalSupply -= amount;
        }
        emit Transfer(from, address(0), amount);
    }

    /// @dev Moves `amount` from `from` to `to`; the sum of balances is unchanged.
    function _transfer(address from, address to, uint256 amount) private {
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 balance = balanceOf[from];
        if (balance < amount) revert ERC20InsufficientBalance(from, balance, amount);
        // Cannot underflow: amount <= balance. Cannot overflow: balances sum to totalSupply.
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
