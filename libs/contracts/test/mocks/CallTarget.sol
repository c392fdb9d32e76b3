// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A call target for batching tests: returns values, reverts on demand and takes native value.
contract CallTarget {
    /// @notice The failure `fail` reverts with.
    error Failed(uint256 code);

    uint256 public stored;

    function echo(uint256 x) external pure returns (uint256) {
        return x;
    }

    function store(uint256 x) external {
        stored = x;
    }

    function fail(uint256 code) external pure {
        revert Failed(code);
    }

    function pay() external payable returns (uint256) {
        return msg.value;
    }
}
