// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "./Base.sol";

/// @title Test
/// @notice Our small stand-in for forge-std's Test: cheatcodes, `bound`, assertions (through forge's assertion
/// cheatcodes, which revert with a readable message) and the invariant-target getters forge reads.
abstract contract Test is Base {
    /// @notice A contract and the selectors of it that an invariant run may call.
    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    /// @notice Marks this contract as a test suite.
    bool public IS_TEST = true;

    address[] private _targetedContracts;
    address[] private _excludedContracts;
    address[] private _targetedSenders;
    address[] private _excludedSenders;
    FuzzSelector[] private _targetedSelectors;

    // ---------------------------------------------------------------- invariant targets (read by forge)

    /// @notice Contracts an invariant run calls; when empty, every contract deployed in setUp.
    function targetContracts() public view returns (address[] memory) {
        return _targetedContracts;
    }

    /// @notice Contracts an invariant run must not call.
    function excludeContracts() public view returns (address[] memory) {
        return _excludedContracts;
    }

    /// @notice Senders an invariant run uses; when empty, random ones.
    function targetSenders() public view returns (address[] memory) {
        return _targetedSenders;
    }

    /// @notice Senders an invariant run must not use.
    function excludeSenders() public view returns (address[] memory) {
        return _excludedSenders;
    }

    /// @notice Restricts calls on some target contracts to the listed selectors.
    function targetSelectors() public view returns (FuzzSelector[] memory) {
        return _targetedSelectors;
    }

    function targetContract(address target) internal {
        _targetedContracts.push(target);
    }

    function excludeContract(address target) internal {
        _excludedContracts.push(target);
    }

    function targetSender(address sender) internal {
        _targetedSenders.push(sender);
    }

    function excludeSender(address sender) internal {
        _excludedSenders.push(sender);
    }

    function targetSelector(FuzzSelector memory selector) internal {
        _targetedSelectors.push(selector);
    }

    // ---------------------------------------------------------------- assertions

    function assertTrue(bool condition) internal pure {
        vm.assertTrue(condition);
    }

    function assertTrue(bool condition, string memory err) internal pure {
        vm.assertTrue(condition, err);
    }

    function assertFalse(bool condition) internal pure {
        vm.assertFalse(condition);
    }

    function assertFalse(bool condition, string memory err) internal pure {
        vm.assertFalse(condition, err);
    }

    function assertEq(bool left, bool right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(bool left, bool right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(uint256 left, uint256 right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(uint256 left, uint256 right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(int256 left, int256 right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(int256 left, int256 right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(address left, address right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(address left, address right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(bytes32 left, bytes32 right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(bytes32 left, bytes32 right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(bytes memory left, bytes memory right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(bytes memory left, bytes memory right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertEq(string memory left, string memory right) internal pure {
        vm.assertEq(left, right);
    }

    function assertEq(string memory left, string memory right, string memory err) internal pure {
        vm.assertEq(left, right, err);
    }

    function assertGt(uint256 left, uint256 right) internal pure {
        vm.assertGt(left, right);
    }

    function assertGt(uint256 left, uint256 right, string memory err) internal pure {
        vm.assertGt(left, right, err);
    }

    function assertGe(uint256 left, uint256 right) internal pure {
        vm.assertGe(left, right);
    }

    function assertGe(uint256 left, uint256 right, string memory err) internal pure {
        vm.assertGe(left, right, err);
    }

    function assertLt(uint256 left, uint256 right) internal pure {
        vm.assertLt(left, right);
    }

    function assertLt(uint256 left, uint256 right, string memory err) internal pure {
        vm.assertLt(left, right, err);
    }

    function assertLe(uint256 left, uint256 right) internal pure {
        vm.assertLe(left, right);
    }

    function assertLe(uint256 left, uint256 right, string memory err) internal pure {
        vm.assertLe(left, right, err);
    }

    function assertApproxEqAbs(uint256 left, uint256 right, uint256 maxDelta) internal pure {
        vm.assertApproxEqAbs(left, right, maxDelta);
    }

    function assertApproxEqAbs(uint256 left, uint256 right, uint256 maxDelta, string memory err) internal pure {
        vm.assertApproxEqAbs(left, right, maxDelta, err);
    }
}
