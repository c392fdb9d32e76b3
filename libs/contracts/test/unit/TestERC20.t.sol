// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract TestERC20Test is Test {
    TestERC20 internal token;
    address internal alice;
    address internal bob;

    function setUp() public {
        token = new TestERC20("USD Coin", "USDC", 6);
        alice = makeAddr("alice");
        bob = makeAddr("bob");
    }

    function test_constructor_setsMetadataAndOwner() public view {
        assertEq(token.name(), "USD Coin");
        assertEq(token.symbol(), "USDC");
        assertEq(uint256(token.decimals()), 6);
        assertEq(token.owner(), address(this));
        assertEq(token.totalSupply(), 0);
    }

    function test_mint_byTheOwnerCreditsAndEmits() public {
        vm.expectEmit(address(token));
        emit IERC20.Transfer(address(0), alice, 1_000e6);
        token.mint(alice, 1_000e6);

        assertEq(token.balanceOf(alice), 1_000e6);
        assertEq(token.totalSupply(), 1_000e6);
    }

    function test_mint_revertsForOthers() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        vm.prank(alice);
        token.mint(alice, 1);
    }

    function test_mint_revertsToTheZeroAddress() public {
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InvalidReceiver.selector, address(0)));
        token.mint(address(0), 1);
    }

    function test_transfer_movesTokens() public {
        token.mint(alice, 10);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 4));
        assertEq(token.balanceOf(alice), 6);
        assertEq(token.balanceOf(bob), 4);
    }

    function test_transferOwnership_handsOverMinting() public {
        token.transferOwnership(alice);
        vm.prank(alice);
        token.mint(bob, 5);
        assertEq(token.balanceOf(bob), 5);

        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        token.mint(bob, 5);
    }
}
