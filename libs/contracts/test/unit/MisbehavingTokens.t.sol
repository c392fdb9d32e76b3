// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {RouterFixture} from "../router/RouterFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {TransferProbe} from "../../src/lens/TransferProbe.sol";
import {
    BlocklistToken,
    Bytes32MetadataToken,
    FeeOnTransferToken,
    ITokenHook,
    NoReturnToken,
    PausableToken,
    ReentrantToken,
    ReturnsFalseToken,
    RevertOnZeroToken
} from "../../src/devnet/MisbehavingTokens.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @notice A hook that re-enters RouterV2 when its account's tokens move.
contract ReenteringHook is ITokenHook {
    IRouterV2 internal immutable router;

    constructor(IRouterV2 router_) {
        router = router_;
    }

    function onTokenTransfer(address, address, uint256) external {
        address[] memory path = new address[](2);
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        router.executeSwaps(path, 1, 0, 0, hops, 0, address(0));
    }
}

contract MisbehavingTokensTest is RouterFixture {
    address internal holder = makeAddr("holder");
    address internal other = makeAddr("other");

    function _probe(address token)
        internal
        returns (TransferProbe.Step memory first, TransferProbe.Step memory second)
    {
        TransferProbe code = new TransferProbe();
        vm.etch(holder, address(code).code);
        vm.etch(other, address(code).code);
        return TransferProbe(holder).probe(token, other);
    }

    function test_feeOnTransfer_takesTheFeeOnTransfersNotOnMints() public {
        FeeOnTransferToken t = new FeeOnTransferToken("Fee", "FOT", 100);
        t.mint(alice, 1_000);
        assertEq(t.balanceOf(alice), 1_000);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1_000));
        assertEq(t.balanceOf(bob), 990);
        assertEq(t.totalSupply(), 990);
    }

    function test_probe_measuresTheFeeOfBothTransfers() public {
        FeeOnTransferToken t = new FeeOnTransferToken("Fee", "FOT", 250);
        t.mint(holder, 10_000);
        (TransferProbe.Step memory first, TransferProbe.Step memory second) = _probe(address(t));
        assertEq(first.outcome, 0);
        assertEq(first.sent, 1_000);
        assertEq(first.received, 975);
        assertEq(second.sent, 975);
        assertEq(second.received, 951);
    }

    function test_returnsFalse_movesButAnswersFalse_andTheProbeSaysSo() public {
        ReturnsFalseToken t = new ReturnsFalseToken("False", "RFALSE");
        t.mint(alice, 10);
        vm.prank(alice);
        assertFalse(t.transfer(bob, 10));
        assertEq(t.balanceOf(bob), 10);
        t.mint(holder, 100);
        (TransferProbe.Step memory first,) = _probe(address(t));
        assertEq(first.outcome, 2);
    }

    function test_noReturn_answersNothing_andTheProbeAcceptsIt() public {
        NoReturnToken t = new NoReturnToken("No Return", "NORET", 6);
        t.mint(holder, 100);
        (bool ok, bytes memory answer) = holder.call(abi.encodeCall(NoReturnToken.transfer, (bob, 0)));
        assertTrue(ok);
        assertEq(answer.length, 0);
        (TransferProbe.Step memory first, TransferProbe.Step memory second) = _probe(address(t));
        assertEq(first.outcome, 0);
        assertEq(second.outcome, 0);
        assertEq(first.received, 10);
    }

    function test_revertOnZero_revertsZeroTransfersOnly() public {
        RevertOnZeroToken t = new RevertOnZeroToken("Zero", "RZERO");
        t.mint(alice, 1);
        vm.prank(alice);
        vm.expectRevert(RevertOnZeroToken.ZeroTransfer.selector);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, 0);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1));
    }

    function test_pausable_revertsWhilePaused_andTheProbeSaysSo() public {
        PausableToken t = new PausableToken("Pause", "PAUSE");
        t.mint(holder, 100);
        t.pause();
        (TransferProbe.Step memory first,) = _probe(address(t));
        assertEq(first.outcome, 1);
        assertEq(bytes4(first.revertData), Pausable.EnforcedPause.selector);
        t.unpause();
        (first,) = _probe(address(t));
        assertEq(first.outcome, 0);
    }

    function test_blocklist_revertsForABlockedReceiver_andTheProbeSaysSo() public {
        BlocklistToken t = new BlocklistToken("Block", "BLOCK");
        t.mint(holder, 100);
        t.blockAccount(other);
        (TransferProbe.Step memory first,) = _probe(address(t));
        assertEq(first.outcome, 1);
        assertEq(first.revertData, abi.encodeWithSelector(BlocklistToken.BlockedAccount.selector, other));
    }

    function test_bytes32Metadata_answersOneWord() public {
        // forge-lint: disable-next-line(unsafe-typecast)
        Bytes32MetadataToken t = new Bytes32MetadataToken(bytes32("Maker"), bytes32("MKR"));
        (bool ok, bytes memory answer) = address(t).staticcall(abi.encodeWithSignature("symbol()"));
        assertTrue(ok);
        assertEq(answer.length, 32);
        // forge-lint: disable-next-line(unsafe-typecast)
        assertEq(bytes32(answer), bytes32("MKR"));
    }

    function test_probe_reportsAHolderWithNoBalance() public {
        PausableToken t = new PausableToken("Pause", "PAUSE");
        (TransferProbe.Step memory first,) = _probe(address(t));
        assertEq(first.outcome, 3);
    }

    /// @dev A sender whose hook re-enters RouterV2 while the router pulls its input: the router's guard reverts the
    /// inner call, the hook's revert reverts the transfer, and the whole swap reverts; nothing moves.
    function test_reentrantHook_cannotReenterTheRouter() public {
        ReentrantToken t = new ReentrantToken("Hook", "HOOK");
        address pair = v2A.createPair(address(t), address(tokenA));
        t.mint(pair, 1_000e18);
        tokenA.mint(pair, 1_000e18);
        UniswapV2Pair(pair).mint(address(this));
        ReenteringHook hook = new ReenteringHook(router);
        t.mint(alice, 10e18);
        vm.startPrank(alice);
        t.approve(address(router), type(uint256).max);
        t.setHook(address(hook));
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        router.executeSwaps(
            _path(address(t), address(tokenA)),
            1e18,
            0,
            0,
            _hops(_swap(pair, address(t), address(tokenA), V2_A, 1e18)),
            0,
            address(0)
        );
        vm.stopPrank();
        assertEq(t.balanceOf(alice), 10e18);
        // Without the hook the same swap goes through and leaves nothing in the router.
        vm.prank(alice);
        t.setHook(address(0));
        vm.prank(alice);
        router.executeSwaps(
            _path(address(t), address(tokenA)),
            1e18,
            0,
            0,
            _hops(_swap(pair, address(t), address(tokenA), V2_A, 1e18)),
            0,
            address(0)
        );
        assertGt(tokenA.balanceOf(alice), 0);
        assertEq(t.balanceOf(address(router)), 0);
    }
}
