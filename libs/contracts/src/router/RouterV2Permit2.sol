// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IRouterV2} from "./interfaces/IRouterV2.sol";
import {IRouterV2Permit2} from "./interfaces/IRouterV2Permit2.sol";
import {IPermit2SignatureTransfer} from "./interfaces/IPermit2SignatureTransfer.sol";

/// @title RouterV2Permit2
/// @notice RouterV2's entry for routes signed through Permit2 (see `IRouterV2Permit2`): the signer's input comes in
/// through Permit2's `permitWitnessTransferFrom`, whose witness binds the route, and RouterV2 executes the route with
/// it, pulling it from this contract into the route's first pools. Holds nothing after a call.
contract RouterV2Permit2 is IRouterV2Permit2, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @inheritdoc IRouterV2Permit2
    string public constant SWAP_ROUTE_TYPE =
        "SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)";

    /// @inheritdoc IRouterV2Permit2
    string public constant WITNESS_TYPE_STRING =
        "SwapRoute witness)SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256 feeBps,address feeRecipient,address recipient)TokenPermissions(address token,uint256 amount)";

    /// @dev The EIP-712 type hash of `SwapRoute`.
    bytes32 private constant SWAP_ROUTE_TYPEHASH = keccak256(bytes(SWAP_ROUTE_TYPE));

    /// @inheritdoc IRouterV2Permit2
    address public immutable router;

    /// @inheritdoc IRouterV2Permit2
    address public immutable permit2;

    /// @param router_ The RouterV2 that executes the routes.
    /// @param permit2_ The chain's Permit2.
    constructor(address router_, address permit2_) {
        if (router_.code.length == 0) revert NotAContract(router_);
        if (permit2_.code.length == 0) revert NotAContract(permit2_);
        router = router_;
        permit2 = permit2_;
    }

    /// @inheritdoc IRouterV2Permit2
    function executeSwapsWithPermit2(
        address[] calldata tokens,
        uint256 amountIn,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        IRouterV2.Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient,
        uint256 deadline,
        Permit2Signature calldata permit
    ) external nonReentrant returns (uint256 userAmountOut) {
        // A deadline only bounds how long a signed call stays valid; a validator's few seconds do not matter.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp > deadline) revert DeadlineExpired(deadline, block.timestamp);
        // RouterV2 checks the path; an empty one has no input to take.
        if (tokens.length == 0) revert IRouterV2.InvalidPath();
        address tokenIn = tokens[0];
        if (tokenIn == address(0)) revert NativeInputNotSigned();
        // RouterV2 refuses itself as either recipient; this contract would keep what it was paid.
        if (recipient == address(this) || feeRecipient == address(this)) revert RecipientIsEntry();
        bytes32 witness =
            _routeWitness(tokens, minAmountOut, expectedAmountOut, hopSwaps, feeBps, feeRecipient, recipient);
        uint256 received = _take(tokenIn, amountIn, deadline, witness, permit);
        // RouterV2 pulls exactly `received` from here into the route's first pools (it is the route's `amountIn`), so
        // the allowance is only ever spent within this call; a standing one saves an approval per call.
        if (IERC20(tokenIn).allowance(address(this), router) < received) {
            IERC20(tokenIn).forceApprove(router, type(uint256).max);
        }
        userAmountOut = _execute(received);
        emit SwapSigned(permit.signer, msg.sender, permit.nonce, received);
    }

    /// @inheritdoc IRouterV2Permit2
    function routeWitness(
        address[] calldata tokens,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        IRouterV2.Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient
    ) external view returns (bytes32) {
        return _routeWitness(tokens, minAmountOut, expectedAmountOut, hopSwaps, feeBps, feeRecipient, recipient);
    }

    /// @dev The EIP-712 hash of the route's `SwapRoute` (an `address[]` is hashed as its words, packed).
    function _routeWitness(
        address[] calldata tokens,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        IRouterV2.Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient
    ) private view returns (bytes32) {
        return keccak256(
            abi.encode(
                SWAP_ROUTE_TYPEHASH,
                router,
                keccak256(abi.encodePacked(tokens)),
                minAmountOut,
                expectedAmountOut,
                keccak256(abi.encode(hopSwaps)),
                feeBps,
                feeRecipient,
                recipient
            )
        );
    }

    /// @dev Has RouterV2 execute the route of this call's arguments with the input `amountIn` (what arrived): the
    /// call's own arguments are `executeSwapsWithData`'s, in the same places, followed by the permit, which RouterV2's
    /// decoder does not read; so they are sent as they came, with the selector and `amountIn` replaced. RouterV2
    /// decodes the same bytes the witness was computed from.
    function _execute(uint256 amountIn) private returns (uint256 userAmountOut) {
        bytes memory data = msg.data;
        bytes4 selector = IRouterV2.executeSwapsWithData.selector;
        assembly ("memory-safe") {
            let start := add(data, 0x20)
            mstore(start, or(selector, shr(32, shl(32, mload(start)))))
            // The second argument word: `amountIn`.
            mstore(add(start, 0x24), amountIn)
        }
        (bool success, bytes memory result) = router.call(data);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
        userAmountOut = abi.decode(result, (uint256));
    }

    /// @dev Has Permit2 move `amount` of `token` from the signer to this contract against the signature; returns
    /// what arrived (less than `amount` for a fee-on-transfer token).
    function _take(address token, uint256 amount, uint256 deadline, bytes32 witness, Permit2Signature calldata permit)
        private
        returns (uint256 received)
    {
        uint256 balanceBefore = IERC20(token).balanceOf(address(this));
        IPermit2SignatureTransfer(permit2)
            .permitWitnessTransferFrom(
                IPermit2SignatureTransfer.PermitTransferFrom({
                permitted: IPermit2SignatureTransfer.TokenPermissions({token: token, amount: amount}),
                nonce: permit.nonce,
                deadline: deadline
            }),
                IPermit2SignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: amount}),
                permit.signer,
                witness,
                WITNESS_TYPE_STRING,
                permit.signature
            );
        received = IERC20(token).balanceOf(address(this)) - balanceBefore;
    }
}
