// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IMulticall3
/// @notice The standard Multicall3 interface: batches read and write calls into one transaction or `eth_call`,
/// and exposes block and chain values. viem's `multicall` action talks to it through `aggregate3`.
interface IMulticall3 {
    /// @notice A call that must succeed.
    struct Call {
        address target;
        bytes callData;
    }

    /// @notice A call that may be allowed to fail.
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    /// @notice A call that may be allowed to fail and forwards native value.
    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    /// @notice The outcome of one call.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice A call that was required to succeed reverted.
    /// @param index Position of the failed call in the batch.
    /// @param returnData The revert data the call returned.
    error CallFailed(uint256 index, bytes returnData);

    /// @notice The native value sent with `aggregate3Value` differs from the sum of the calls' values.
    /// @param expected Sum of the `value` fields of the calls.
    /// @param received `msg.value` of the batch.
    error ValueMismatch(uint256 expected, uint256 received);

    /// @notice Runs every call and reverts if any fails.
    /// @param calls The calls to run, in order.
    /// @return blockNumber The current block number.
    /// @return returnData The data each call returned.
    function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData);

    /// @notice Runs every call; reverts on a failure only if `requireSuccess` is true.
    /// @param requireSuccess Whether a failed call reverts the whole batch.
    /// @param calls The calls to run, in order.
    /// @return returnData The outcome of each call.
    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        external
        payable
        returns (Result[] memory returnData);

    /// @notice Like `tryAggregate`, and also returns the block number and hash.
    /// @param requireSuccess Whether a failed call reverts the whole batch.
    /// @param calls The calls to run, in order.
    /// @return blockNumber The current block number.
    /// @return blockHash The hash of the current block (zero: not yet known inside the block).
    /// @return returnData The outcome of each call.
    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData);

    /// @notice `tryBlockAndAggregate` with `requireSuccess` set to true.
    /// @param calls The calls to run, in order.
    /// @return blockNumber The current block number.
    /// @return blockHash The hash of the current block (zero: not yet known inside the block).
    /// @return returnData The outcome of each call.
    function blockAndAggregate(Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData);

    /// @notice Runs every call; a failed call reverts the batch unless it allows failure.
    /// @param calls The calls to run, in order.
    /// @return returnData The outcome of each call.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData);

    /// @notice Like `aggregate3`, forwarding each call's `value`; `msg.value` must equal their sum.
    /// @param calls The calls to run, in order.
    /// @return returnData The outcome of each call.
    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory returnData);

    /// @notice The hash of a block (zero outside the last 256 blocks).
    /// @param blockNumber The block to look up.
    /// @return blockHash Its hash.
    function getBlockHash(uint256 blockNumber) external view returns (bytes32 blockHash);

    /// @notice The current block number.
    /// @return blockNumber `block.number`.
    function getBlockNumber() external view returns (uint256 blockNumber);

    /// @notice The current block's beneficiary.
    /// @return coinbase `block.coinbase`.
    function getCurrentBlockCoinbase() external view returns (address coinbase);

    /// @notice The current block's randomness beacon; the pre-merge name, kept for compatibility.
    /// @return difficulty `block.prevrandao`.
    function getCurrentBlockDifficulty() external view returns (uint256 difficulty);

    /// @notice The current block's randomness beacon.
    /// @return prevrandao `block.prevrandao`.
    function getCurrentBlockPrevrandao() external view returns (uint256 prevrandao);

    /// @notice The current block's gas limit.
    /// @return gaslimit `block.gaslimit`.
    function getCurrentBlockGasLimit() external view returns (uint256 gaslimit);

    /// @notice The current block's timestamp.
    /// @return timestamp `block.timestamp`.
    function getCurrentBlockTimestamp() external view returns (uint256 timestamp);

    /// @notice The native balance of an account.
    /// @param addr The account.
    /// @return balance Its balance in wei.
    function getEthBalance(address addr) external view returns (uint256 balance);

    /// @notice The hash of the previous block (zero in the genesis block).
    /// @return blockHash `blockhash(block.number - 1)`.
    function getLastBlockHash() external view returns (bytes32 blockHash);

    /// @notice The current block's base fee.
    /// @return basefee `block.basefee`.
    function getBasefee() external view returns (uint256 basefee);

    /// @notice The chain id.
    /// @return chainid `block.chainid`.
    function getChainId() external view returns (uint256 chainid);
}
