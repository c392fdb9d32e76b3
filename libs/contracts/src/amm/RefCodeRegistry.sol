// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IRefCodeRegistry} from "./interfaces/IRefCodeRegistry.sol";

/// @title RefCodeRegistry
/// @notice The operator's allowlist of referral codes, their claim wallets and claim locks (see
/// IRefCodeRegistry). One registry serves the AMM router and all pools of a chain.
contract RefCodeRegistry is IRefCodeRegistry, Ownable2Step {
    /// @inheritdoc IRefCodeRegistry
    uint256 public constant MAX_CLAIM_LOCK_DELAY = 30 days;

    /// @inheritdoc IRefCodeRegistry
    uint256 public claimLockDelay;

    mapping(bytes32 refCode => RefCode) private _codes;
    bytes32[] private _codeList;

    /// @param initialOwner The operator, who issues codes.
    /// @param claimLockDelay_ The initial claim lock delay in seconds (e.g. 1 day), at most 30 days.
    constructor(address initialOwner, uint256 claimLockDelay_) Ownable(initialOwner) {
        _setClaimLockDelay(claimLockDelay_);
    }

    // ---------------------------------------------------------------- owner

    /// @inheritdoc IRefCodeRegistry
    function registerRefCode(bytes32 refCode, address claimWallet) external onlyOwner {
        _register(refCode, claimWallet);
    }

    /// @inheritdoc IRefCodeRegistry
    function registerRefCodeText(string calldata code, address claimWallet)
        external
        onlyOwner
        returns (bytes32 refCode)
    {
        refCode = keccak256(bytes(code));
        _register(refCode, claimWallet);
    }

    /// @inheritdoc IRefCodeRegistry
    function setClaimWallet(bytes32 refCode, address claimWallet) external onlyOwner {
        RefCode storage code = _codes[refCode];
        if (!code.registered) revert InvalidRefCode(refCode);
        if (claimWallet == address(0)) revert InvalidClaimWallet();
        address previous = code.claimWallet;
        uint256 unlockTime = block.timestamp + claimLockDelay;
        code.claimWallet = claimWallet;
        // Fits: block.timestamp and the delay (<= 30 days) are far below 2^64.
        // forge-lint: disable-next-line(unsafe-typecast)
        code.claimUnlockTime = uint64(unlockTime);
        emit ClaimWalletChanged(refCode, previous, claimWallet, unlockTime);
    }

    /// @inheritdoc IRefCodeRegistry
    function revokeRefCode(bytes32 refCode) external onlyOwner {
        RefCode storage code = _codes[refCode];
        if (!code.registered) revert InvalidRefCode(refCode);
        if (!code.active) revert RefCodeNotActive(refCode);
        code.active = false;
        emit RefCodeRevoked(refCode);
    }

    /// @inheritdoc IRefCodeRegistry
    function setClaimLockDelay(uint256 delay) external onlyOwner {
        _setClaimLockDelay(delay);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IRefCodeRegistry
    function isRegistered(bytes32 refCode) external view returns (bool) {
        return _codes[refCode].registered;
    }

    /// @inheritdoc IRefCodeRegistry
    function isActive(bytes32 refCode) external view returns (bool) {
        return _codes[refCode].active;
    }

    /// @inheritdoc IRefCodeRegistry
    function claimWalletOf(bytes32 refCode) external view returns (address) {
        return _codes[refCode].claimWallet;
    }

    /// @inheritdoc IRefCodeRegistry
    function claimUnlockTime(bytes32 refCode) external view returns (uint256) {
        return _codes[refCode].claimUnlockTime;
    }

    /// @inheritdoc IRefCodeRegistry
    function refCodeInfo(bytes32 refCode) external view returns (RefCode memory) {
        return _codes[refCode];
    }

    /// @inheritdoc IRefCodeRegistry
    function refCodeCount() external view returns (uint256) {
        return _codeList.length;
    }

    /// @inheritdoc IRefCodeRegistry
    function refCodeAt(uint256 index) external view returns (bytes32) {
        if (index >= _codeList.length) revert RefCodeIndexOutOfBounds(index);
        return _codeList[index];
    }

    // ---------------------------------------------------------------- internal

    function _register(bytes32 refCode, address claimWallet) private {
        if (refCode == bytes32(0)) revert InvalidRefCode(refCode);
        if (claimWallet == address(0)) revert InvalidClaimWallet();
        if (_codes[refCode].registered) revert RefCodeAlreadyRegistered(refCode);
        _codes[refCode] = RefCode({claimWallet: claimWallet, claimUnlockTime: 0, registered: true, active: true});
        _codeList.push(refCode);
        emit RefCodeRegistered(refCode, claimWallet);
    }

    function _setClaimLockDelay(uint256 delay) private {
        if (delay > MAX_CLAIM_LOCK_DELAY) revert ClaimLockDelayTooLong(delay);
        claimLockDelay = delay;
        emit ClaimLockDelaySet(delay);
    }
}
