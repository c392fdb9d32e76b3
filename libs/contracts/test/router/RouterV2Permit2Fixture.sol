// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SplitRouteFixture} from "./SplitRouteFixture.sol";
import {PERMIT2, deployPermit2} from "../base/Permit2.sol";
import {RouterV2Permit2} from "../../src/router/RouterV2Permit2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IRouterV2Permit2} from "../../src/router/interfaces/IRouterV2Permit2.sol";
import {IPermit2SignatureTransfer} from "../../src/router/interfaces/IPermit2SignatureTransfer.sol";

/// @dev The witness type, as a wallet shows it.
string constant SWAP_ROUTE_TYPE =
    "SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)";

/// @dev The full type Permit2 hashes for the signature: the primary type, then the types it references in
/// alphabetical order (`SwapRoute` before `TokenPermissions`).
string constant PERMIT_WITNESS_TRANSFER_FROM_TYPE =
    "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,SwapRoute witness)SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)TokenPermissions(address token,uint256 amount)";

/// @dev What Permit2 puts before the spender's witness type string.
string constant PERMIT2_WITNESS_STUB =
    "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

bytes32 constant SWAP_ROUTE_TYPEHASH = keccak256(
    "SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)"
);
bytes32 constant PERMIT_WITNESS_TRANSFER_FROM_TYPEHASH = keccak256(
    "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,SwapRoute witness)SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)TokenPermissions(address token,uint256 amount)"
);
bytes32 constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
/// @dev Permit2's EIP-712 domain: a name, the chain id and Permit2's address (no version).
bytes32 constant EIP712_DOMAIN_TYPEHASH =
    keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");

/// @notice The signing side of a `RouterV2Permit2` route, written out from EIP-712 and Permit2's
/// `PermitWitnessTransferFrom`, independently of the contract.
library Permit2RouteSigning {
    /// @notice The EIP-712 hash of a route's `SwapRoute` naming `router`: an array is hashed as the keccak of its
    /// elements' encodings, concatenated (an address is a 32-byte word); `stages` is the route's own definition,
    /// `keccak256(abi.encode(hopSwaps))`.
    function witness(
        address router,
        address[] memory tokens,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        IRouterV2.Swap[][] memory hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient
    ) internal pure returns (bytes32) {
        bytes memory tokenWords;
        for (uint256 i; i < tokens.length; ++i) {
            tokenWords = bytes.concat(tokenWords, bytes32(uint256(uint160(tokens[i]))));
        }
        return keccak256(
            abi.encode(
                SWAP_ROUTE_TYPEHASH,
                router,
                keccak256(tokenWords),
                minAmountOut,
                expectedAmountOut,
                keccak256(abi.encode(hopSwaps)),
                feeBps,
                feeRecipient,
                recipient
            )
        );
    }

    /// @notice Permit2's domain separator on `chainId` (at Permit2's canonical address).
    function domainSeparator(uint256 chainId) internal pure returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256("Permit2"), chainId, PERMIT2));
    }

    /// @notice The EIP-712 digest of a `PermitWitnessTransferFrom` under `domainSeparator_`.
    function digest(
        bytes32 domainSeparator_,
        address token,
        uint256 amount,
        address spender,
        uint256 nonce,
        uint256 deadline,
        bytes32 witness_
    ) internal pure returns (bytes32) {
        bytes32 permitted = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, token, amount));
        bytes32 structHash =
            keccak256(abi.encode(PERMIT_WITNESS_TRANSFER_FROM_TYPEHASH, permitted, spender, nonce, deadline, witness_));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator_, structHash));
    }
}

