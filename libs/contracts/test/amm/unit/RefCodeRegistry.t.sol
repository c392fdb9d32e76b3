// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Test} from "../../base/Test.sol";
import {RefCodeRegistry} from "../../../src/amm/RefCodeRegistry.sol";
import {IRefCodeRegistry} from "../../../src/amm/interfaces/IRefCodeRegistry.sol";

contract RefCodeRegistryTest is Test {
    RefCodeRegistry internal registry;
    address internal owner;
    address internal wallet;
    address internal other;
    bytes32 internal constant CODE = keccak256("alpha");

    function setUp() public {
        owner = makeAddr("owner");
        wallet = makeAddr("wallet");
        other = makeAddr("other");
        registry = new RefCodeRegistry(owner, 1 days);
    }

    function test_constructor_setsState() public {
        assertEq(registry.owner(), owner);
        assertEq(registry.claimLockDelay(), 1 days);
        assertEq(registry.MAX_CLAIM_LOCK_DELAY(), 30 days);
        assertEq(registry.refCodeCount(), 0);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.ClaimLockDelayTooLong.selector, 30 days + 1));
        new RefCodeRegistry(owner, 30 days + 1);
    }

    function test_registerRefCode_storesAndEmits() public {
        vm.expectEmit(address(registry));
        emit IRefCodeRegistry.RefCodeRegistered(CODE, wallet);
        vm.prank(owner);
        registry.registerRefCode(CODE, wallet);
        assertTrue(registry.isRegistered(CODE));
        assertTrue(registry.isActive(CODE));
        assertEq(registry.claimWalletOf(CODE), wallet);
        assertEq(registry.claimUnlockTime(CODE), 0);
        assertEq(registry.refCodeCount(), 1);
        assertEq(registry.refCodeAt(0), CODE);
        IRefCodeRegistry.RefCode memory info = registry.refCodeInfo(CODE);
        assertEq(info.claimWallet, wallet);
        assertTrue(info.registered);
        assertTrue(info.active);
        assertEq(uint256(info.claimUnlockTime), 0);
    }

    function test_registerRefCodeText_hashesTheText() public {
        vm.expectEmit(address(registry));
        emit IRefCodeRegistry.RefCodeRegistered(CODE, wallet);
        vm.prank(owner);
        bytes32 code = registry.registerRefCodeText("alpha", wallet);
        assertEq(code, CODE);
        assertTrue(registry.isActive(CODE));
    }

    function test_registerRefCode_rejectsBadInput() public {
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.InvalidRefCode.selector, bytes32(0)));
        registry.registerRefCode(bytes32(0), wallet);
        vm.expectRevert(IRefCodeRegistry.InvalidClaimWallet.selector);
        registry.registerRefCode(CODE, address(0));
        registry.registerRefCode(CODE, wallet);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.RefCodeAlreadyRegistered.selector, CODE));
        registry.registerRefCode(CODE, other);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.RefCodeAlreadyRegistered.selector, CODE));
        registry.registerRefCodeText("alpha", other);
        vm.stopPrank();
    }

    function test_ownerOnly() public {
        vm.startPrank(other);
        bytes memory err = abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, other);
        vm.expectRevert(err);
        registry.registerRefCode(CODE, wallet);
        vm.expectRevert(err);
        registry.registerRefCodeText("alpha", wallet);
        vm.expectRevert(err);
        registry.setClaimWallet(CODE, wallet);
        vm.expectRevert(err);
        registry.revokeRefCode(CODE);
        vm.expectRevert(err);
        registry.setClaimLockDelay(0);
        vm.stopPrank();
    }

    function test_setClaimWallet_changesAndLocks() public {
        vm.startPrank(owner);
        registry.registerRefCode(CODE, wallet);
        uint256 unlock = block.timestamp + 1 days;
        vm.expectEmit(address(registry));
        emit IRefCodeRegistry.ClaimWalletChanged(CODE, wallet, other, unlock);
        registry.setClaimWallet(CODE, other);
        vm.stopPrank();
        assertEq(registry.claimWalletOf(CODE), other);
        assertEq(registry.claimUnlockTime(CODE), unlock);
    }

    function test_setClaimWallet_rejectsBadInput() public {
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.InvalidRefCode.selector, CODE));
        registry.setClaimWallet(CODE, wallet);
        registry.registerRefCode(CODE, wallet);
        vm.expectRevert(IRefCodeRegistry.InvalidClaimWallet.selector);
        registry.setClaimWallet(CODE, address(0));
        vm.stopPrank();
    }

    function test_revokeRefCode_deactivatesForGood() public {
        vm.startPrank(owner);
        registry.registerRefCode(CODE, wallet);
        vm.expectEmit(address(registry));
        emit IRefCodeRegistry.RefCodeRevoked(CODE);
        registry.revokeRefCode(CODE);
        assertFalse(registry.isActive(CODE));
        assertTrue(registry.isRegistered(CODE));
        assertEq(registry.claimWalletOf(CODE), wallet);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.RefCodeNotActive.selector, CODE));
        registry.revokeRefCode(CODE);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.RefCodeAlreadyRegistered.selector, CODE));
        registry.registerRefCode(CODE, wallet);
        bytes32 unknown = keccak256("nobody");
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.InvalidRefCode.selector, unknown));
        registry.revokeRefCode(unknown);
        // A revoked code's wallet can still be changed (to claim what it accrued).
        registry.setClaimWallet(CODE, other);
        vm.stopPrank();
    }

    function test_setClaimLockDelay_setsAndBounds() public {
        vm.startPrank(owner);
        vm.expectEmit(address(registry));
        emit IRefCodeRegistry.ClaimLockDelaySet(30 days);
        registry.setClaimLockDelay(30 days);
        assertEq(registry.claimLockDelay(), 30 days);
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.ClaimLockDelayTooLong.selector, 30 days + 1));
        registry.setClaimLockDelay(30 days + 1);
        registry.setClaimLockDelay(0);
        registry.registerRefCode(CODE, wallet);
        registry.setClaimWallet(CODE, other);
        vm.stopPrank();
        assertEq(registry.claimUnlockTime(CODE), block.timestamp, "no delay: unlocked at once");
    }

    function test_enumeration_inRegistrationOrder() public {
        vm.startPrank(owner);
        registry.registerRefCodeText("a", wallet);
        registry.registerRefCodeText("b", wallet);
        registry.registerRefCodeText("c", other);
        registry.revokeRefCode(keccak256("b"));
        vm.stopPrank();
        assertEq(registry.refCodeCount(), 3);
        assertEq(registry.refCodeAt(0), keccak256("a"));
        assertEq(registry.refCodeAt(1), keccak256("b"));
        assertEq(registry.refCodeAt(2), keccak256("c"));
        vm.expectRevert(abi.encodeWithSelector(IRefCodeRegistry.RefCodeIndexOutOfBounds.selector, 3));
        registry.refCodeAt(3);
    }

    function test_unknownCode_readsAsEmpty() public view {
        bytes32 unknown = keccak256("nobody");
        assertFalse(registry.isRegistered(unknown));
        assertFalse(registry.isActive(unknown));
        assertEq(registry.claimWalletOf(unknown), address(0));
        assertEq(registry.claimUnlockTime(unknown), 0);
    }
}
