// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {Multicall3} from "../../src/Multicall3.sol";
import {IMulticall3} from "../../src/interfaces/IMulticall3.sol";
import {CallTarget} from "../mocks/CallTarget.sol";

contract Multicall3Test is Test {
    Multicall3 internal multicall;
    CallTarget internal target;

    function setUp() public {
        multicall = new Multicall3();
        target = new CallTarget();
        vm.label(address(multicall), "Multicall3");
        vm.label(address(target), "CallTarget");
    }

    function _call(bytes memory data) internal view returns (IMulticall3.Call memory) {
        return IMulticall3.Call(address(target), data);
    }

    function _call3(bool allowFailure, bytes memory data) internal view returns (IMulticall3.Call3 memory) {
        return IMulticall3.Call3(address(target), allowFailure, data);
    }

    function _failData(uint256 code) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(CallTarget.Failed.selector, code);
    }

    // ---------------------------------------------------------------- selectors

    function test_selectors_matchTheStandardMulticall3() public pure {
        assertEq(IMulticall3.aggregate.selector, bytes4(0x252dba42));
        assertEq(IMulticall3.tryAggregate.selector, bytes4(0xbce38bd7));
        assertEq(IMulticall3.tryBlockAndAggregate.selector, bytes4(0x399542e9));
        assertEq(IMulticall3.blockAndAggregate.selector, bytes4(0xc3077fa9));
        assertEq(IMulticall3.aggregate3.selector, bytes4(0x82ad56cb));
        assertEq(IMulticall3.aggregate3Value.selector, bytes4(0x174dea71));
        assertEq(IMulticall3.getBlockHash.selector, bytes4(0xee82ac5e));
        assertEq(IMulticall3.getBlockNumber.selector, bytes4(0x42cbb15c));
        assertEq(IMulticall3.getCurrentBlockCoinbase.selector, bytes4(0xa8b0574e));
        assertEq(IMulticall3.getCurrentBlockDifficulty.selector, bytes4(0x72425d9d));
        assertEq(IMulticall3.getCurrentBlockGasLimit.selector, bytes4(0x86d516e8));
        assertEq(IMulticall3.getCurrentBlockTimestamp.selector, bytes4(0x0f28c97d));
        assertEq(IMulticall3.getEthBalance.selector, bytes4(0x4d2301cc));
        assertEq(IMulticall3.getLastBlockHash.selector, bytes4(0x27e86d6e));
        assertEq(IMulticall3.getBasefee.selector, bytes4(0x3e64a696));
        assertEq(IMulticall3.getChainId.selector, bytes4(0x3408e470));
    }

    // ---------------------------------------------------------------- aggregate

    function test_aggregate_returnsEveryResultAndTheBlockNumber() public {
        vm.roll(42);
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.echo, (7)));
        calls[1] = _call(abi.encodeCall(CallTarget.store, (9)));

        (uint256 blockNumber, bytes[] memory returnData) = multicall.aggregate(calls);

        assertEq(blockNumber, 42);
        assertEq(returnData.length, 2);
        assertEq(abi.decode(returnData[0], (uint256)), 7);
        assertEq(returnData[1].length, 0);
        assertEq(target.stored(), 9);
    }

    function test_aggregate_revertsWhenACallFails() public {
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.echo, (1)));
        calls[1] = _call(abi.encodeCall(CallTarget.fail, (5)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 1, _failData(5)));
        multicall.aggregate(calls);
    }

    function test_aggregate_acceptsAnEmptyBatch() public {
        (uint256 blockNumber, bytes[] memory returnData) = multicall.aggregate(new IMulticall3.Call[](0));
        assertEq(blockNumber, block.number);
        assertEq(returnData.length, 0);
    }

    // ---------------------------------------------------------------- tryAggregate and the block variants

    function test_tryAggregate_reportsFailuresWhenNotRequired() public {
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.fail, (3)));
        calls[1] = _call(abi.encodeCall(CallTarget.echo, (4)));

        IMulticall3.Result[] memory results = multicall.tryAggregate(false, calls);

        assertFalse(results[0].success);
        assertEq(results[0].returnData, _failData(3));
        assertTrue(results[1].success);
        assertEq(abi.decode(results[1].returnData, (uint256)), 4);
    }

    function test_tryAggregate_revertsWhenRequired() public {
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.fail, (3)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 0, _failData(3)));
        multicall.tryAggregate(true, calls);
    }

    function test_tryBlockAndAggregate_returnsBlockNumberHashAndResults() public {
        vm.roll(100);
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.echo, (8)));
        calls[1] = _call(abi.encodeCall(CallTarget.fail, (1)));

        (uint256 blockNumber, bytes32 blockHash, IMulticall3.Result[] memory results) =
            multicall.tryBlockAndAggregate(false, calls);

        assertEq(blockNumber, 100);
        assertEq(blockHash, blockhash(100));
        assertTrue(results[0].success);
        assertFalse(results[1].success);
    }

    function test_tryBlockAndAggregate_revertsWhenRequired() public {
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.fail, (2)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 0, _failData(2)));
        multicall.tryBlockAndAggregate(true, calls);
    }

    function test_blockAndAggregate_returnsResults() public {
        vm.roll(7);
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.echo, (11)));

        (uint256 blockNumber,, IMulticall3.Result[] memory results) = multicall.blockAndAggregate(calls);

        assertEq(blockNumber, 7);
        assertTrue(results[0].success);
        assertEq(abi.decode(results[0].returnData, (uint256)), 11);
    }

    function test_blockAndAggregate_revertsWhenACallFails() public {
        IMulticall3.Call[] memory calls = new IMulticall3.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.fail, (6)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 0, _failData(6)));
        multicall.blockAndAggregate(calls);
    }

    // ---------------------------------------------------------------- aggregate3

    function test_aggregate3_allowFailureTrue_returnsTheFailure() public {
        IMulticall3.Call3[] memory calls = new IMulticall3.Call3[](3);
        calls[0] = _call3(false, abi.encodeCall(CallTarget.echo, (1)));
        calls[1] = _call3(true, abi.encodeCall(CallTarget.fail, (2)));
        calls[2] = _call3(false, abi.encodeCall(CallTarget.echo, (3)));

        IMulticall3.Result[] memory results = multicall.aggregate3(calls);

        assertEq(results.length, 3);
        assertTrue(results[0].success);
        assertEq(abi.decode(results[0].returnData, (uint256)), 1);
        assertFalse(results[1].success);
        assertEq(results[1].returnData, _failData(2));
        assertTrue(results[2].success);
        assertEq(abi.decode(results[2].returnData, (uint256)), 3);
    }

    function test_aggregate3_allowFailureFalse_revertsWithIndexAndReason() public {
        IMulticall3.Call3[] memory calls = new IMulticall3.Call3[](2);
        calls[0] = _call3(false, abi.encodeCall(CallTarget.store, (1)));
        calls[1] = _call3(false, abi.encodeCall(CallTarget.fail, (9)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 1, _failData(9)));
        multicall.aggregate3(calls);
        assertEq(target.stored(), 0);
    }

    function test_aggregate3_callToAnAccountWithoutCodeSucceedsEmpty() public {
        IMulticall3.Call3[] memory calls = new IMulticall3.Call3[](1);
        calls[0] = IMulticall3.Call3(makeAddr("nobody"), false, hex"12345678");

        IMulticall3.Result[] memory results = multicall.aggregate3(calls);

        assertTrue(results[0].success);
        assertEq(results[0].returnData.length, 0);
    }

    // ---------------------------------------------------------------- aggregate3Value

    function test_aggregate3Value_forwardsEachValue() public {
        IMulticall3.Call3Value[] memory calls = new IMulticall3.Call3Value[](2);
        calls[0] = IMulticall3.Call3Value(address(target), false, 1 ether, abi.encodeCall(CallTarget.pay, ()));
        calls[1] = IMulticall3.Call3Value(address(target), false, 2 ether, abi.encodeCall(CallTarget.pay, ()));

        IMulticall3.Result[] memory results = multicall.aggregate3Value{value: 3 ether}(calls);

        assertEq(abi.decode(results[0].returnData, (uint256)), 1 ether);
        assertEq(abi.decode(results[1].returnData, (uint256)), 2 ether);
        assertEq(address(target).balance, 3 ether);
        assertEq(address(multicall).balance, 0);
    }

    function test_aggregate3Value_revertsOnValueMismatch() public {
        IMulticall3.Call3Value[] memory calls = new IMulticall3.Call3Value[](1);
        calls[0] = IMulticall3.Call3Value(address(target), false, 1 ether, abi.encodeCall(CallTarget.pay, ()));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.ValueMismatch.selector, 1 ether, 2 ether));
        multicall.aggregate3Value{value: 2 ether}(calls);
    }

    function test_aggregate3Value_allowFailureFalse_reverts() public {
        IMulticall3.Call3Value[] memory calls = new IMulticall3.Call3Value[](1);
        calls[0] = IMulticall3.Call3Value(address(target), false, 0, abi.encodeCall(CallTarget.fail, (4)));

        vm.expectRevert(abi.encodeWithSelector(IMulticall3.CallFailed.selector, 0, _failData(4)));
        multicall.aggregate3Value(calls);
    }

    function test_aggregate3Value_allowFailureTrue_keepsTheFailedCallsValue() public {
        IMulticall3.Call3Value[] memory calls = new IMulticall3.Call3Value[](1);
        calls[0] = IMulticall3.Call3Value(address(target), true, 1 ether, abi.encodeCall(CallTarget.fail, (4)));

        IMulticall3.Result[] memory results = multicall.aggregate3Value{value: 1 ether}(calls);

        assertFalse(results[0].success);
        assertEq(address(multicall).balance, 1 ether);
    }

    // ---------------------------------------------------------------- getters

    function test_getters_readTheBlockAndChain() public {
        address miner = makeAddr("coinbase");
        address holder = makeAddr("holder");
        vm.roll(500);
        vm.warp(1_700_000_000);
        vm.coinbase(miner);
        vm.prevrandao(bytes32(uint256(1234)));
        vm.fee(7 gwei);
        vm.chainId(999);
        vm.deal(holder, 5 ether);
        vm.setBlockhash(499, keccak256("block 499"));
        vm.setBlockhash(450, keccak256("block 450"));

        assertEq(multicall.getBlockNumber(), 500);
        assertEq(multicall.getCurrentBlockTimestamp(), 1_700_000_000);
        assertEq(multicall.getCurrentBlockCoinbase(), miner);
        assertEq(multicall.getCurrentBlockPrevrandao(), 1234);
        assertEq(multicall.getCurrentBlockDifficulty(), 1234);
        assertEq(multicall.getCurrentBlockGasLimit(), block.gaslimit);
        assertEq(multicall.getBasefee(), 7 gwei);
        assertEq(multicall.getChainId(), 999);
        assertEq(multicall.getEthBalance(holder), 5 ether);
        assertEq(multicall.getLastBlockHash(), keccak256("block 499"));
        assertEq(multicall.getBlockHash(450), keccak256("block 450"));
        assertEq(multicall.getBlockHash(500), bytes32(0));
    }

    function test_getLastBlockHash_isZeroAtGenesis() public {
        vm.roll(0);
        assertEq(multicall.getLastBlockHash(), bytes32(0));
    }
}
