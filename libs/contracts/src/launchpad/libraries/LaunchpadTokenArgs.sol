// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @title LaunchpadTokenArgs
/// @notice The immutable arguments of a launched token. Every token is an EIP-1167 minimal proxy (OpenZeppelin
/// `Clones`) of one LaunchpadToken implementation, and its per-token constants are appended to the proxy's 45
/// bytes of code instead of being written to storage (200 gas per byte of code against 22,100 per storage slot):
///
///     factory (20 bytes) | creator (20 bytes) | name length (2 bytes, big-endian) | name | symbol
///
/// `factory` is the V2-style DEX factory whose pair the token graduates to; `creator` is the account whose
/// transfers the token refuses during the creator's sell lock (the lock's end is in the token's storage: a time in
/// the code would make the token's CREATE2 address depend on the creation block's time); the symbol runs to the
/// end of the code. Reading an argument copies it out of the token's code (EXTCODECOPY), which the token does for
/// `name()` / `symbol()` and the launchpad for its events and views.
library LaunchpadTokenArgs {
    /// @dev Where the arguments start in a clone's code: after the 45-byte EIP-1167 proxy.
    uint256 private constant ARGS = 0x2d;
    /// @dev The creator's offset in the code: after the factory (ARGS + 20; inline assembly takes literals only).
    uint256 private constant CREATOR = 0x41;
    /// @dev The name length's offset in the code: after the creator (CREATOR + 20).
    uint256 private constant NAME_LENGTH = 0x55;
    /// @dev The name's offset in the code: after the name length.
    uint256 private constant NAME = NAME_LENGTH + 2;

    /// @notice The arguments of a token graduating on `dexFactory`, created by `tokenCreator`, named
    /// (`tokenName`, `tokenSymbol`).
    /// @dev The name is at most 65,535 bytes (SafeCast reverts beyond); the whole is at most 24,531 bytes, or
    /// the clone's deployment reverts (`Clones.CloneArgumentsTooLong`).
    function encode(address dexFactory, address tokenCreator, string memory tokenName, string memory tokenSymbol)
        internal
        pure
        returns (bytes memory)
    {
        return
            abi.encodePacked(
                dexFactory, tokenCreator, SafeCast.toUint16(bytes(tokenName).length), tokenName, tokenSymbol
            );
    }

    /// @notice The DEX factory of the token's pair.
    function factory(address token) internal view returns (address result) {
        assembly ("memory-safe") {
            // The scratch space (0x00-0x3f) holds the 20 bytes.
            extcodecopy(token, 0, ARGS, 20)
            result := shr(96, mload(0))
        }
    }

    /// @notice The token's creator.
    function creator(address token) internal view returns (address result) {
        assembly ("memory-safe") {
            extcodecopy(token, 0, CREATOR, 20)
            result := shr(96, mload(0))
        }
    }

    /// @notice The token's name.
    function name(address token) internal view returns (string memory) {
        return _copy(token, NAME, _nameLength(token));
    }

    /// @notice The token's symbol.
    function symbol(address token) internal view returns (string memory) {
        uint256 start = NAME + _nameLength(token);
        return _copy(token, start, token.code.length - start);
    }

    function _nameLength(address token) private view returns (uint256 length) {
        assembly ("memory-safe") {
            extcodecopy(token, 0, NAME_LENGTH, 2)
            length := shr(240, mload(0))
        }
    }

    function _copy(address token, uint256 offset, uint256 length) private view returns (string memory result) {
        result = new string(length);
        assembly ("memory-safe") {
            extcodecopy(token, add(result, 0x20), offset, length)
        }
    }
}
