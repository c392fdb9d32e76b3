// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Permit2RouteSigning, RouterV2Permit2Fixture} from "../router/RouterV2Permit2Fixture.sol";
import {RouterV2} from "../../src/router/RouterV2.sol";
import {RouterV2Permit2} from "../../src/router/RouterV2Permit2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IRouterV2Permit2} from "../../src/router/interfaces/IRouterV2Permit2.sol";
import {IPermit2SignatureTransfer} from "../../src/router/interfaces/IPermit2SignatureTransfer.sol";

/// @dev Permit2's `permitTransferFrom` (no witness), which `IPermit2SignatureTransfer` leaves out.
interface IPermit2PlainTransfer {
    function permitTransferFrom(
        IPermit2SignatureTransfer.PermitTransferFrom calldata permit,
        IPermit2SignatureTransfer.SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external;
}

/// @notice Attacks on a victim's signed route. The victim (the fixture's signer) approved Permit2 without limit for
/// its tokens and signed one route for `RouterV2Permit2`; the attacker sees the signature (in the mempool, or from
/// a relayer) and tries to replay it, to bend it to another route, amount, recipient, fee, deadline, spender, chain
/// or signer, to front-run it, or to make RouterV2 run something other than what was signed. Each attack reverts
/// with Permit2's exact error (or ours), and no token is ever asked to move the victim's funds, even in a reverted
/// frame; or, for the front-runs that succeed, the victim's route runs exactly as signed, once, paying the victim's
/// recipient. Afterwards the victim's balances and nonce are as they should be, the attacker gained nothing, and
/// neither contract holds anything.
contract RouterV2Permit2AttackTest is RouterV2Permit2Fixture {
    /// @dev secp256k1's group order: (r, n - s) with the other parity is the same signature's twin.
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;
    uint256 internal constant NONCE = 77;
    uint256 internal constant ATTACKER_BALANCE = 1_000 ether;

    uint256 internal attackerKey;
    address internal attacker;
    /// @dev The victim's signed route: AMOUNT of A for B, split 600/400 across the two deployments' A/B pairs,
    /// a 0.5% fee to the integrator, an expected amount, a minimum.
    Route internal signedRoute;
    IRouterV2Permit2.Permit2Signature internal signedPermit;
    uint256 internal signedOut;

    function setUp() public override {
        super.setUp();
        attackerKey = uint256(keccak256("attacker"));
        attacker = vm.addr(attackerKey);
        vm.label(attacker, "attacker");
        // The attacker holds the same tokens and approved Permit2 too, so routes naming it reach every check.
        _fund(address(tokenA), attacker, ATTACKER_BALANCE);
        vm.prank(attacker);
        tokenA.approve(permit2, type(uint256).max);

        Route memory r = _route(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _splitHop(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 600),
                _swap(pairAB2, address(tokenA), address(tokenB), V2_B, 400)
            )
        );
        uint256 share0 = (AMOUNT * 600) / 1_000;
        uint256 gross = _v2Quote(pairAB, address(tokenA), share0, V2_A_FEE_BPS)
            + _v2Quote(pairAB2, address(tokenA), AMOUNT - share0, V2_B_FEE_BPS);
        r.expectedAmountOut = gross - gross / 20;
        r.feeBps = 50;
        r.feeRecipient = integrator;
        (signedOut,,,,) = _referenceSplit(gross, r.expectedAmountOut, r.feeBps, true);
        r.minAmountOut = signedOut;
        _store(r);
        IRouterV2Permit2.Permit2Signature memory permit = _signRoute(r, NONCE);
        signedPermit = permit;
    }

    /// @dev No call at any depth asks a token to move the victim's funds, and afterwards nothing moved.
    modifier victimUntouched() {
        vm.expectCall(address(tokenA), abi.encodeWithSelector(IERC20.transferFrom.selector, signer), 0);
        vm.expectCall(address(tokenC), abi.encodeWithSelector(IERC20.transferFrom.selector, signer), 0);
        _;
        _assertVictimUntouched();
    }

    // ---------------------------------------------------------------- replay

