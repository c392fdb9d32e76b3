// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title TokenTransfer
/// @notice ERC20 transfers and approvals through low-level calls that accept tokens returning nothing (the old
/// USDT shape) as well as `true`, and revert `TransferFailed(token)` on a revert, a `false`, malformed return
/// data or a token without code.
/// @dev `TransferFailed(address)` has the same selector as the error of that name in IAmmPool and IAmmRouter.
library TokenTransfer {
    /// @notice A token transfer or approval failed.
    /// @param token The token.
    error TransferFailed(address token);

    /// @dev Sends `amount` of `token` from this contract to `to`.
    function safeTransfer(address token, address to, uint256 amount) internal {
        if (!_call(token, abi.encodeCall(IERC20.transfer, (to, amount)))) revert TransferFailed(token);
    }

    /// @dev Moves `amount` of `token` from `from` to `to` on this contract's allowance.
    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        if (!_call(token, abi.encodeCall(IERC20.transferFrom, (from, to, amount)))) revert TransferFailed(token);
    }

    /// @dev Sets this contract's allowance of `spender` to `amount`; for tokens that refuse changing a non-zero
    /// allowance, sets it to zero first.
    function safeApprove(address token, address spender, uint256 amount) internal {
        if (_call(token, abi.encodeCall(IERC20.approve, (spender, amount)))) return;
        if (
            !_call(token, abi.encodeCall(IERC20.approve, (spender, 0)))
                || !_call(token, abi.encodeCall(IERC20.approve, (spender, amount)))
        ) revert TransferFailed(token);
    }

    /// @dev This contract's balance of `token`.
    function balanceOf(address token) internal view returns (uint256) {
        return IERC20(token).balanceOf(address(this));
    }

    /// @dev Calls `token` and reports success: the call did not revert and returned either nothing (from a
    /// contract) or a word equal to 1.
    function _call(address token, bytes memory data) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) return false;
        if (ret.length == 0) return token.code.length != 0;
        return ret.length >= 32 && abi.decode(ret, (uint256)) == 1;
    }
}
