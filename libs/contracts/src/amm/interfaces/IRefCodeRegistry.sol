// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IRefCodeRegistry
/// @notice The on-chain allowlist of referral codes. The operator (owner) issues codes: a code is the keccak256
/// hash of its text and has a claim wallet, the only account that may claim the referral fees it accrues in the
/// AMM pools (fees may also be pushed to that wallet by anyone, see the AMM router's `distributeRefFees`).
/// @dev Claim lock: changing a code's claim wallet locks claims (and pushes) of that code's fees until
/// `claimLockDelay` has passed (`claimUnlockTime`). A compromised operator key therefore cannot redirect fees
/// that have already accrued instantly: the rightful wallet has the delay to claim them first, and watchers
/// have it to react. Registration itself does not lock. Revocation is final: a revoked code stops accruing
/// new fees, but what it accrued stays claimable by its claim wallet.
interface IRefCodeRegistry {
    /// @notice The stored state of one code.
    /// @param claimWallet The account that may claim the code's fees.
    /// @param claimUnlockTime The Unix time before which claims of the code are locked (0 when never locked).
    /// @param registered Whether the code was ever registered.
    /// @param active Whether the code earns referral fees (registered and not revoked).
    struct RefCode {
        address claimWallet;
        uint64 claimUnlockTime;
        bool registered;
        bool active;
    }

    /// @notice The code is not registered (or is the zero code).
    /// @param refCode The code.
    error InvalidRefCode(bytes32 refCode);

    /// @notice The code is registered already.
    /// @param refCode The code.
    error RefCodeAlreadyRegistered(bytes32 refCode);

    /// @notice The code was revoked already.
    /// @param refCode The code.
    error RefCodeNotActive(bytes32 refCode);

    /// @notice A claim wallet cannot be the zero address.
    error InvalidClaimWallet();

    /// @notice The claim lock delay is above `MAX_CLAIM_LOCK_DELAY`.
    /// @param delay The delay given.
    error ClaimLockDelayTooLong(uint256 delay);

    /// @notice `refCodeAt` was asked for an index at or past `refCodeCount`.
    /// @param index The index given.
    error RefCodeIndexOutOfBounds(uint256 index);

    /// @notice A code was issued.
    /// @param refCode The code (keccak256 of its text).
    /// @param claimWallet Its claim wallet.
    event RefCodeRegistered(bytes32 indexed refCode, address indexed claimWallet);

    /// @notice A code's claim wallet was changed; its claims are locked until `claimUnlockTime`.
    /// @param refCode The code.
    /// @param previousWallet The former claim wallet.
    /// @param newWallet The new claim wallet.
    /// @param claimUnlockTime The Unix time from which the code's fees can be claimed again.
    event ClaimWalletChanged(
        bytes32 indexed refCode, address indexed previousWallet, address indexed newWallet, uint256 claimUnlockTime
    );

    /// @notice A code was revoked: it no longer earns referral fees.
    /// @param refCode The code.
    event RefCodeRevoked(bytes32 indexed refCode);

    /// @notice The claim lock delay was set.
    /// @param delay The new delay in seconds.
    event ClaimLockDelaySet(uint256 delay);

    /// @notice The longest claim lock delay the owner may set: 30 days.
    /// @return The delay in seconds.
    function MAX_CLAIM_LOCK_DELAY() external view returns (uint256);

    /// @notice How long claims of a code stay locked after its claim wallet was changed.
    /// @return The delay in seconds.
    function claimLockDelay() external view returns (uint256);

    /// @notice Issues a code. Only the owner.
    /// @param refCode keccak256 of the code text; not zero.
    /// @param claimWallet The account that may claim the code's fees; not zero.
    function registerRefCode(bytes32 refCode, address claimWallet) external;

    /// @notice Issues the code `keccak256(bytes(code))`. Only the owner.
    /// @param code The code text.
    /// @param claimWallet The account that may claim the code's fees; not zero.
    /// @return refCode The registered code.
    function registerRefCodeText(string calldata code, address claimWallet) external returns (bytes32 refCode);

    /// @notice Changes a code's claim wallet and locks its claims for `claimLockDelay`. Only the owner.
    /// @param refCode A registered code (active or revoked).
    /// @param claimWallet The new claim wallet; not zero.
    function setClaimWallet(bytes32 refCode, address claimWallet) external;

    /// @notice Stops a code from earning referral fees, for good. Only the owner.
    /// @param refCode An active code.
    function revokeRefCode(bytes32 refCode) external;

    /// @notice Sets how long claims stay locked after a claim wallet change. Only the owner.
    /// @param delay The delay in seconds, at most `MAX_CLAIM_LOCK_DELAY`.
    function setClaimLockDelay(uint256 delay) external;

    /// @notice Whether a code was ever registered.
    /// @param refCode The code.
    /// @return True when registered (active or revoked).
    function isRegistered(bytes32 refCode) external view returns (bool);

    /// @notice Whether a code earns referral fees.
    /// @param refCode The code.
    /// @return True when registered and not revoked.
    function isActive(bytes32 refCode) external view returns (bool);

    /// @notice The claim wallet of a code.
    /// @param refCode The code.
    /// @return The wallet; zero when the code is not registered.
    function claimWalletOf(bytes32 refCode) external view returns (address);

    /// @notice The time before which claims of a code are locked.
    /// @param refCode The code.
    /// @return The Unix time; 0 when the code was never locked.
    function claimUnlockTime(bytes32 refCode) external view returns (uint256);

    /// @notice Everything about a code in one call.
    /// @param refCode The code.
    /// @return The stored state (all zero when not registered).
    function refCodeInfo(bytes32 refCode) external view returns (RefCode memory);

    /// @notice The number of codes ever registered (revoked ones included).
    /// @return The count.
    function refCodeCount() external view returns (uint256);

    /// @notice The code registered in position `index` (registration order).
    /// @param index Below `refCodeCount()`.
    /// @return The code.
    function refCodeAt(uint256 index) external view returns (bytes32);
}
