// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {Base} from "../base/Base.sol";

/// @notice Checks our own test base: `bound`, `makeAddr` and the assertion wrappers.
contract TestBaseTest is Test {
    function test_bound_keepsValuesInRange() public pure {
        assertEq(bound(5, 1, 10), 5);
        assertEq(bound(0, 1, 10), 1);
        assertEq(bound(11, 1, 10), 2);
        assertEq(bound(20, 1, 10), 1);
        assertEq(bound(type(uint256).max, 0, type(uint256).max), type(uint256).max);
        assertEq(bound(123, 7, 7), 7);
    }

    function test_bound_revertsOnAnEmptyRange() public {
        vm.expectRevert(abi.encodeWithSelector(Base.BoundRangeEmpty.selector, 2, 1));
        this.boundExternal(0, 2, 1);
    }

    function boundExternal(uint256 x, uint256 min, uint256 max) external pure returns (uint256) {
        return bound(x, min, max);
    }

    function testFuzz_bound_staysInRange(uint256 x, uint256 min, uint256 max) public pure {
        if (min > max) (min, max) = (max, min);
        uint256 y = bound(x, min, max);
        assertGe(y, min);
        assertLe(y, max);
    }

    function test_makeAddr_isDeterministic() public {
        assertEq(makeAddr("alice"), makeAddr("alice"));
        assertTrue(makeAddr("alice") != makeAddr("bob"));
    }

    function test_assertions_passOnEqualValues() public pure {
        assertEq(true, true);
        assertEq(int256(-1), int256(-1));
        assertEq(address(1), address(1));
        assertEq(keccak256("x"), keccak256("x"));
        assertEq(bytes("ab"), bytes("ab"));
        assertEq(string("ab"), string("ab"));
        assertGt(2, 1);
        assertLt(1, 2);
        assertApproxEqAbs(100, 103, 3);
        assertFalse(false);
    }
}