/// @notice The router fixture plus Uniswap's Permit2 (its published bytecode at its canonical address), a
/// `RouterV2Permit2` in front of the router, a signer with a private key that approved Permit2 only, and the
/// route-signing helpers over `Permit2RouteSigning`.
abstract contract RouterV2Permit2Fixture is SplitRouteFixture {
    // ---------------------------------------------------------------- Permit2's errors (their selectors)

    bytes4 internal constant INVALID_SIGNER = 0x815e1d64; // InvalidSigner()
    bytes4 internal constant INVALID_NONCE = 0x756688fe; // InvalidNonce()
    bytes4 internal constant SIGNATURE_EXPIRED = 0xcd21db4f; // SignatureExpired(uint256)
    bytes4 internal constant INVALID_SIGNATURE = 0x8baa579f; // InvalidSignature()
    bytes4 internal constant INVALID_SIGNATURE_LENGTH = 0x4be6321b; // InvalidSignatureLength()

    uint256 internal constant AMOUNT = 1_000 ether;
    /// @dev What the signer holds of each input token at the start.
    uint256 internal constant SIGNER_BALANCE = 10_000 ether;
    /// @dev How long a signature is good for in the default route.
    uint256 internal constant VALIDITY = 10 minutes;

    /// @notice A route and what the signer signs with it: `executeSwapsWithPermit2`'s arguments but the permit.
    struct Route {
        address[] tokens;
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 expectedAmountOut;
        IRouterV2.Swap[][] hopSwaps;
        uint256 feeBps;
        address feeRecipient;
        address recipient;
        uint256 deadline;
    }

    /// @notice Balances before a call, for the checks after it.
    struct Before {
        uint256 signerIn;
        uint256 recipientOut;
    }

    /// @dev The chain the tests run on: HyperEVM's id (see `setUp`).
    uint256 internal constant CHAIN_ID = 999;

    address internal permit2;
    RouterV2Permit2 internal permitRouter;
    /// @dev Permit2's domain separator on this chain, read once in `setUp` (equal to the computed one).
    bytes32 internal domainSeparator;

    uint256 internal signerKey;
    /// @dev A fresh wallet: it holds input tokens and has approved Permit2 for them, never the router.
    address internal signer;
    /// @dev Sends signed routes for others.
    address internal relayer;

    /// @dev Every token the router and `permitRouter` must hold none of after a call (tests add theirs).
    address[] internal watchedTokens;

    function setUp() public virtual override {
        super.setUp();
        // The artifact's Permit2 code was built on chain 31337 at another address, and caches that domain
        // separator for chain 31337 (see `test_permit2_artifactCachesAForeignDomainOnChain31337`). On any other
        // chain it computes its own, the canonical address's, as on a real chain.
        vm.chainId(CHAIN_ID);
        permit2 = deployPermit2();
        domainSeparator = IPermit2SignatureTransfer(permit2).DOMAIN_SEPARATOR();
        assertEq(domainSeparator, Permit2RouteSigning.domainSeparator(CHAIN_ID), "Permit2's domain separator");
        permitRouter = new RouterV2Permit2(address(router), permit2);
        vm.label(permit2, "Permit2");
        vm.label(address(permitRouter), "RouterV2Permit2");
        vm.label(address(router), "RouterV2");

        signerKey = uint256(keccak256("permit2 signer"));
        signer = vm.addr(signerKey);
        vm.label(signer, "signer");
        relayer = makeAddr("relayer");

        watchedTokens.push(address(tokenA));
        watchedTokens.push(address(tokenB));
        watchedTokens.push(address(tokenC));
        watchedTokens.push(address(usdc));
        watchedTokens.push(address(dai));
        watchedTokens.push(address(wnative));

        _fundSigner(address(tokenA), SIGNER_BALANCE);
        _fundSigner(address(tokenC), SIGNER_BALANCE);
    }

    /// @dev Permit2's revert (solmate's SafeTransferLib) when the token's `transferFrom` fails.
    function _transferFromFailed() internal pure returns (bytes memory) {
        return abi.encodeWithSignature("Error(string)", "TRANSFER_FROM_FAILED");
    }

    // ---------------------------------------------------------------- accounts

    /// @dev Gives the signer `amount` of `token` and approves Permit2 (only Permit2) for it without limit.
    function _fundSigner(address token, uint256 amount) internal {
        _fund(token, signer, amount);
        vm.prank(signer);
        IERC20(token).approve(permit2, type(uint256).max);
    }

    function _balance(address token, address account) internal view returns (uint256) {
        return token == address(0) ? account.balance : IERC20(token).balanceOf(account);
    }

    // ---------------------------------------------------------------- routes

    /// @dev A route paid to the signer, with no minimum, no expected amount, no fee, valid for `VALIDITY`.
    function _route(address[] memory tokens, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        view
        returns (Route memory r)
    {
        r.tokens = tokens;
        r.amountIn = amountIn;
        r.hopSwaps = hops;
        r.recipient = signer;
        r.deadline = block.timestamp + VALIDITY;
    }

    /// @dev AMOUNT of A for B on v2A's pair.
    function _abRoute() internal view returns (Route memory) {
        return _route(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    /// @dev A deep copy, so a test can change one field of a signed route.
    function _copy(Route memory r) internal pure returns (Route memory c) {
        c = abi.decode(abi.encode(r), (Route));
    }

    // ---------------------------------------------------------------- signing, from the specifications

    /// @dev The witness of `r` naming `router_`.
    function _witness(Route memory r, address router_) internal pure returns (bytes32) {
        return Permit2RouteSigning.witness(
            router_, r.tokens, r.minAmountOut, r.expectedAmountOut, r.hopSwaps, r.feeBps, r.feeRecipient, r.recipient
        );
    }

    /// @dev The digest of a `PermitWitnessTransferFrom` of `r`, spender `spender`, witness naming `router_`, under
    /// `domainSeparator_`.
    function _digest(Route memory r, address spender, uint256 nonce, address router_, bytes32 domainSeparator_)
        internal
        pure
        returns (bytes32)
    {
        return Permit2RouteSigning.digest(
            domainSeparator_, r.tokens[0], r.amountIn, spender, nonce, r.deadline, _witness(r, router_)
        );
    }

    /// @dev The digest the signer signs for `permitRouter`: spender `permitRouter`, witness naming the router,
    /// Permit2's domain on this chain.
    function _digest(Route memory r, uint256 nonce) internal view returns (bytes32) {
        return _digest(r, address(permitRouter), nonce, address(router), domainSeparator);
    }

    /// @dev A 65-byte signature (r, s, v).
    function _sign(uint256 key, bytes32 digest) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, digest);
        return abi.encodePacked(r, s, v);
    }

    /// @dev The signer's signature of `r` with `nonce`, for `permitRouter`.
    function _signRoute(Route memory r, uint256 nonce)
        internal
        view
        returns (IRouterV2Permit2.Permit2Signature memory)
    {
        return IRouterV2Permit2.Permit2Signature({
            signer: signer, nonce: nonce, signature: _sign(signerKey, _digest(r, nonce))
        });
    }

    // ---------------------------------------------------------------- calls

    /// @dev `sender` sends `r` with `permit` to `permitRouter`.
    function _send(address sender, Route memory r, IRouterV2Permit2.Permit2Signature memory permit)
        internal
        returns (uint256)
    {
        vm.prank(sender);
        return permitRouter.executeSwapsWithPermit2(
            r.tokens,
            r.amountIn,
            r.minAmountOut,
            r.expectedAmountOut,
            r.hopSwaps,
            r.feeBps,
            r.feeRecipient,
            r.recipient,
            r.deadline,
            permit
        );
    }

    /// @dev The calldata of that call.
    function _calldata(Route memory r, IRouterV2Permit2.Permit2Signature memory permit)
        internal
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(
            IRouterV2Permit2.executeSwapsWithPermit2,
            (
                r.tokens,
                r.amountIn,
                r.minAmountOut,
                r.expectedAmountOut,
                r.hopSwaps,
                r.feeBps,
                r.feeRecipient,
                r.recipient,
                r.deadline,
                permit
            )
        );
    }

    /// @dev `permitRouter.routeWitness` of `r`.
    function _contractWitness(Route memory r) internal view returns (bytes32) {
        return permitRouter.routeWitness(
            r.tokens, r.minAmountOut, r.expectedAmountOut, r.hopSwaps, r.feeBps, r.feeRecipient, r.recipient
        );
    }

    // ---------------------------------------------------------------- checks

    function _before(Route memory r) internal view returns (Before memory b) {
        b.signerIn = _balance(r.tokens[0], signer);
        b.recipientOut = _balance(r.tokens[r.tokens.length - 1], r.recipient);
    }

    /// @dev After a signed route ran once: the signer paid exactly `paid`, the recipient received exactly `out`,
    /// the signer never approved the router, and neither contract holds anything.
    function _assertSettled(Route memory r, Before memory b, uint256 paid, uint256 out) internal view {
        address tokenIn = r.tokens[0];
        assertEq(_balance(tokenIn, signer), b.signerIn - paid, "signer's input");
        assertEq(_balance(r.tokens[r.tokens.length - 1], r.recipient), b.recipientOut + out, "recipient's output");
        assertEq(IERC20(tokenIn).allowance(signer, address(router)), 0, "signer approved the router");
        _assertNothingHeld();
    }

    /// @dev Neither the router nor `permitRouter` holds any watched token or native coin.
    function _assertNothingHeld() internal view {
        for (uint256 i; i < watchedTokens.length; ++i) {
            IERC20 token = IERC20(watchedTokens[i]);
            assertEq(token.balanceOf(address(router)), 0, "router holds a token");
            assertEq(token.balanceOf(address(permitRouter)), 0, "permit router holds a token");
        }
        assertEq(address(router).balance, 0, "router holds native");
        assertEq(address(permitRouter).balance, 0, "permit router holds native");
    }

    /// @dev Whether Permit2 has `nonce` of `owner_` marked used.
    function _nonceUsed(address owner_, uint256 nonce) internal view returns (bool) {
        uint256 word = IPermit2SignatureTransfer(permit2).nonceBitmap(owner_, nonce >> 8);
        return (word >> (nonce & 0xff)) & 1 == 1;
    }
}
