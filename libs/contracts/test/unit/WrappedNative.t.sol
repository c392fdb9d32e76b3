// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {WrappedNative} from "../../src/WrappedNative.sol";
import {IWrappedNative} from "../../src/interfaces/IWrappedNative.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {RejectingReceiver, ReentrantReceiver} from "../mocks/NativeReceivers.sol";

contract WrappedNativeTest is Test {
    WrappedNative internal wrapped;
    address internal alice;
    address internal bob;
    address internal carol;

    function setUp() public {
        wrapped = new WrappedNative("Wrapped HYPE", "WHYPE");
        alice = makeAddr("alice");
        bob = makeAddr("bob");
        carol = makeAddr("carol");
        vm.deal(alice, 100 ether);
        vm.deal(bob, 100 ether);
    }

    function _depositAs(address account, uint256 amount) internal {
        vm.prank(account);
        wrapped.deposit{value: amount}();
    }

    // ---------------------------------------------------------------- metadata

    function test_metadata_comesFromTheConstructor() public {
        assertEq(wrapped.name(), "Wrapped HYPE");
        assertEq(wrapped.symbol(), "WHYPE");
        assertEq(uint256(wrapped.decimals()), 18);
        assertEq(wrapped.totalSupply(), 0);

        WrappedNative weth = new WrappedNative("Wrapped Ether", "WETH");
        assertEq(weth.name(), "Wrapped Ether");
        assertEq(weth.symbol(), "WETH");
    }

    // ---------------------------------------------------------------- deposit

    function test_deposit_creditsTheCallerAndEmits() public {
        vm.expectEmit(address(wrapped));
        emit IWrappedNative.Deposit(alice, 3 ether);
        _depositAs(alice, 3 ether);

        assertEq(wrapped.balanceOf(alice), 3 ether);
        assertEq(wrapped.totalSupply(), 3 ether);
        assertEq(address(wrapped).balance, 3 ether);
        assertEq(alice.balance, 97 ether);
    }

    function test_receive_deposits() public {
        vm.expectEmit(address(wrapped));
        emit IWrappedNative.Deposit(alice, 1 ether);
        vm.prank(alice);
        (bool success,) = address(wrapped).call{value: 1 ether}("");

        assertTrue(success);
        assertEq(wrapped.balanceOf(alice), 1 ether);
    }

    function test_fallback_depositsOnUnknownCalldata() public {
        vm.expectEmit(address(wrapped));
        emit IWrappedNative.Deposit(alice, 2 ether);
        vm.prank(alice);
        (bool success,) = address(wrapped).call{value: 2 ether}(abi.encodeWithSignature("unknown(uint256)", 1));

        assertTrue(success);
        assertEq(wrapped.balanceOf(alice), 2 ether);
        assertEq(wrapped.totalSupply(), 2 ether);
    }

    function test_deposit_ofZeroIsANoOp() public {
        _depositAs(alice, 0);
        assertEq(wrapped.balanceOf(alice), 0);
        assertEq(wrapped.totalSupply(), 0);
    }

    // ---------------------------------------------------------------- withdraw

    function test_withdraw_paysTheCallerAndEmits() public {
        _depositAs(alice, 5 ether);

        vm.expectEmit(address(wrapped));
        emit IWrappedNative.Withdrawal(alice, 2 ether);
        vm.prank(alice);
        wrapped.withdraw(2 ether);

        assertEq(wrapped.balanceOf(alice), 3 ether);
        assertEq(wrapped.totalSupply(), 3 ether);
        assertEq(address(wrapped).balance, 3 ether);
        assertEq(alice.balance, 97 ether);
    }

    function test_withdraw_revertsOnInsufficientBalance() public {
        _depositAs(alice, 1 ether);

        vm.expectRevert(
            abi.encodeWithSelector(IWrappedNative.InsufficientBalance.selector, alice, 1 ether, 1 ether + 1)
        );
        vm.prank(alice);
        wrapped.withdraw(1 ether + 1);
    }

    function test_withdraw_revertsWhenTheRecipientRejectsNativeCoin() public {
        RejectingReceiver receiver = new RejectingReceiver(wrapped);
        vm.deal(address(receiver), 0);

        vm.expectRevert(
            abi.encodeWithSelector(IWrappedNative.NativeTransferFailed.selector, address(receiver), 1 ether)
        );
        receiver.depositAndWithdraw{value: 1 ether}(1 ether);
    }

    function test_withdraw_reentryCannotUnwrapTwice() public {
        ReentrantReceiver attacker = new ReentrantReceiver(wrapped);

        // The inner withdraw finds a zero balance, so the whole unwrap reverts with NativeTransferFailed.
        vm.expectRevert(
            abi.encodeWithSelector(IWrappedNative.NativeTransferFailed.selector, address(attacker), 1 ether)
        );
        attacker.attack{value: 1 ether}();
        assertEq(address(wrapped).balance, 0);
    }

    // ---------------------------------------------------------------- approve / transfer / transferFrom

    function test_approve_setsTheAllowanceAndEmits() public {
        vm.expectEmit(address(wrapped));
        emit IERC20.Approval(alice, bob, 4 ether);
        vm.prank(alice);
        assertTrue(wrapped.approve(bob, 4 ether));

        assertEq(wrapped.allowance(alice, bob), 4 ether);
    }

    function test_transfer_movesTokensAndEmits() public {
        _depositAs(alice, 5 ether);

        vm.expectEmit(address(wrapped));
        emit IERC20.Transfer(alice, bob, 2 ether);
        vm.prank(alice);
        assertTrue(wrapped.transfer(bob, 2 ether));

        assertEq(wrapped.balanceOf(alice), 3 ether);
        assertEq(wrapped.balanceOf(bob), 2 ether);
        assertEq(wrapped.totalSupply(), 5 ether);
    }

    function test_transfer_toSelfKeepsTheBalance() public {
        _depositAs(alice, 5 ether);
        vm.prank(alice);
        assertTrue(wrapped.transfer(alice, 5 ether));
        assertEq(wrapped.balanceOf(alice), 5 ether);
    }

    function test_transfer_revertsOnInsufficientBalance() public {
        _depositAs(alice, 1 ether);

        vm.expectRevert(abi.encodeWithSelector(IWrappedNative.InsufficientBalance.selector, alice, 1 ether, 2 ether));
        vm.prank(alice);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transfer(bob, 2 ether);
    }

    function test_transferFrom_spendsTheAllowance() public {
        _depositAs(alice, 5 ether);
        vm.prank(alice);
        wrapped.approve(bob, 3 ether);

        vm.expectEmit(address(wrapped));
        emit IERC20.Transfer(alice, carol, 2 ether);
        vm.prank(bob);
        assertTrue(wrapped.transferFrom(alice, carol, 2 ether));

        assertEq(wrapped.allowance(alice, bob), 1 ether);
        assertEq(wrapped.balanceOf(alice), 3 ether);
        assertEq(wrapped.balanceOf(carol), 2 ether);
    }

    function test_transferFrom_infiniteAllowanceIsNotDecremented() public {
        _depositAs(alice, 5 ether);
        vm.prank(alice);
        wrapped.approve(bob, type(uint256).max);

        vm.prank(bob);
        assertTrue(wrapped.transferFrom(alice, carol, 5 ether));

        assertEq(wrapped.allowance(alice, bob), type(uint256).max);
    }

    function test_transferFrom_byTheOwnerNeedsNoAllowance() public {
        _depositAs(alice, 5 ether);

        vm.prank(alice);
        assertTrue(wrapped.transferFrom(alice, bob, 1 ether));

        assertEq(wrapped.balanceOf(bob), 1 ether);
        assertEq(wrapped.allowance(alice, alice), 0);
    }

    function test_transferFrom_revertsOnInsufficientAllowance() public {
        _depositAs(alice, 5 ether);
        vm.prank(alice);
        wrapped.approve(bob, 1 ether);

        vm.expectRevert(
            abi.encodeWithSelector(IWrappedNative.InsufficientAllowance.selector, alice, bob, 1 ether, 2 ether)
        );
        vm.prank(bob);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transferFrom(alice, carol, 2 ether);
    }

    function test_transferFrom_revertsOnInsufficientBalance() public {
        _depositAs(alice, 1 ether);
        vm.prank(alice);
        wrapped.approve(bob, type(uint256).max);

        vm.expectRevert(abi.encodeWithSelector(IWrappedNative.InsufficientBalance.selector, alice, 1 ether, 2 ether));
        vm.prank(bob);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transferFrom(alice, carol, 2 ether);
    }
}
