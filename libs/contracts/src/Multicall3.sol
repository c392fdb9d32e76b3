// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMulticall3} from "./interfaces/IMulticall3.sol";

/// @title Multicall3
/// @notice Batches calls and reads block values; ABI-compatible with the standard Multicall3 so that viem's
/// `multicall` works on chains that lack the canonical deployment. Holds no state. Native value sent to the
/// non-value entry points, or to failed calls that allow failure, stays in this contract.
contract Multicall3 is IMulticall3 {
    /// @inheritdoc IMulticall3
    function aggregate(Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes[] memory returnData)
    {
        blockNumber = block.number;
        uint256 length = calls.length;
        returnData = new bytes[](length);
        for (uint256 i; i < length; ++i) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!success) revert CallFailed(i, ret);
            returnData[i] = ret;
        }
    }

    /// @inheritdoc IMulticall3
    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        external
        payable
        returns (Result[] memory returnData)
    {
        returnData = _tryAggregate(requireSuccess, calls);
    }

    /// @inheritdoc IMulticall3
    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        returnData = _tryAggregate(requireSuccess, calls);
    }

    /// @inheritdoc IMulticall3
    function blockAndAggregate(Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        returnData = _tryAggregate(true, calls);
    }

    /// @inheritdoc IMulticall3
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call3 calldata call = calls[i];
            (bool success, bytes memory ret) = call.target.call(call.callData);
            if (!success && !call.allowFailure) revert CallFailed(i, ret);
            returnData[i] = Result(success, ret);
        }
    }

    /// @inheritdoc IMulticall3
    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        uint256 valueSum;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call3Value calldata call = calls[i];
            valueSum += call.value;
            (bool success, bytes memory ret) = call.target.call{value: call.value}(call.callData);
            if (!success && !call.allowFailure) revert CallFailed(i, ret);
            returnData[i] = Result(success, ret);
        }
        if (valueSum != msg.value) revert ValueMismatch(valueSum, msg.value);
    }

    /// @inheritdoc IMulticall3
    function getBlockHash(uint256 blockNumber) external view returns (bytes32 blockHash) {
        blockHash = blockhash(blockNumber);
    }

    /// @inheritdoc IMulticall3
    function getBlockNumber() external view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    /// @inheritdoc IMulticall3
    function getCurrentBlockCoinbase() external view returns (address coinbase) {
        coinbase = block.coinbase;
    }

    /// @inheritdoc IMulticall3
    function getCurrentBlockDifficulty() external view returns (uint256 difficulty) {
        difficulty = block.prevrandao;
    }

    /// @inheritdoc IMulticall3
    function getCurrentBlockPrevrandao() external view returns (uint256 prevrandao) {
        prevrandao = block.prevrandao;
    }

    /// @inheritdoc IMulticall3
    function getCurrentBlockGasLimit() external view returns (uint256 gaslimit) {
        gaslimit = block.gaslimit;
    }

    /// @inheritdoc IMulticall3
    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    /// @inheritdoc IMulticall3
    function getEthBalance(address addr) external view returns (uint256 balance) {
        balance = addr.balance;
    }

    /// @inheritdoc IMulticall3
    function getLastBlockHash() external view returns (bytes32 blockHash) {
        if (block.number == 0) return bytes32(0);
        // Cannot underflow: block.number is at least 1 here.
        unchecked {
            blockHash = blockhash(block.number - 1);
        }
    }

    /// @inheritdoc IMulticall3
    function getBasefee() external view returns (uint256 basefee) {
        basefee = block.basefee;
    }

    /// @inheritdoc IMulticall3
    function getChainId() external view returns (uint256 chainid) {
        chainid = block.chainid;
    }

    /// @dev Runs `calls` in order; a failed call reverts with `CallFailed` when `requireSuccess` is set.
    function _tryAggregate(bool requireSuccess, Call[] calldata calls) private returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!success && requireSuccess) revert CallFailed(i, ret);
            returnData[i] = Result(success, ret);
        }
    }
}
