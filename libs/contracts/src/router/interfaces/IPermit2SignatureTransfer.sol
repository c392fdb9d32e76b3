// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IPermit2SignatureTransfer
/// @notice The part of Uniswap's Permit2 (`SignatureTransfer`) that RouterV2 calls: a one-time transfer authorized by
/// the owner's EIP-712 signature over the token, the amount, the spender (the caller of Permit2), a nonce, a deadline
/// and a witness (a hash of data the spender binds to the transfer). Permit2 marks the nonce used (a bitmap per
/// owner, unordered), so a signature moves tokens once.
interface IPermit2SignatureTransfer {
    /// @notice The token and the most of it the signature allows to move.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// @notice What the owner signed: the token and amount, a nonce, and the last timestamp the signature is good for.
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Where the tokens go and how many (at most the permitted amount).
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    /// @notice Moves `transferDetails.requestedAmount` of `permit.permitted.token` from `owner` to
    /// `transferDetails.to`, checking `signature` over the permit, `msg.sender` as the spender and `witness` of the
    /// type `witnessTypeString` (the EIP-712 type of the witness struct and the types it references, after
    /// `PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,`).
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;

    /// @notice The bitmap of `owner`'s used nonces at `wordPosition` (nonce >> 8); bit `nonce & 0xff` set means used.
    function nonceBitmap(address owner, uint256 wordPosition) external view returns (uint256);

    /// @notice The EIP-712 domain separator of Permit2 on this chain.
    // forge-lint: disable-next-line(mixed-case-function)
    function DOMAIN_SEPARATOR() external view returns (bytes32);
}
