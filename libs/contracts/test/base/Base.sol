// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vm, VM_ADDRESS} from "./Vm.sol";

/// @title Base
/// @notice What tests and invariant handlers share: the cheatcode handle and small helpers.
abstract contract Base {
    /// @notice `bound` was given an empty range.
    error BoundRangeEmpty(uint256 min, uint256 max);

    Vm internal constant vm = Vm(VM_ADDRESS);

    /// @notice Maps any fuzzed `x` into [min, max]: values inside are kept, others become min + x % size.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        if (min > max) revert BoundRangeEmpty(min, max);
        if (x >= min && x <= max) return x;
        // x is outside [min, max], so that range is not the whole uint256 domain and size cannot be 0.
        uint256 size;
        unchecked {
            size = max - min + 1;
        }
        // Cannot overflow: x % size < size = max - min + 1, so the sum is at most max.
        unchecked {
            return min + (x % size);
        }
    }

    /// @notice A deterministic address for `name`, labelled in traces.
    function makeAddr(string memory name) internal returns (address account) {
        account = vm.addr(uint256(keccak256(bytes(name))));
        vm.label(account, name);
    }
}
