// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {WrappedNative} from "../../src/WrappedNative.sol";
import {IWrappedNative} from "../../src/interfaces/IWrappedNative.sol";

contract WrappedNativeFuzzTest is Test {
    uint256 internal constant MAX_AMOUNT = 1e30;

    WrappedNative internal wrapped;
    address internal alice;
    address internal bob;
    address internal carol;

    function setUp() public {
        wrapped = new WrappedNative("Wrapped Ether", "WETH");
        alice = makeAddr("alice");
        bob = makeAddr("bob");
        carol = makeAddr("carol");
    }

    function testFuzz_depositThenWithdraw_roundTrips(uint256 deposited, uint256 withdrawn) public {
        deposited = bound(deposited, 0, MAX_AMOUNT);
        withdrawn = bound(withdrawn, 0, deposited);
        vm.deal(alice, deposited);

        vm.startPrank(alice);
        wrapped.deposit{value: deposited}();
        wrapped.withdraw(withdrawn);
        vm.stopPrank();

        assertEq(wrapped.balanceOf(alice), deposited - withdrawn);
        assertEq(alice.balance, withdrawn);
        assertEq(wrapped.totalSupply(), deposited - withdrawn);
        assertEq(address(wrapped).balance, deposited - withdrawn);
    }

    function testFuzz_withdraw_revertsAboveTheBalance(uint256 deposited, uint256 withdrawn) public {
        deposited = bound(deposited, 0, MAX_AMOUNT);
        withdrawn = bound(withdrawn, deposited + 1, type(uint256).max);
        vm.deal(alice, deposited);

        vm.startPrank(alice);
        wrapped.deposit{value: deposited}();
        vm.expectRevert(
            abi.encodeWithSelector(IWrappedNative.InsufficientBalance.selector, alice, deposited, withdrawn)
        );
        wrapped.withdraw(withdrawn);
        vm.stopPrank();
    }

    function testFuzz_transfer_conservesTheSupply(uint256 deposited, uint256 sent) public {
        deposited = bound(deposited, 0, MAX_AMOUNT);
        sent = bound(sent, 0, deposited);
        vm.deal(alice, deposited);

        vm.startPrank(alice);
        wrapped.deposit{value: deposited}();
        assertTrue(wrapped.transfer(bob, sent));
        vm.stopPrank();

        assertEq(wrapped.balanceOf(alice), deposited - sent);
        assertEq(wrapped.balanceOf(bob), sent);
        assertEq(wrapped.balanceOf(alice) + wrapped.balanceOf(bob), wrapped.totalSupply());
    }

    function testFuzz_transferFrom_spendsExactlyTheAmount(uint256 deposited, uint256 allowed, uint256 sent) public {
        deposited = bound(deposited, 0, MAX_AMOUNT);
        allowed = bound(allowed, 0, type(uint256).max - 1);
        sent = bound(sent, 0, allowed < deposited ? allowed : deposited);
        vm.deal(alice, deposited);

        vm.startPrank(alice);
        wrapped.deposit{value: deposited}();
        wrapped.approve(bob, allowed);
        vm.stopPrank();
        vm.prank(bob);
        assertTrue(wrapped.transferFrom(alice, carol, sent));

        assertEq(wrapped.allowance(alice, bob), allowed - sent);
        assertEq(wrapped.balanceOf(carol), sent);
        assertEq(wrapped.balanceOf(alice), deposited - sent);
    }
}
