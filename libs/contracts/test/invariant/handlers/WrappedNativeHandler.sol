// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../base/Base.sol";
import {WrappedNative} from "../../../src/WrappedNative.sol";

/// @notice Drives WrappedNative for invariant runs: a fixed set of actors deposit (three ways), withdraw,
/// transfer, approve and transferFrom with amounts bounded to what they hold, so no call reverts.
contract WrappedNativeHandler is Base {
    error TransferReturnedFalse();
    error DepositFailed();

    uint256 internal constant MAX_DEPOSIT = 1_000_000 ether;

    WrappedNative public immutable wrapped;
    address[] internal _actors;

    /// @notice Ghost totals: everything wrapped and unwrapped so far.
    uint256 public ghostDeposited;
    uint256 public ghostWithdrawn;

    constructor(WrappedNative wrapped_, uint256 actorCount) {
        wrapped = wrapped_;
        for (uint256 i; i < actorCount; ++i) {
            _actors.push(makeAddr(string.concat("actor", vm.toString(i))));
        }
    }

    function actors() external view returns (address[] memory) {
        return _actors;
    }

    function deposit(uint256 actorSeed, uint256 amount) external {
        address actor = _actor(actorSeed);
        amount = bound(amount, 0, MAX_DEPOSIT);
        vm.deal(actor, actor.balance + amount);
        vm.prank(actor);
        wrapped.deposit{value: amount}();
        ghostDeposited += amount;
    }

    function depositByTransfer(uint256 actorSeed, uint256 amount, bool withData) external {
        address actor = _actor(actorSeed);
        amount = bound(amount, 0, MAX_DEPOSIT);
        vm.deal(actor, actor.balance + amount);
        vm.prank(actor);
        (bool success,) = address(wrapped).call{value: amount}(withData ? bytes(hex"deadbeef") : bytes(""));
        if (!success) revert DepositFailed();
        ghostDeposited += amount;
    }

    function withdraw(uint256 actorSeed, uint256 amount) external {
        address actor = _actor(actorSeed);
        amount = bound(amount, 0, wrapped.balanceOf(actor));
        vm.prank(actor);
        wrapped.withdraw(amount);
        ghostWithdrawn += amount;
    }

    function transfer(uint256 fromSeed, uint256 toSeed, uint256 amount) external {
        address from = _actor(fromSeed);
        amount = bound(amount, 0, wrapped.balanceOf(from));
        vm.prank(from);
        if (!wrapped.transfer(_actor(toSeed), amount)) revert TransferReturnedFalse();
    }

    function approve(uint256 ownerSeed, uint256 spenderSeed, uint256 amount) external {
        vm.prank(_actor(ownerSeed));
        wrapped.approve(_actor(spenderSeed), amount);
    }

    function transferFrom(uint256 spenderSeed, uint256 fromSeed, uint256 toSeed, uint256 amount) external {
        address spender = _actor(spenderSeed);
        address from = _actor(fromSeed);
        uint256 limit = wrapped.balanceOf(from);
        uint256 allowed = wrapped.allowance(from, spender);
        if (spender != from && allowed < limit) limit = allowed;
        amount = bound(amount, 0, limit);
        vm.prank(spender);
        if (!wrapped.transferFrom(from, _actor(toSeed), amount)) revert TransferReturnedFalse();
    }

    function _actor(uint256 seed) internal view returns (address) {
        return _actors[seed % _actors.length];
    }
}
