// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IWrappedNative} from "../../src/interfaces/IWrappedNative.sol";

/// @notice Rejects every native transfer, so unwrapping to it fails.
contract RejectingReceiver {
    IWrappedNative private immutable _wrapped;

    constructor(IWrappedNative wrapped) {
        _wrapped = wrapped;
    }

    function depositAndWithdraw(uint256 amount) external payable {
        _wrapped.deposit{value: msg.value}();
        _wrapped.withdraw(amount);
    }
}

/// @notice Re-enters `withdraw` from its receive hook, trying to unwrap the same balance twice.
contract ReentrantReceiver {
    IWrappedNative private immutable _wrapped;
    bool private _entered;

    constructor(IWrappedNative wrapped) {
        _wrapped = wrapped;
    }

    function attack() external payable {
        _wrapped.deposit{value: msg.value}();
        _wrapped.withdraw(msg.value);
    }

    receive() external payable {
        if (_entered) return;
        _entered = true;
        _wrapped.withdraw(msg.value);
    }
}