    function test_attack_replay_revertsInvalidNonce() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        uint256 out = _send(signer, r, signedPermit);
        assertEq(out, signedOut);

        vm.expectRevert(INVALID_NONCE);
        _send(signer, r, signedPermit);
        vm.expectRevert(INVALID_NONCE);
        _send(relayer, r, signedPermit);
        vm.expectRevert(INVALID_NONCE);
        _send(attacker, r, signedPermit);

        _assertSettled(r, b, AMOUNT, out);
    }

    function test_attack_replayWithTheSignaturesTwin_revertsInvalidNonce() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        uint256 out = _send(signer, r, signedPermit);

        // Permit2 does not insist on a low s, so the twin signature is valid; the nonce still stops it.
        vm.expectRevert(INVALID_NONCE);
        _send(attacker, r, _twin(signedPermit));
        // As does the EIP-2098 form of the same signature.
        vm.expectRevert(INVALID_NONCE);
        _send(attacker, r, _compact(signedPermit));

        _assertSettled(r, b, AMOUNT, out);
    }

    // ---------------------------------------------------------------- the signature used for another route

    function test_attack_otherStages_otherPool_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.hopSwaps[0][1].pool = pairAB; // both shares on v2A's pair
        r.hopSwaps[0][1].routerIndex = V2_A;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherStages_otherSplit_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        (r.hopSwaps[0][0].amountIn, r.hopSwaps[0][1].amountIn) = (400, 600);
        _expectInvalidSigner(r, signedPermit);
        // Even the same proportions, written with other numbers, are another route.
        r = _signed();
        (r.hopSwaps[0][0].amountIn, r.hopSwaps[0][1].amountIn) = (6, 4);
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherStages_swapsReordered_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        (r.hopSwaps[0][0], r.hopSwaps[0][1]) = (r.hopSwaps[0][1], r.hopSwaps[0][0]);
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherStages_swapData_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.hopSwaps[0][0].data = hex"00";
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_lowerMinAmountOut_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.minAmountOut = 0;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherExpectedAmountOut_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.expectedAmountOut = 0;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherRecipient_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.recipient = attacker;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherFeeRecipient_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.feeRecipient = attacker;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_higherFee_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.feeBps = 100;
        _expectInvalidSigner(r, signedPermit);
        r = _signed();
        r.feeBps = 0;
        r.feeRecipient = address(0);
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherTokens_revertsInvalidSigner() public victimUntouched {
        // Another output token (the permit itself is unchanged: same input token and amount).
        Route memory r = _signed();
        r.tokens = _path(address(tokenA), address(tokenC));
        r.hopSwaps = _hops(_swap(pairAC, address(tokenA), address(tokenC), V2_A, AMOUNT));
        _expectInvalidSigner(r, signedPermit);
        // A longer path over the signed stages.
        r = _signed();
        r.tokens = _path(address(tokenA), address(tokenB), address(tokenB));
        _expectInvalidSigner(r, signedPermit);
        // Another input token: the victim's C, which it also approved Permit2 for.
        r = _signed();
        r.tokens = _path(address(tokenC), address(tokenB));
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherAmountIn_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.amountIn = AMOUNT + 1;
        _expectInvalidSigner(r, signedPermit);
        r.amountIn = SIGNER_BALANCE;
        _expectInvalidSigner(r, signedPermit);
        r.amountIn = AMOUNT - 1;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_laterDeadline_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        r.deadline += 1;
        _expectInvalidSigner(r, signedPermit);
    }

    function test_attack_otherNonce_revertsInvalidSigner() public victimUntouched {
        IRouterV2Permit2.Permit2Signature memory permit = signedPermit;
        permit.nonce = NONCE + 1;
        _expectInvalidSigner(_signed(), permit);
        assertFalse(_nonceUsed(signer, NONCE + 1), "other nonce spent");
    }

    // ---------------------------------------------------------------- deadline

    function test_attack_expiredSignature_cannotBeRevivedWithAnotherDeadline() public victimUntouched {
        Route memory r = _signed();
        uint256 deadline = r.deadline;
        vm.warp(deadline + 1);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2Permit2.DeadlineExpired.selector, deadline, deadline + 1));
        _send(attacker, r, signedPermit);
        r.deadline = deadline + 1;
        _expectInvalidSigner(r, signedPermit);
    }

    // ---------------------------------------------------------------- front-running

    function test_attack_frontRun_sameCalldata_runsTheVictimsRouteOnce() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        bytes memory call_ = _calldata(r, signedPermit);

        vm.expectEmit(address(permitRouter));
        emit IRouterV2Permit2.SwapSigned(signer, attacker, NONCE, AMOUNT);
        vm.prank(attacker);
        (bool success, bytes memory returned) = address(permitRouter).call(call_);
        assertTrue(success, "front-run failed");
        assertEq(abi.decode(returned, (uint256)), signedOut, "front-run output");

        // The victim's own transaction comes second.
        vm.prank(signer);
        (success, returned) = address(permitRouter).call(call_);
        assertFalse(success, "second run");
        assertEq(returned, abi.encodePacked(INVALID_NONCE));

        _assertSettled(r, b, AMOUNT, signedOut);
        assertEq(tokenB.balanceOf(signer), signedOut, "victim's output");
        assertEq(tokenA.balanceOf(attacker), ATTACKER_BALANCE, "attacker's A");
        assertEq(tokenB.balanceOf(attacker), 0, "attacker's B");
    }

    function test_attack_frontRun_withTheSignaturesTwin_runsTheVictimsRouteOnce() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        uint256 out = _send(attacker, r, _twin(signedPermit));
        assertEq(out, signedOut);
        vm.expectRevert(INVALID_NONCE);
        _send(signer, r, signedPermit);
        _assertSettled(r, b, AMOUNT, out);
        assertEq(tokenB.balanceOf(attacker), 0, "attacker's B");
    }

    function test_attack_frontRun_theNonceWithAnotherRoute_revertsInvalidSigner_thenTheVictimsRuns() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        // The victim's signature and nonce on a route paying the attacker.
        Route memory stolen = _signed();
        stolen.recipient = attacker;
        _expectInvalidSigner(stolen, signedPermit);
        // The attacker's own signature over its own route, claiming the victim as signer, with the victim's nonce.
        IRouterV2Permit2.Permit2Signature memory forged = IRouterV2Permit2.Permit2Signature({
            signer: signer, nonce: NONCE, signature: _sign(attackerKey, _digest(stolen, NONCE))
        });
        _expectInvalidSigner(stolen, forged);
        assertFalse(_nonceUsed(signer, NONCE), "nonce burnt");

        uint256 out = _send(signer, r, signedPermit);
        assertEq(out, signedOut);
        _assertSettled(r, b, AMOUNT, out);
    }

    // ---------------------------------------------------------------- wrong signer, spender, router, chain

    function test_attack_signedBySomeoneElse_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        IRouterV2Permit2.Permit2Signature memory permit = IRouterV2Permit2.Permit2Signature({
            signer: signer, nonce: NONCE, signature: _sign(attackerKey, _digest(r, NONCE))
        });
        _expectInvalidSigner(r, permit);
    }

    function test_attack_victimsSignatureForAnotherSigner_revertsInvalidSigner() public victimUntouched {
        // The attacker names itself as the owner (it approved Permit2 and holds A): its funds do not move either.
        IRouterV2Permit2.Permit2Signature memory permit = signedPermit;
        permit.signer = attacker;
        vm.expectCall(address(tokenA), abi.encodeWithSelector(IERC20.transferFrom.selector, attacker), 0);
        _expectInvalidSigner(_signed(), permit);
        assertEq(tokenA.balanceOf(attacker), ATTACKER_BALANCE);
    }

    function test_attack_signatureWithRouterV2AsSpender_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        IRouterV2Permit2.Permit2Signature memory permit = IRouterV2Permit2.Permit2Signature({
            signer: signer,
            nonce: NONCE,
            signature: _sign(signerKey, _digest(r, address(router), NONCE, address(router), domainSeparator))
        });
        _expectInvalidSigner(r, permit);
    }

    function test_attack_signatureForAnotherDeployment_revertsInvalidSigner() public victimUntouched {
        RouterV2Permit2 other = new RouterV2Permit2(address(router), permit2);
        Route memory r = _signed();
        vm.prank(attacker);
        vm.expectRevert(INVALID_SIGNER);
        other.executeSwapsWithPermit2(
            r.tokens,
            r.amountIn,
            r.minAmountOut,
            r.expectedAmountOut,
            r.hopSwaps,
            r.feeBps,
            r.feeRecipient,
            r.recipient,
            r.deadline,
            signedPermit
        );
    }

    function test_attack_witnessNamingAnotherRouter_revertsInvalidSigner() public victimUntouched {
        RouterV2 otherRouter = new RouterV2(owner, address(wnative), treasury);
        Route memory r = _signed();
        IRouterV2Permit2.Permit2Signature memory permit = IRouterV2Permit2.Permit2Signature({
            signer: signer,
            nonce: NONCE,
            signature: _sign(signerKey, _digest(r, address(permitRouter), NONCE, address(otherRouter), domainSeparator))
        });
        _expectInvalidSigner(r, permit);
    }

    function test_attack_signatureFromAnotherChain_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        IRouterV2Permit2.Permit2Signature memory permit = IRouterV2Permit2.Permit2Signature({
            signer: signer,
            nonce: NONCE,
            signature: _sign(
                signerKey,
                _digest(r, address(permitRouter), NONCE, address(router), Permit2RouteSigning.domainSeparator(4_663))
            )
        });
        _expectInvalidSigner(r, permit);
        // And the victim's signature here, replayed on a fork with another chain id.
        vm.chainId(4_663);
        _expectInvalidSigner(r, signedPermit);
    }

    // ---------------------------------------------------------------- Permit2 directly

    function test_attack_permit2DirectlyWithTheSignature_revertsInvalidSigner() public victimUntouched {
        Route memory r = _signed();
        bytes32 witness = _witness(r, address(router));
        IPermit2SignatureTransfer.PermitTransferFrom memory permit = IPermit2SignatureTransfer.PermitTransferFrom({
            permitted: IPermit2SignatureTransfer.TokenPermissions({token: address(tokenA), amount: AMOUNT}),
            nonce: NONCE,
            deadline: r.deadline
        });
        IPermit2SignatureTransfer.SignatureTransferDetails memory details =
            IPermit2SignatureTransfer.SignatureTransferDetails({to: attacker, requestedAmount: AMOUNT});
        string memory witnessType = permitRouter.WITNESS_TYPE_STRING();

        // Permit2 takes its caller as the spender: the attacker is not the one the victim signed for.
        vm.prank(attacker);
        vm.expectRevert(INVALID_SIGNER);
        IPermit2SignatureTransfer(permit2)
            .permitWitnessTransferFrom(permit, details, signer, witness, witnessType, signedPermit.signature);
        // Nor is a transfer without the witness what the victim signed.
        vm.prank(attacker);
        vm.expectRevert(INVALID_SIGNER);
        IPermit2PlainTransfer(permit2).permitTransferFrom(permit, details, signer, signedPermit.signature);
    }

    // ---------------------------------------------------------------- calldata the contract did not encode

    /// @dev The victim's calldata laid out another way: the permit's tail first, junk words between the tails,
    /// `tokens` last. `RouterV2Permit2` hashes what the ABI decoder reads, and RouterV2 decodes the same bytes
    /// (only the selector and `amountIn` replaced), so the route that runs is the signed one, exactly.
    function test_attack_nonCanonicalCalldata_runsExactlyTheSignedRoute() public {
        Route memory r = _signed();
        Before memory b = _before(r);
        bytes memory call_ = _nonCanonicalCalldata(r, signedPermit);
        assertTrue(keccak256(call_) != keccak256(_calldata(r, signedPermit)), "same layout");

        // RouterV2 receives these very bytes, selector and amountIn replaced.
        bytes memory forwarded = bytes.concat(IRouterV2.executeSwapsWithData.selector, _slice(call_, 4));
        vm.expectCall(address(router), forwarded, 1);
        vm.prank(attacker);
        (bool success, bytes memory returned) = address(permitRouter).call(call_);
        assertTrue(success, "non-canonical calldata refused");
        assertEq(abi.decode(returned, (uint256)), signedOut, "output");

        _assertSettled(r, b, AMOUNT, signedOut);
        assertEq(tokenB.balanceOf(attacker), 0, "attacker's B");
        // The pools received the signed shares.
        uint256 share0 = (AMOUNT * 600) / 1_000;
        assertEq(tokenA.balanceOf(pairAB), 1_000_000 ether + share0, "first share");
        assertEq(tokenA.balanceOf(pairAB2), 500_000 ether + AMOUNT - share0, "second share");
    }

    /// @dev A path token with dirty high bits (the same address to a reader that masks) is refused before anything
    /// moves.
    function test_attack_dirtyAddressBits_revert() public victimUntouched {
        Route memory r = _signed();
        bytes memory call_ = _calldata(r, signedPermit);
        // tokens is the first tail: its length at 4 + 0x140, tokens[1] at 4 + 0x180.
        assertEq(_word(call_, 4 + 0x180), uint256(uint160(address(tokenB))));
        call_[4 + 0x180] = 0x01;
        vm.prank(attacker);
        (bool success, bytes memory returned) = address(permitRouter).call(call_);
        assertFalse(success, "dirty path accepted");
        assertEq(returned.length, 0, "not the ABI decoder's revert");
    }

    // ---------------------------------------------------------------- tokens sent to the contract

    function test_attack_donationIsNeitherSpentNorReleased() public {
        // Someone sends A to RouterV2Permit2 (which keeps a standing allowance to RouterV2 after a first route).
        _fund(address(tokenA), address(permitRouter), 5 ether);
        Route memory r = _signed();
        Before memory b = _before(r);
        uint256 out = _send(relayer, r, signedPermit);
        assertEq(out, signedOut, "the route spent the donation");
        assertEq(tokenA.balanceOf(address(permitRouter)), 5 ether, "donation moved");
        assertEq(tokenA.allowance(address(permitRouter), address(router)), type(uint256).max);
        // RouterV2 only ever pulls from its caller: the attacker's route pulls the attacker's tokens, not these.
        vm.startPrank(attacker);
        tokenA.approve(address(router), 5 ether);
        router.executeSwaps(
            r.tokens,
            5 ether,
            0,
            0,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, 5 ether)),
            0,
            address(0)
        );
        vm.stopPrank();
        assertEq(tokenA.balanceOf(address(permitRouter)), 5 ether, "donation released");
        assertEq(tokenA.balanceOf(attacker), ATTACKER_BALANCE - 5 ether);
        assertEq(tokenA.balanceOf(signer), b.signerIn - AMOUNT);
        assertEq(tokenB.balanceOf(signer), b.recipientOut + out);
    }

    // ---------------------------------------------------------------- helpers

    function _store(Route memory r) internal {
        signedRoute.tokens = r.tokens;
        signedRoute.amountIn = r.amountIn;
        signedRoute.minAmountOut = r.minAmountOut;
        signedRoute.expectedAmountOut = r.expectedAmountOut;
        delete signedRoute.hopSwaps;
        for (uint256 i; i < r.hopSwaps.length; ++i) {
            signedRoute.hopSwaps.push();
            for (uint256 j; j < r.hopSwaps[i].length; ++j) {
                signedRoute.hopSwaps[i].push(r.hopSwaps[i][j]);
            }
        }
        signedRoute.feeBps = r.feeBps;
        signedRoute.feeRecipient = r.feeRecipient;
        signedRoute.recipient = r.recipient;
        signedRoute.deadline = r.deadline;
    }

    /// @dev A fresh copy of the victim's signed route, to tamper with.
    function _signed() internal view returns (Route memory) {
        return signedRoute;
    }

    /// @dev The attacker sends `r` with `permit`; Permit2 must refuse the signature.
    function _expectInvalidSigner(Route memory r, IRouterV2Permit2.Permit2Signature memory permit) internal {
        vm.expectRevert(INVALID_SIGNER);
        _send(attacker, r, permit);
    }

    function _assertVictimUntouched() internal view {
        assertEq(tokenA.balanceOf(signer), SIGNER_BALANCE, "victim's A");
        assertEq(tokenC.balanceOf(signer), SIGNER_BALANCE, "victim's C");
        assertEq(tokenB.balanceOf(signer), 0, "victim's B");
        assertEq(tokenA.allowance(signer, permit2), type(uint256).max, "victim's allowance to Permit2");
        assertFalse(_nonceUsed(signer, NONCE), "victim's nonce spent");
        assertEq(tokenA.balanceOf(attacker), ATTACKER_BALANCE, "attacker's A");
        assertEq(tokenB.balanceOf(attacker), 0, "attacker's B");
        _assertNothingHeld();
    }

    /// @dev The same signature with s' = n - s and the other recovery id.
    function _twin(IRouterV2Permit2.Permit2Signature memory permit)
        internal
        pure
        returns (IRouterV2Permit2.Permit2Signature memory twin)
    {
        bytes memory sig = permit.signature;
        bytes32 r = bytes32(_word(sig, 0));
        uint256 s = _word(sig, 32);
        uint8 v = uint8(sig[64]);
        twin = IRouterV2Permit2.Permit2Signature({
            signer: permit.signer,
            nonce: permit.nonce,
            signature: abi.encodePacked(r, SECP256K1_N - s, v == 27 ? 28 : 27)
        });
    }

    /// @dev The EIP-2098 form (r, yParity << 255 | s) of a low-s 65-byte signature.
    function _compact(IRouterV2Permit2.Permit2Signature memory permit)
        internal
        pure
        returns (IRouterV2Permit2.Permit2Signature memory compact)
    {
        bytes memory sig = permit.signature;
        uint256 vs = _word(sig, 32) | (uint256(uint8(sig[64]) - 27) << 255);
        compact = IRouterV2Permit2.Permit2Signature({
            signer: permit.signer, nonce: permit.nonce, signature: abi.encodePacked(_word(sig, 0), vs)
        });
    }

    /// @dev `executeSwapsWithPermit2`'s calldata with the tails in another order and junk between them.
    function _nonCanonicalCalldata(Route memory r, IRouterV2Permit2.Permit2Signature memory permit)
        internal
        pure
        returns (bytes memory)
    {
        // Each `abi.encode` of one dynamic value starts with its offset (0x20); the rest is the value's own
        // encoding, whose inner offsets are relative to itself, so it can sit anywhere.
        bytes memory tokensTail = _slice(abi.encode(r.tokens), 32);
        bytes memory hopsTail = _slice(abi.encode(r.hopSwaps), 32);
        bytes memory permitTail = _slice(abi.encode(permit), 32);
        bytes32 junk = keccak256("junk");
        uint256 permitOffset = 10 * 32;
        uint256 hopsOffset = permitOffset + permitTail.length + 64;
        uint256 tokensOffset = hopsOffset + hopsTail.length + 32;
        return bytes.concat(
            IRouterV2Permit2.executeSwapsWithPermit2.selector,
            _head(r, tokensOffset, hopsOffset, permitOffset),
            permitTail,
            junk,
            junk,
            hopsTail,
            junk,
            tokensTail
        );
    }

    /// @dev The ten head words of `executeSwapsWithPermit2`'s arguments, with the tails' offsets given.
    function _head(Route memory r, uint256 tokensOffset, uint256 hopsOffset, uint256 permitOffset)
        internal
        pure
        returns (bytes memory)
    {
        return bytes.concat(
            abi.encode(tokensOffset, r.amountIn, r.minAmountOut, r.expectedAmountOut, hopsOffset),
            abi.encode(r.feeBps, r.feeRecipient, r.recipient, r.deadline, permitOffset)
        );
    }

    function _slice(bytes memory data, uint256 from) internal pure returns (bytes memory out) {
        out = new bytes(data.length - from);
        for (uint256 i; i < out.length; ++i) {
            out[i] = data[from + i];
        }
    }

    function _word(bytes memory data, uint256 offset) internal pure returns (uint256 word) {
        assembly ("memory-safe") {
            word := mload(add(add(data, 0x20), offset))
        }
    }
}
