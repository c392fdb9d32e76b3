// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev The address forge serves cheatcodes at: address(uint160(uint256(keccak256("hevm cheat code")))).
address constant VM_ADDRESS = 0x7109709ECfa91a80626fF3989D68f67F5b1DD12D;

/// @title Vm
/// @notice The subset of forge's cheatcodes our tests use. Signatures follow forge's cheatcode spec; add more
/// here as tests need them.
interface Vm {
    /// @notice A log recorded by `recordLogs`.
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    // Environment.
    function warp(uint256 newTimestamp) external;
    function roll(uint256 newHeight) external;
    function fee(uint256 newBasefee) external;
    function chainId(uint256 newChainId) external;
    function coinbase(address newCoinbase) external;
    function prevrandao(bytes32 newPrevrandao) external;
    function setBlockhash(uint256 blockNumber, bytes32 blockHash) external;
    function deal(address account, uint256 newBalance) external;
    function etch(address target, bytes calldata newRuntimeBytecode) external;
    function getNonce(address account) external view returns (uint64 nonce);
    function computeCreateAddress(address deployer, uint256 nonce) external pure returns (address);

    // Files and JSON (paths readable under foundry.toml's fs_permissions).
    function readFile(string calldata path) external view returns (string memory data);
    function parseJsonString(string calldata json, string calldata key) external pure returns (string memory);
    function parseBytes(string calldata stringifiedValue) external pure returns (bytes memory parsedValue);

    // Callers.
    function prank(address msgSender) external;
    function prank(address msgSender, address txOrigin) external;
    function startPrank(address msgSender) external;
    function startPrank(address msgSender, address txOrigin) external;
    function stopPrank() external;

    // Expectations.
    function expectRevert() external;
    function expectRevert(bytes4 revertData) external;
    function expectRevert(bytes calldata revertData) external;
    function expectEmit() external;
    function expectEmit(address emitter) external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData) external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData, address emitter) external;
    function expectCall(address callee, bytes calldata data) external;
    function expectCall(address callee, bytes calldata data, uint64 count) external;

    // Logs.
    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory logs);

    // Fuzzing.
    function assume(bool condition) external pure;

    // Accounts, keys and labels.
    function addr(uint256 privateKey) external pure returns (address keyAddr);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    function signCompact(uint256 privateKey, bytes32 digest) external pure returns (bytes32 r, bytes32 vs);
    function label(address account, string calldata newLabel) external;
    function toString(uint256 value) external pure returns (string memory stringifiedValue);

    // Assertions (they revert with a readable message on failure).
    function assertTrue(bool condition) external pure;
    function assertTrue(bool condition, string calldata message) external pure;
    function assertFalse(bool condition) external pure;
    function assertFalse(bool condition, string calldata message) external pure;
    function assertEq(bool left, bool right) external pure;
    function assertEq(bool left, bool right, string calldata message) external pure;
    function assertEq(uint256 left, uint256 right) external pure;
    function assertEq(uint256 left, uint256 right, string calldata message) external pure;
    function assertEq(int256 left, int256 right) external pure;
    function assertEq(int256 left, int256 right, string calldata message) external pure;
    function assertEq(address left, address right) external pure;
    function assertEq(address left, address right, string calldata message) external pure;
    function assertEq(bytes32 left, bytes32 right) external pure;
    function assertEq(bytes32 left, bytes32 right, string calldata message) external pure;
    function assertEq(bytes calldata left, bytes calldata right) external pure;
    function assertEq(bytes calldata left, bytes calldata right, string calldata message) external pure;
    function assertEq(string calldata left, string calldata right) external pure;
    function assertEq(string calldata left, string calldata right, string calldata message) external pure;
    function assertGt(uint256 left, uint256 right) external pure;
    function assertGt(uint256 left, uint256 right, string calldata message) external pure;
    function assertGe(uint256 left, uint256 right) external pure;
    function assertGe(uint256 left, uint256 right, string calldata message) external pure;
    function assertLt(uint256 left, uint256 right) external pure;
    function assertLt(uint256 left, uint256 right, string calldata message) external pure;
    function assertLe(uint256 left, uint256 right) external pure;
    function assertLe(uint256 left, uint256 right, string calldata message) external pure;
    function assertApproxEqAbs(uint256 left, uint256 right, uint256 maxDelta) external pure;
    function assertApproxEqAbs(uint256 left, uint256 right, uint256 maxDelta, string calldata message) external pure;
}
