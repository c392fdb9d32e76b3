// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {
    PERMIT2_WITNESS_STUB,
    PERMIT_WITNESS_TRANSFER_FROM_TYPE,
    Permit2RouteSigning,
    RouterV2Permit2Fixture,
    SWAP_ROUTE_TYPE,
    SWAP_ROUTE_TYPEHASH
} from "./RouterV2Permit2Fixture.sol";
import {FeeOnTransferToken} from "../mocks/BadTokens.sol";
import {PERMIT2} from "../base/Permit2.sol";
import {Vm} from "../base/Vm.sol";
import {RouterV2Permit2} from "../../src/router/RouterV2Permit2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IRouterV2Permit2} from "../../src/router/interfaces/IRouterV2Permit2.sol";
import {IPermit2SignatureTransfer} from "../../src/router/interfaces/IPermit2SignatureTransfer.sol";

/// @notice A contract wallet that signs per EIP-1271 with its owner's key and has approved Permit2.
contract Eip1271Wallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function approve(address token, address spender) external {
        IERC20(token).approve(spender, type(uint256).max);
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// @notice `RouterV2Permit2`: a wallet that approved Permit2 only (never the router) signs a route, and the route
/// runs through RouterV2 with exactly the input it signed, paying exactly what the router reports to the recipient
/// it signed, whoever sends the transaction. The signatures are made here from EIP-712 and Permit2's
/// `PermitWitnessTransferFrom` (see the fixture); the expected amounts from the pools' reference math.
contract RouterV2Permit2Test is RouterV2Permit2Fixture {
    // ---------------------------------------------------------------- deployment and the signed types

    function test_constructor_setsRouterAndPermit2() public view {
        assertEq(permitRouter.router(), address(router));
        assertEq(permitRouter.permit2(), PERMIT2);
        assertGt(PERMIT2.code.length, 0, "Permit2 not deployed");
    }

    function test_constructor_revertsOnAnAccountWithoutCode() public {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2Permit2.NotAContract.selector, alice));
        new RouterV2Permit2(alice, permit2);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2Permit2.NotAContract.selector, bob));
        new RouterV2Permit2(address(router), bob);
    }

    function test_typeStrings_areTheTypesTheWalletSigns() public view {
        assertEq(permitRouter.SWAP_ROUTE_TYPE(), SWAP_ROUTE_TYPE);
        // What Permit2 hashes: its stub, then the spender's witness type string.
        assertEq(
            string.concat(PERMIT2_WITNESS_STUB, permitRouter.WITNESS_TYPE_STRING()), PERMIT_WITNESS_TRANSFER_FROM_TYPE
        );
        assertEq(keccak256(bytes(permitRouter.SWAP_ROUTE_TYPE())), SWAP_ROUTE_TYPEHASH);
    }

    function test_permit2_domainSeparatorIsEip712s() public view {
        assertEq(block.chainid, CHAIN_ID);
        assertEq(IPermit2SignatureTransfer(permit2).DOMAIN_SEPARATOR(), Permit2RouteSigning.domainSeparator(CHAIN_ID));
        assertEq(
            Permit2RouteSigning.domainSeparator(CHAIN_ID),
            keccak256(
                abi.encode(
                    keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)"),
                    keccak256("Permit2"),
                    uint256(999),
                    address(0x000000000022D473030F116dDEE9F6B43aC78BA3)
                )
            )
        );
    }

    /// @dev Why the fixture leaves chain 31337: the artifact's code caches a domain separator for 31337 and an
    /// address other than Permit2's, so there a wallet's EIP-712 signature (verifyingContract = Permit2) fails.
    function test_permit2_artifactCachesAForeignDomainOnChain31337() public {
        vm.chainId(31_337);
        bytes32 cached = IPermit2SignatureTransfer(permit2).DOMAIN_SEPARATOR();
        assertEq(cached, 0xd5a17abc3865df5c1400c0299bd4ce2eefc8114aec5f9d3dded1745783e57b98);
        assertTrue(cached != Permit2RouteSigning.domainSeparator(31_337), "canonical on 31337");
        vm.chainId(1);
        assertEq(IPermit2SignatureTransfer(permit2).DOMAIN_SEPARATOR(), Permit2RouteSigning.domainSeparator(1));
    }

    function test_permit2_errorSelectors() public pure {
        assertEq(bytes32(INVALID_SIGNER), bytes32(bytes4(keccak256("InvalidSigner()"))));
        assertEq(bytes32(INVALID_NONCE), bytes32(bytes4(keccak256("InvalidNonce()"))));
        assertEq(bytes32(SIGNATURE_EXPIRED), bytes32(bytes4(keccak256("SignatureExpired(uint256)"))));
        assertEq(bytes32(INVALID_SIGNATURE), bytes32(bytes4(keccak256("InvalidSignature()"))));
        assertEq(bytes32(INVALID_SIGNATURE_LENGTH), bytes32(bytes4(keccak256("InvalidSignatureLength()"))));
    }

    function test_routeWitness_isTheIndependentHash() public view {
        Route[] memory routes = new Route[](5);
        routes[0] = _abRoute();
        routes[1] = _splitRoute();
        routes[2] = _twoHopRoute();
        routes[3] = _nativeOutRoute();
        routes[4] = _feeRoute();
        for (uint256 i; i < routes.length; ++i) {
            assertEq(_contractWitness(routes[i]), _witness(routes[i], address(router)), "witness");
        }
        // Every field is in it.
        assertTrue(_contractWitness(routes[0]) != _contractWitness(routes[4]), "fee route");
    }

    // ---------------------------------------------------------------- routes from a wallet that approved Permit2 only

    function test_singleHop_fromAWalletThatApprovedOnlyPermit2() public {
        Route memory r = _abRoute();
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        r.minAmountOut = expectedOut;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 0);
        Before memory b = _before(r);
        assertEq(tokenA.allowance(signer, address(router)), 0);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(
            address(permitRouter), signer, address(tokenA), address(tokenB), AMOUNT, expectedOut, expectedOut
        );
        vm.expectEmit(address(permitRouter));
        emit IRouterV2Permit2.SwapSigned(signer, signer, 0, AMOUNT);
        uint256 out = _send(signer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether + AMOUNT, "pair's input");
        assertTrue(_nonceUsed(signer, 0), "nonce not spent");
    }

    function test_splitStage() public {
        Route memory r = _splitRoute();
        uint256 share0 = (r.amountIn * 600) / 1_000;
        uint256 share1 = r.amountIn - share0;
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), share0, V2_A_FEE_BPS)
            + _v2Quote(pairAB2, address(tokenA), share1, V2_B_FEE_BPS);
        r.minAmountOut = expectedOut;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 1);
        Before memory b = _before(r);

        uint256 out = _send(signer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, r.amountIn, out);
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether + share0, "first pool's share");
        assertEq(tokenA.balanceOf(pairAB2), 500_000 ether + share1, "second pool's share");
    }

    function test_multiHop() public {
        Route memory r = _twoHopRoute();
        uint256 outB = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 outC = _v2Quote(pairBC, address(tokenB), outB, V2_A_FEE_BPS);
        r.minAmountOut = outC;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 2);
        Before memory b = _before(r);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(address(permitRouter), signer, address(tokenA), address(tokenC), AMOUNT, outC, outC);
        uint256 out = _send(signer, r, permit);

        assertEq(out, outC);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(tokenB.balanceOf(signer), 0, "intermediate token paid out");
    }

    function test_nativeOutput() public {
        Route memory r = _nativeOutRoute();
        uint256 expectedOut = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        r.minAmountOut = expectedOut;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 3);
        Before memory b = _before(r);
        assertEq(b.recipientOut, 0);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(
            address(permitRouter), bob, address(tokenA), address(0), AMOUNT, expectedOut, expectedOut
        );
        uint256 out = _send(signer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(bob.balance, expectedOut, "native output");
        assertEq(wnative.balanceOf(bob), 0, "wrapped output");
    }

    function test_integratorFeeAndSlippageCapture() public {
        Route memory r = _feeRoute();
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            _referenceSplit(gross, r.expectedAmountOut, r.feeBps, true);
        assertGt(recipientSlip, 0);
        r.minAmountOut = user;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 4);
        Before memory b = _before(r);

        vm.expectEmit(address(router));
        emit IRouterV2.FeesCollected(address(tokenB), integrator, integratorFee, protocolFee - protocolSlip);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(
            address(permitRouter), signer, address(tokenA), address(tokenB), AMOUNT, user, gross
        );
        uint256 out = _send(signer, r, permit);

        assertEq(out, user);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(tokenB.balanceOf(integrator), integratorFee + recipientSlip, "integrator");
        assertEq(tokenB.balanceOf(treasury), protocolFee, "treasury");
        assertEq(out + tokenB.balanceOf(integrator) + tokenB.balanceOf(treasury), gross, "gross split");
    }

    function test_relayerSendsTheTransaction() public {
        Route memory r = _abRoute();
        r.recipient = bob;
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 5);
        Before memory b = _before(r);

        vm.expectEmit(address(permitRouter));
        emit IRouterV2Permit2.SwapSigned(signer, relayer, 5, AMOUNT);
        uint256 out = _send(relayer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(tokenB.balanceOf(bob), expectedOut, "recipient");
        assertEq(tokenA.balanceOf(relayer) + tokenB.balanceOf(relayer), 0, "relayer paid or was paid");
        assertEq(tokenB.balanceOf(signer), 0, "signer is not the recipient");
    }

    function test_swapSigned_eventFields() public {
        Route memory r = _twoHopRoute();
        // A nonce far into Permit2's unordered space: word 2^190, bit 0x2a.
        uint256 nonce = (uint256(1) << 198) | 0x2a;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, nonce);

        vm.recordLogs();
        _send(relayer, r, permit);
        Vm.Log[] memory logs = vm.getRecordedLogs();

        uint256 found;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != address(permitRouter)) continue;
            ++found;
            assertEq(logs[i].topics.length, 3, "topics");
            assertEq(logs[i].topics[0], IRouterV2Permit2.SwapSigned.selector, "event");
            assertEq(logs[i].topics[0], keccak256("SwapSigned(address,address,uint256,uint256)"), "signature");
            assertEq(logs[i].topics[1], bytes32(uint256(uint160(signer))), "signer");
            assertEq(logs[i].topics[2], bytes32(uint256(uint160(relayer))), "sender");
            (uint256 loggedNonce, uint256 amountIn) = abi.decode(logs[i].data, (uint256, uint256));
            assertEq(loggedNonce, nonce, "nonce");
            assertEq(amountIn, AMOUNT, "amountIn");
            // It is the last event of the call.
            assertEq(i, logs.length - 1, "not last");
        }
        assertEq(found, 1, "one SwapSigned");
        assertTrue(_nonceUsed(signer, nonce), "nonce not spent");
        assertFalse(_nonceUsed(signer, nonce ^ 1), "neighbour spent");
    }

    function test_compactSignature_eip2098() public {
        Route memory r = _abRoute();
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        (bytes32 sigR, bytes32 vs) = vm.signCompact(signerKey, _digest(r, 6));
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: signer, nonce: 6, signature: abi.encodePacked(sigR, vs)});
        assertEq(permit.signature.length, 64);
        Before memory b = _before(r);

        uint256 out = _send(signer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, AMOUNT, out);
    }

    function test_contractWallet_eip1271() public {
        uint256 ownerKey = uint256(keccak256("wallet owner"));
        Eip1271Wallet wallet = new Eip1271Wallet(vm.addr(ownerKey));
        _fund(address(tokenA), address(wallet), AMOUNT);
        wallet.approve(address(tokenA), permit2);
        Route memory r = _abRoute();
        r.recipient = address(wallet);
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2Permit2.Permit2Signature memory permit = IRouterV2Permit2.Permit2Signature({
            signer: address(wallet), nonce: 0, signature: _sign(ownerKey, _digest(r, 0))
        });

        uint256 out = _send(relayer, r, permit);

        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(address(wallet)), 0, "wallet's input");
        assertEq(tokenB.balanceOf(address(wallet)), expectedOut, "wallet's output");
        _assertNothingHeld();
    }

    function test_deadlineIsInclusive() public {
        vm.warp(1_000);
        Route memory r = _abRoute();
        r.deadline = block.timestamp;
        Before memory b = _before(r);
        uint256 out = _send(signer, r, _signRoute(r, 7));
        assertEq(out, _v2QuoteBefore());
        _assertSettled(r, b, AMOUNT, out);
    }

    function test_standingAllowanceToTheRouter_isSetOnceAndServesLaterSigners() public {
        assertEq(tokenA.allowance(address(permitRouter), address(router)), 0);
        Route memory r = _abRoute();
        _send(signer, r, _signRoute(r, 8));
        assertEq(tokenA.allowance(address(permitRouter), address(router)), type(uint256).max, "standing allowance");

        // A second wallet's route spends it without writing it again.
        uint256 otherKey = uint256(keccak256("second signer"));
        address other = vm.addr(otherKey);
        _fund(address(tokenA), other, AMOUNT);
        vm.prank(other);
        tokenA.approve(permit2, AMOUNT);
        Route memory r2 = _abRoute();
        r2.recipient = other;
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: other, nonce: 8, signature: _sign(otherKey, _digest(r2, 8))});
        uint256 out = _send(relayer, r2, permit);
        assertEq(out, expectedOut);
        assertEq(tokenA.balanceOf(other), 0, "second signer's input");
        assertEq(tokenB.balanceOf(other), expectedOut, "second signer's output");
        // Permit2 moved the input with the token allowance the wallet gave it (exactly AMOUNT here).
        assertEq(tokenA.allowance(other, permit2), 0, "token allowance to Permit2");
        assertEq(tokenA.allowance(other, address(router)), 0, "second signer approved the router");
        assertEq(tokenA.allowance(address(permitRouter), address(router)), type(uint256).max);
        _assertNothingHeld();
    }

    // ---------------------------------------------------------------- fee-on-transfer input

    function test_feeOnTransferInput_spendsWhatArrived() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100);
        watchedTokens.push(address(fot));
        address pair = _addV2Liquidity(v2A, address(fot), 1_000_000 ether, address(tokenA), 1_000_000 ether);
        _fundSigner(address(fot), SIGNER_BALANCE);

        Route memory r = _route(
            _path(address(fot), address(tokenA)),
            AMOUNT,
            _hops(_swap(pair, address(fot), address(tokenA), V2_A, AMOUNT))
        );
        // Permit2 moves the signed amount from the signer, which pays the token's fee once; the router pulls what
        // arrived from `permitRouter` into the pair, which pays it again.
        uint256 received = AMOUNT - AMOUNT / 100;
        uint256 atPair = received - received / 100;
        uint256 expectedOut = _v2Quote(pair, address(fot), atPair, V2_A_FEE_BPS);
        r.minAmountOut = expectedOut;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 9);
        Before memory b = _before(r);

        vm.expectEmit(address(fot));
        emit IERC20.Transfer(signer, address(permitRouter), received);
        vm.expectEmit(address(fot));
        emit IERC20.Transfer(address(permitRouter), pair, atPair);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(
            address(permitRouter), signer, address(fot), address(tokenA), atPair, expectedOut, expectedOut
        );
        vm.expectEmit(address(permitRouter));
        emit IRouterV2Permit2.SwapSigned(signer, signer, 9, received);
        uint256 out = _send(signer, r, permit);

        assertEq(out, expectedOut);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(fot.balanceOf(pair), 1_000_000 ether + atPair, "pair's input");
    }

    // ---------------------------------------------------------------- failures

    function test_revert_expired() public {
        vm.warp(1_000);
        Route memory r = _abRoute();
        r.deadline = 999;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 10);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2Permit2.DeadlineExpired.selector, 999, 1_000));
        _send(signer, r, permit);
        assertFalse(_nonceUsed(signer, 10), "nonce spent");
        assertEq(tokenA.balanceOf(signer), SIGNER_BALANCE);
    }

    function test_revert_nativeInputIsNotSigned() public {
        _fundSigner(address(wnative), AMOUNT);
        Route memory r = _route(
            _path(address(0), address(tokenA)),
            10 ether,
            _hops(_swap(pairAW, address(wnative), address(tokenA), V2_A, 10 ether))
        );
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 11);
        vm.expectRevert(IRouterV2Permit2.NativeInputNotSigned.selector);
        _send(signer, r, permit);
        assertEq(wnative.balanceOf(signer), AMOUNT);
    }

    function test_revert_recipientOrFeeRecipientIsTheEntry() public {
        Route memory r = _abRoute();
        r.recipient = address(permitRouter);
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 13);
        vm.expectRevert(IRouterV2Permit2.RecipientIsEntry.selector);
        _send(signer, r, permit);

        r = _abRoute();
        r.feeBps = 10;
        r.feeRecipient = address(permitRouter);
        permit = _signRoute(r, 14);
        vm.expectRevert(IRouterV2Permit2.RecipientIsEntry.selector);
        _send(signer, r, permit);
        _assertNothingHeld();
    }

    function test_revert_emptyPath() public {
        Route memory r = _abRoute();
        r.tokens = new address[](0);
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: signer, nonce: 12, signature: new bytes(65)});
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _send(signer, r, permit);
    }

    function test_revert_signerWithoutPermit2Approval() public {
        uint256 freshKey = uint256(keccak256("no approval"));
        address fresh = vm.addr(freshKey);
        _fund(address(tokenA), fresh, AMOUNT);
        Route memory r = _abRoute();
        r.recipient = fresh;
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: fresh, nonce: 0, signature: _sign(freshKey, _digest(r, 0))});
        // Permit2 checks the signature, then its solmate SafeTransferLib finds the token's transferFrom failed.
        vm.expectRevert(_transferFromFailed());
        _send(fresh, r, permit);
        assertEq(tokenA.balanceOf(fresh), AMOUNT);
        assertFalse(_nonceUsed(fresh, 0), "nonce spent");
    }

    function test_revert_signerWhoApprovedOnlyTheRouter() public {
        uint256 freshKey = uint256(keccak256("router approval"));
        address fresh = vm.addr(freshKey);
        _fundAndApprove(fresh, address(tokenA), AMOUNT);
        Route memory r = _abRoute();
        r.recipient = fresh;
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: fresh, nonce: 0, signature: _sign(freshKey, _digest(r, 0))});
        vm.expectRevert(_transferFromFailed());
        _send(fresh, r, permit);
        assertEq(tokenA.balanceOf(fresh), AMOUNT);
    }

    function test_revert_signerWithoutTheBalance() public {
        Route memory r = _abRoute();
        r.amountIn = SIGNER_BALANCE + 1;
        r.hopSwaps[0][0].amountIn = r.amountIn;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 13);
        vm.expectRevert(_transferFromFailed());
        _send(signer, r, permit);
        assertEq(tokenA.balanceOf(signer), SIGNER_BALANCE);
    }

    function test_revert_signatureOfTheWrongLength() public {
        Route memory r = _abRoute();
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 14);
        bytes memory good = permit.signature;
        permit.signature = bytes.concat(good, hex"00");
        vm.expectRevert(INVALID_SIGNATURE_LENGTH);
        _send(signer, r, permit);
        permit.signature = new bytes(63);
        vm.expectRevert(INVALID_SIGNATURE_LENGTH);
        _send(signer, r, permit);
        permit.signature = "";
        vm.expectRevert(INVALID_SIGNATURE_LENGTH);
        _send(signer, r, permit);
        // The good one still works: nothing was spent.
        permit.signature = good;
        _send(signer, r, permit);
    }

    function test_revert_signatureThatRecoversNoOne() public {
        Route memory r = _abRoute();
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 15);
        // v = 0 is not a recovery id: ecrecover returns address(0).
        permit.signature[64] = 0x00;
        vm.expectRevert(INVALID_SIGNATURE);
        _send(signer, r, permit);
        permit.signature = new bytes(65);
        vm.expectRevert(INVALID_SIGNATURE);
        _send(signer, r, permit);
        assertFalse(_nonceUsed(signer, 15), "nonce spent");
    }

    function test_revert_routerErrorsBubbleAndSpendNothing() public {
        Route memory r = _abRoute();
        uint256 expectedOut = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        r.minAmountOut = expectedOut + 1;
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, 16);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, expectedOut, expectedOut + 1));
        _send(signer, r, permit);

        Route memory toRouter = _abRoute();
        toRouter.recipient = address(router);
        permit = _signRoute(toRouter, 16);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidRecipient.selector, address(router)));
        _send(signer, toRouter, permit);

        assertFalse(_nonceUsed(signer, 16), "nonce spent");
        assertEq(tokenA.balanceOf(signer), SIGNER_BALANCE);
        _assertNothingHeld();
    }

    // ---------------------------------------------------------------- routes

    /// @dev AMOUNT + 7 of A for B, split 60/40 across the two V2 deployments' A/B pairs (the odd amount makes
    /// the last swap take a remainder).
    function _splitRoute() internal view returns (Route memory) {
        return _route(
            _path(address(tokenA), address(tokenB)),
            AMOUNT + 7,
            _splitHop(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 600),
                _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 400)
            )
        );
    }

    /// @dev AMOUNT of A for C through B.
    function _twoHopRoute() internal view returns (Route memory) {
        uint256 midQuote = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        return _route(
            _path(address(tokenA), address(tokenB), address(tokenC)),
            AMOUNT,
            _hops(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                _swap(pairBC, address(tokenB), address(tokenC), V2_A, midQuote)
            )
        );
    }

    /// @dev AMOUNT of A for the native coin, paid to bob.
    function _nativeOutRoute() internal view returns (Route memory r) {
        r = _route(
            _path(address(tokenA), address(0)),
            AMOUNT,
            _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT))
        );
        r.recipient = bob;
    }

    /// @dev The A -> B route with a 0.5% integrator fee and an expected amount 10% under the quote.
    function _feeRoute() internal view returns (Route memory r) {
        r = _abRoute();
        uint256 gross = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        r.expectedAmountOut = gross - gross / 10;
        r.feeBps = 50;
        r.feeRecipient = integrator;
    }

    function _v2QuoteBefore() internal pure returns (uint256) {
        // The fixture's A/B pair before any trade: 1,000,000 A against 2,000,000 B.
        return _v2AmountOut(AMOUNT, 1_000_000 ether, 2_000_000 ether, V2_A_FEE_BPS);
    }
}
