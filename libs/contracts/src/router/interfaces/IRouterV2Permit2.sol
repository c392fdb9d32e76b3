// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IRouterV2} from "./IRouterV2.sol";

/// @title IRouterV2Permit2
/// @notice RouterV2's entry for signed routes: a wallet approves Uniswap's Permit2 once per token and signs each
/// route, instead of approving RouterV2 (a second transaction before a first swap, and an allowance left behind).
/// The signature is Permit2's `PermitWitnessTransferFrom` with this contract as the spender; its witness binds the
/// route, so the signature is good for that route only, and once. This contract takes the input from the signer
/// through Permit2 and has RouterV2 execute the route (`executeSwapsWithData`) with it; it holds nothing after a
/// call. Anyone may send the transaction (the signer, or a relayer): the signature decides everything.
/// @dev A contract of its own beside RouterV2 (whose runtime code is at the EIP-170 limit), so RouterV2's bytecode and
/// its routes' gas are unchanged, and a chain where RouterV2 is deployed only adds this one.
interface IRouterV2Permit2 {
    /// @notice A signed route's Permit2 signature.
    /// @param signer The owner of the input, who signed, and who approved Permit2 for the input token.
    /// @param nonce The signature's Permit2 nonce (unordered: any nonce the signer has not used).
    /// @param signature The signer's signature (65 bytes, or 64 in EIP-2098 form; a contract wallet's per EIP-1271).
    struct Permit2Signature {
        address signer;
        uint256 nonce;
        bytes signature;
    }

    /// @notice A route's input was taken from its signer through Permit2 and the route executed. Follows RouterV2's
    /// `SwapExecuted` (whose `sender` is this contract).
    /// @param signer The owner of the input, who signed the route.
    /// @param sender The account that sent the transaction.
    /// @param nonce The Permit2 nonce the signature used (now spent).
    /// @param amountIn What arrived of the input (below the signed amount for a fee-on-transfer token).
    event SwapSigned(address indexed signer, address indexed sender, uint256 nonce, uint256 amountIn);

    /// @notice The route's input is the native coin, which is sent with a call to RouterV2, not signed for.
    error NativeInputNotSigned();

    /// @notice The route's recipient or fee recipient is this contract, which would keep what it was paid.
    error RecipientIsEntry();

    /// @notice The call was mined after its deadline (the signature's deadline).
    /// @param deadline The deadline given.
    /// @param timestamp The block timestamp.
    error DeadlineExpired(uint256 deadline, uint256 timestamp);

    /// @notice A constructor argument has no code: the router or Permit2.
    /// @param account The address given.
    error NotAContract(address account);

    /// @notice Executes a route like RouterV2's `executeSwapsWithData`, taking the input from `permit.signer` through
    /// Permit2 with the signer's signature.
    /// @dev The signature is Permit2's `PermitWitnessTransferFrom` (EIP-712, Permit2's domain) over: `permitted`,
    /// `tokens[0]` and `amountIn`; `spender`, this contract; `nonce`; `deadline`; and the witness
    /// `SwapRoute(address router,address[] tokens,uint256 minAmountOut,uint256 expectedAmountOut,bytes32 stages,uint256
    /// feeBps,address feeRecipient,address recipient)`, whose `router` is the RouterV2 this contract calls and whose
    /// `stages` is `keccak256(abi.encode(hopSwaps))`. Any other route, amount, recipient, deadline or signer fails
    /// Permit2's signature check (`InvalidSigner`, or `InvalidSignature` for a malformed one), a second use of the
    /// nonce `InvalidNonce`, a late call `DeadlineExpired`. RouterV2 then pulls what arrived from this contract into
    /// the first stage's pools, and reverts as it does for `executeSwapsWithData`.
    /// @param tokens The path, as for `executeSwaps`; the input must be a token (not the native coin).
    /// @param amountIn The input taken from the signer, as signed.
    /// @param minAmountOut The least `recipient` must receive after fees and slippage capture.
    /// @param expectedAmountOut The quoted gross output, as for `executeSwaps`.
    /// @param hopSwaps The stages, as for `executeSwaps`.
    /// @param feeBps The integrator fee in basis points of the gross output.
    /// @param feeRecipient The integrator, as for `executeSwaps`.
    /// @param recipient The receiver of the output (neither zero, nor the router, nor this contract).
    /// @param deadline The last block timestamp at which the call may execute, the signature's deadline.
    /// @param permit The signer, the nonce and the signature.
    /// @return userAmountOut What `recipient` received.
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
    ) external returns (uint256 userAmountOut);

    /// @notice The RouterV2 this contract has execute the routes.
    function router() external view returns (address);

    /// @notice The chain's Permit2.
    function permit2() external view returns (address);

    /// @notice The EIP-712 type of the witness (`SwapRoute(...)`).
    // forge-lint: disable-next-line(mixed-case-function)
    function SWAP_ROUTE_TYPE() external view returns (string memory);

    /// @notice Permit2's `witnessTypeString` for the witness: `SwapRoute witness)`, `SwapRoute(...)`, then
    /// `TokenPermissions(address token,uint256 amount)`.
    // forge-lint: disable-next-line(mixed-case-function)
    function WITNESS_TYPE_STRING() external view returns (string memory);

    /// @notice The witness of a route, as the signature must bind it: the EIP-712 hash of its `SwapRoute`.
    function routeWitness(
        address[] calldata tokens,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        IRouterV2.Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient
    ) external view returns (bytes32);
}
