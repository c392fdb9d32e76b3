// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {TestERC20} from "../../src/TestERC20.sol";

contract TestERC20FuzzTest is Test {
    TestERC20 internal token;

    function setUp() public {
        token = new TestERC20("Test Token", "TT", 18);
    }

    function testFuzz_mintThenTransfer_conservesTheSupply(address to, uint256 minted, uint256 sent) public {
        vm.assume(to != address(0) && to != address(this));
        minted = bound(minted, 0, type(uint128).max);
        sent = bound(sent, 0, minted);

        token.mint(address(this), minted);
        assertTrue(token.transfer(to, sent));

        assertEq(token.balanceOf(address(this)), minted - sent);
        assertEq(token.balanceOf(to), sent);
        assertEq(token.totalSupply(), minted);
    }

    function testFuzz_constructor_keepsAnyDecimals(uint8 decimals) public {
        TestERC20 other = new TestERC20("Any", "ANY", decimals);
        assertEq(uint256(other.decimals()), uint256(decimals));
    }
}
