// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IUniswapV3SwapCallback} from "../../sources/v3/interfaces/IUniswapV3SwapCallback.sol";
import {IAlgebraSwapCallback} from "../../sources/algebra/interfaces/IAlgebraSwapCallback.sol";
import {IV4UnlockCallback} from "../../sources/v4/interfaces/IV4PoolManager.sol";

/// @title IRouterV2
/// @notice The aggregator's execution contract. A route is a list of stages of swaps on liquidity sources
/// registered by the owner; a linear route (a token path, each hop split across parallel swaps) has one stage
/// per hop, and a route that splits across paths (say USDC -> PURR beside USDC -> WHYPE -> PURR) has stages
/// whose swaps trade different pairs. Each swap takes its share of what the call holds of its input token. The
/// router pulls the input from the caller straight into the first stage's pools (or wraps the native coin and
/// pays them), runs the stages in order, takes the integrator fee and half of any positive slippage from the
/// output, and pays the rest to the recipient (the last stage's pools pay the recipient directly when there is
/// nothing to take and nothing to unwrap). It only ever calls pools that a registered source's factory vouches
/// for, and it holds no tokens or native coin after a call. Concentrated-liquidity pools (Uniswap V3 and its
/// forks, Algebra Integral) are paid in their swap callbacks, which the router honours only from the vouched pool
/// it is calling at that moment, and for at most that swap's input. Uniswap V4 pools are swapped inside the
/// registered PoolManager's `unlock` (one per stage for the stage's swaps on that manager), whose `unlockCallback`
/// the router honours only from that manager while it is swapping; a pool's hook must be one the source allows.
/// Curve's StableswapNG and TwocryptoNG pools are paid by a transfer before `exchange_received`, or through an
/// allowance of exactly the swap's input that the pool pulls in `exchange` (and that the router clears afterwards).
interface IRouterV2 is IUniswapV3SwapCallback, IAlgebraSwapCallback, IV4UnlockCallback {
    // ---------------------------------------------------------------- types

    /// @notice The kind of a liquidity source, which decides how the router trades with its pools.
    /// @dev `None` marks an empty registry slot. For `UniswapV2` and `Stable` the registered contract is the pool
    /// factory; for `Core` (the oracle-priced AMM) the AMM router; for `Launchpad` (bonding curves before
    /// graduation) the launchpad, which is also the swap's pool. For `UniswapV3` (Uniswap V3 and its forks) the
    /// factory, whose `getPool(tokenIn, tokenOut, pool.fee())` must be the swap's pool; for `Algebra` (Algebra
    /// Integral) the factory, whose `poolByPair(tokenIn, tokenOut)` must be the swap's pool. For `UniswapV4` the
    /// singleton PoolManager, which is the swap's `pool`; the swap's `data` is the pool's key, whose hook must carry
    /// no permission that can change a swap, or be allowed for the source (`setHookAllowed`).
    /// `CurveStableswapNG` (Curve's StableswapNG pools) and `CurveTwocryptoNG` (Curve's TwocryptoNG pools): the pool
    /// factory, whose `get_coin_indices(pool, tokenIn, tokenOut)` must answer for the swap's pool (it reverts for a pool
    /// it did not deploy and for coins the pool does not hold) and gives the coin indices the pool trades with; a
    /// StableswapNG metapool's underlying coins are refused (only its own two coins trade). The swap's `data` chooses
    /// how the pool is paid: empty, by a transfer, then `exchange_received`; `abi.encode(uint256(1))`, by an allowance
    /// the pool pulls in `exchange` (a StableswapNG pool holding a rebasing coin refuses `exchange_received`).
    enum SourceKind {
        None,
        UniswapV2,
        Stable,
        Core,
        Launchpad,
        UniswapV3,
        Algebra,
        UniswapV4,
        CurveStableswapNG,
        CurveTwocryptoNG
    }

    /// @notice A registered liquidity source.
    /// @param kind How the router trades with the source's pools.
    /// @param factory The contract that vouches for the source's pools (a pool factory, or for the reserved
    /// kinds the AMM router or the launchpad).
    /// @param feeBps The source's swap fee in basis points of the input; the router prices `UniswapV2` swaps
    /// with it. Informational for the other kinds (their pools price themselves; a V3 pool's fee tier is its own,
    /// an Algebra pool's fee may be dynamic).
    struct Source {
        SourceKind kind;
        address factory;
        uint16 feeBps;
    }

    /// @notice One swap of a stage (a hop-swap record of the route response).
    /// @param pool The pool to trade with; must be the pool the source's factory returns for the two tokens.
    /// @param tokenIn The token the swap spends, listed in `tokens` (the wrapped native token where `tokens` has
    /// the native coin).
    /// @param tokenOut The token the swap produces, listed in `tokens` (likewise).
    /// @param routerIndex The registry slot of the liquidity source.
    /// @param amountIn The quoted input of this swap; what the call holds of `tokenIn` when the stage starts is
    /// split across the stage's swaps on `tokenIn` in proportion to their quoted inputs (floor), the last of them
    /// in array order taking the remainder.
    /// @param data An opaque per-pool blob; must be empty for `UniswapV2`, `Stable`, `Launchpad`, `UniswapV3`
    /// and `Algebra`, reserved for kinds that need it (a referral code for `Core`; for `UniswapV4` the pool's key,
    /// `abi.encode(IV4PoolManager.PoolKey)`, whose currencies are the swap's tokens, address(0) standing for the
    /// wrapped native token; for `CurveStableswapNG` and `CurveTwocryptoNG` empty, or `abi.encode(uint256(1))` to have
    /// the pool pull its input through an allowance).
    struct Swap {
        address pool;
        address tokenIn;
        address tokenOut;
        uint8 routerIndex;
        uint256 amountIn;
        bytes data;
    }

    // ---------------------------------------------------------------- errors

    /// @notice The path has fewer than two tokens or more than 256, or the native coin (address(0)) as an
    /// intermediate token.
    error InvalidPath();

    /// @notice `hopSwaps` has no stage, or more stages than `tokens.length - 1` (a route that does not cycle
    /// spends each token of `tokens` but the output in one stage at most).
    /// @param hops The number of stages given.
    /// @param expected The most stages the path allows (`tokens.length - 1`, the hops of a linear route).
    error InvalidHopSwaps(uint256 hops, uint256 expected);

    /// @notice A stage has no swaps.
    /// @param hop The stage's position in `hopSwaps` (from 0).
    error EmptyHop(uint256 hop);

    /// @notice The quoted inputs of a stage's swaps on one input token sum to zero, so what the call holds of it
    /// cannot be split.
    /// @param hop The stage's position in `hopSwaps` (from 0).
    error InvalidSplit(uint256 hop);

    /// @notice A stage spends a token the call does not hold when the stage starts: neither the input (held by
    /// the first stage) nor the output of an earlier stage that no stage since has spent. A stage cannot spend a
    /// token it produces itself either (it is held from the next stage on).
    /// @param stage The stage's position in `hopSwaps` (from 0).
    /// @param token The token (as traded: the wrapped native token for the native coin).
    error StageTokenNotHeld(uint256 stage, address token);

    /// @notice The route ends holding a token other than its output: an intermediate token that no later stage
    /// spent (a route must spend everything it produces, so the router keeps nothing).
    /// @param token The token (as traded: the wrapped native token for the native coin).
    error UnspentToken(address token);

    /// @notice `amountIn` is zero. (A pool that receives nothing of its share reverts `ZeroAmountOut`.)
    error ZeroAmount();

    /// @notice `msg.value` is not `amountIn` for a native input, or not zero for a token input.
    /// @param value The native coin sent.
    /// @param expected The native coin required.
    error NativeValueMismatch(uint256 value, uint256 expected);

    /// @notice The call was mined after its deadline.
    /// @param deadline The deadline given.
    /// @param timestamp The block timestamp.
    error DeadlineExpired(uint256 deadline, uint256 timestamp);

    /// @notice The output recipient is the zero address or the router itself.
    /// @param recipient The recipient given.
    error InvalidRecipient(address recipient);

    /// @notice The fee recipient is the router itself.
    /// @param feeRecipient The fee recipient given.
    error InvalidFeeRecipient(address feeRecipient);

    /// @notice A swap names a registry slot that holds no source.
    /// @param routerIndex The slot.
    error UnknownSource(uint8 routerIndex);

    /// @notice A swap's pool is not the pool the source's factory returns for the swap's tokens (for the Curve kinds:
    /// the factory gives no coin indices of the swap's tokens in it, or only underlying ones).
    /// @param routerIndex The source's slot.
    /// @param pool The pool given.
    error PoolNotVouched(uint8 routerIndex, address pool);

    /// @notice A swap trades a token that `tokens` does not list (the native coin must appear as the wrapped
    /// native token in a swap).
    /// @param hop The stage's position in `hopSwaps` (from 0).
    /// @param index The swap's position in the stage (from 0).
    error SwapTokenMismatch(uint256 hop, uint256 index);

    /// @notice A swap carries data that its source's kind does not take.
    /// @param pool The swap's pool.
    error DataNotAllowed(address pool);

    /// @notice A swap's share of its input is too small for the pool to pay anything.
    /// @param pool The swap's pool.
    error ZeroAmountOut(address pool);

    /// @notice A concentrated-liquidity pool did not take the whole share it was given (its liquidity ran out
    /// before the swap's input was spent, or it never asked to be paid); the route would leave the rest unspent.
    /// @param pool The swap's pool.
    /// @param amountIn The swap's share of its input token.
    /// @param paid What the pool asked for and was paid.
    error SwapInputNotSpent(address pool, uint256 amountIn, uint256 paid);

    /// @notice A swap callback (`uniswapV3SwapCallback` or `algebraSwapCallback`) came from an account other than
    /// the vouched pool the router is swapping on at that moment, or that pool called it a second time; or
    /// `unlockCallback` came from an account other than the PoolManager the router unlocked, or when it was not
    /// swapping.
    /// @param caller The callback's caller.
    error CallbackNotFromActivePool(address caller);

    /// @notice The active pool's callback asked to be paid in the token it sells, or for nothing of the token
    /// it buys.
    /// @param pool The pool.
    /// @param amount0Delta The token0 it asked for (positive) or paid (negative).
    /// @param amount1Delta The token1 it asked for (positive) or paid (negative).
    error CallbackTokenMismatch(address pool, int256 amount0Delta, int256 amount1Delta);

    /// @notice The active pool's callback asked for more than the swap's share of its input.
    /// @param pool The pool.
    /// @param amount What it asked for.
    /// @param maxAmount The swap's share of its input.
    error CallbackAmountTooHigh(address pool, uint256 amount, uint256 maxAmount);

    /// @notice A V4 pool key names a hook that may change swaps (it has a swap permission) and that the source
    /// does not allow.
    /// @param routerIndex The source's slot.
    /// @param hooks The key's hook.
    error HookNotAllowed(uint8 routerIndex, address hooks);

    /// @notice A V4 swap left the router owing something other than its input, or owed nothing of its output (a
    /// hook took more than the swap pays).
    /// @param hooks The pool's hook.
    /// @param amount0 The router's delta in currency0 (negative: owed to the PoolManager).
    /// @param amount1 The router's delta in currency1.
    error UnexpectedDelta(address hooks, int256 amount0, int256 amount1);

    /// @notice `feeBps` is above `MAX_FEE_BPS`.
    /// @param feeBps The fee given.
    /// @param maxFeeBps The maximum.
    error FeeTooHigh(uint256 feeBps, uint256 maxFeeBps);

    /// @notice A fee was asked for without a fee recipient.
    error FeeRecipientRequired();

    /// @notice The recipient would receive less than `minAmountOut`.
    /// @param amountOut What the recipient would receive.
    /// @param minAmountOut The minimum given.
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);

    /// @notice Sending native coin failed.
    /// @param to The recipient.
    /// @param amount The amount in wei.
    error NativeTransferFailed(address to, uint256 amount);

    /// @notice Native coin came from someone other than the wrapped native token.
    /// @param sender The sender.
    error NativeSenderNotAllowed(address sender);

    /// @notice The treasury is the zero address or the router itself.
    /// @param treasury The treasury given.
    error InvalidTreasury(address treasury);

    /// @notice The wrapped native token given at deployment is the zero address.
    error InvalidWrappedNative();

    /// @notice `setSource` was given the kind `None`.
    error InvalidSourceKind();

    /// @notice `setSource` was given the zero address as the factory.
    error InvalidSourceFactory();

    /// @notice `setSource` was given a fee of 100% or more.
    /// @param feeBps The fee given.
    error InvalidSourceFee(uint16 feeBps);

    // ---------------------------------------------------------------- events

    /// @notice A route was executed.
    /// @param sender The caller, who paid the input.
    /// @param recipient The receiver of the output.
    /// @param tokenIn The input token (address(0) for the native coin).
    /// @param tokenOut The output token (address(0) for the native coin).
    /// @param amountIn The input the first stage's pools received, measured as their balances above their
    /// reserves (below the amount asked for with fee-on-transfer tokens, which the router pulls straight into the
    /// pools).
    /// @param amountOut What the recipient received.
    /// @param grossAmountOut The route's output (of every stage that produced the output token), before fees and
    /// slippage capture, as the router received it; when the last stage's pools paid the recipient directly (an
    /// ERC20 output with no fee and no slippage to capture), as the recipient received it, so equal to
    /// `amountOut`.
    event SwapExecuted(
        address indexed sender,
        address indexed recipient,
        address indexed tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 grossAmountOut
    );

    /// @notice The integrator fee of a route was paid.
    /// @param token The output token it was paid in (address(0) for the native coin).
    /// @param feeRecipient The integrator, who received `integratorFee`.
    /// @param integratorFee The integrator's share of the fee (97.5%).
    /// @param protocolFee The protocol's share of the fee, paid to the treasury (captured slippage excluded).
    event FeesCollected(
        address indexed token, address indexed feeRecipient, uint256 integratorFee, uint256 protocolFee
    );

    /// @notice Half of the positive slippage of a route was captured.
    /// @param token The output token it was paid in (address(0) for the native coin).
    /// @param slippage The output above the expected amount (both after the fee), before it was split.
    /// @param recipientShare The part paid to the fee recipient.
    /// @param protocolShare The part paid to the treasury.
    event PositiveSlippageCaptured(
        address indexed token, uint256 slippage, uint256 recipientShare, uint256 protocolShare
    );

    /// @notice A registry slot was set.
    /// @param routerIndex The slot.
    /// @param kind The source's kind.
    /// @param factory The contract that vouches for its pools.
    /// @param feeBps The source's swap fee in basis points.
    event SourceSet(uint8 indexed routerIndex, SourceKind kind, address indexed factory, uint16 feeBps);

    /// @notice A registry slot was cleared.
    /// @param routerIndex The slot.
    event SourceRemoved(uint8 indexed routerIndex);

    /// @notice A hook with swap permissions was allowed, or no longer allowed, on a V4 source's pools.
    event HookAllowedSet(uint8 indexed routerIndex, address indexed hooks, bool allowed);

    /// @notice The treasury was set.
    /// @param previousTreasury The former treasury (zero at deployment).
    /// @param treasury The new treasury.
    event TreasurySet(address indexed previousTreasury, address indexed treasury);

    // ---------------------------------------------------------------- swaps

    /// @notice Executes a route and pays the output, less fees and captured slippage, to the caller.
    /// @dev Approve the router for `amountIn` of `tokens[0]` first (none for native input). The router pulls the
    /// input from the caller straight into the first stage's (vouched) pools, each its share of `amountIn`.
    /// Stage by stage, each swap spends its share of what the call holds of its `tokenIn`: the input for the first
    /// stage, afterwards what earlier stages produced and no stage since spent (never what others sent the
    /// router). A stage spends all the call holds of each token it trades in, split across its swaps on that
    /// token by their quoted `amountIn`s (floor, the last such swap taking the remainder); what it produces is held
    /// from the next stage on. Reverts `StageTokenNotHeld` when a stage spends a token not held at its start,
    /// `UnspentToken` when the route ends holding anything but the output token.
    /// @param tokens The path: `tokens[0]` is the input, the last token the output, the tokens between are the
    /// route's intermediate tokens. For a linear route, hop `i` trades `tokens[i]` for `tokens[i + 1]`; for a
    /// route that splits across paths, each intermediate token is listed once, in the order the stages first
    /// produce them (stage by stage, swap by swap). Every swap's tokens must be listed (`SwapTokenMismatch`).
    /// address(0) stands for the native coin, allowed first (input is `msg.value`, which is wrapped) and last
    /// (the output is unwrapped), nowhere else.
    /// @param amountIn The input to pull from the caller (or the native coin sent, which must equal it).
    /// @param minAmountOut The least the caller must receive after fees and slippage capture.
    /// @param expectedAmountOut The quoted gross output; output above it (after the fee) is positive slippage,
    /// half of which is captured. Zero turns the capture off.
    /// @param hopSwaps The stages, in order, each an array of swaps (between 1 and `tokens.length - 1` stages; a
    /// linear route has one per hop, its hop's parallel swaps).
    /// @param feeBps The integrator fee in basis points of the gross output, at most `MAX_FEE_BPS`.
    /// @param feeRecipient The integrator, paid 97.5% of the fee and half of the captured slippage; may be
    /// zero only when `feeBps` is zero.
    /// @return userAmountOut What the caller received.
    function executeSwaps(
        address[] calldata tokens,
        uint256 amountIn,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient
    ) external payable returns (uint256 userAmountOut);

    /// @notice Executes a route like `executeSwaps`, paying the output to `recipient`, and only until `deadline`.
    /// @param tokens The path, as for `executeSwaps`.
    /// @param amountIn The input to pull from the caller (or the native coin sent, which must equal it).
    /// @param minAmountOut The least `recipient` must receive after fees and slippage capture.
    /// @param expectedAmountOut The quoted gross output, as for `executeSwaps`.
    /// @param hopSwaps The stages, as for `executeSwaps`.
    /// @param feeBps The integrator fee in basis points of the gross output, at most `MAX_FEE_BPS`.
    /// @param feeRecipient The integrator, as for `executeSwaps`.
    /// @param recipient The receiver of the output (neither zero nor the router).
    /// @param deadline The last block timestamp at which the call may execute.
    /// @return userAmountOut What `recipient` received.
    function executeSwapsWithData(
        address[] calldata tokens,
        uint256 amountIn,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient,
        address recipient,
        uint256 deadline
    ) external payable returns (uint256 userAmountOut);

    /// @notice How a gross output is split, exactly as a swap splits it (and as the off-chain `splitOutput`):
    /// `userAmount + integratorFee + protocolFee + recipientSlippage == grossAmountOut`. Reverts `FeeTooHigh`
    /// and `FeeRecipientRequired` as a swap would.
    /// @param grossAmountOut The route's output.
    /// @param expectedAmountOut The quoted gross output (zero: no slippage capture).
    /// @param feeBps The integrator fee in basis points.
    /// @param hasFeeRecipient Whether a fee recipient is set.
    /// @return userAmount What the user receives.
    /// @return integratorFee The integrator's share of the fee.
    /// @return protocolFee Everything the treasury receives: its share of the fee plus `protocolSlippage`.
    /// @return recipientSlippage The captured slippage paid to the fee recipient.
    /// @return protocolSlippage The captured slippage paid to the treasury (included in `protocolFee`).
    function previewFees(uint256 grossAmountOut, uint256 expectedAmountOut, uint256 feeBps, bool hasFeeRecipient)
        external
        pure
        returns (
            uint256 userAmount,
            uint256 integratorFee,
            uint256 protocolFee,
            uint256 recipientSlippage,
            uint256 protocolSlippage
        );

    // ---------------------------------------------------------------- registry and settings

    /// @notice Sets registry slot `routerIndex` to a liquidity source. Only the owner.
    /// @param routerIndex The slot (the `routerIndex` of hop-swap records).
    /// @param kind The source's kind (not `None`).
    /// @param factory The contract that vouches for its pools (not zero).
    /// @param feeBps The source's swap fee in basis points (below 10000).
    function setSource(uint8 routerIndex, SourceKind kind, address factory, uint16 feeBps) external;

    /// @notice Clears registry slot `routerIndex`. Only the owner.
    /// @param routerIndex The slot; reverts `UnknownSource` when empty.
    function removeSource(uint8 routerIndex) external;

    /// @notice Allows (or stops allowing) a hook with swap permissions on the pools of the V4 source in slot
    /// `routerIndex` (owner only). A hook without swap permissions needs no allowance. Removing the source does not
    /// clear its allowances.
    function setHookAllowed(uint8 routerIndex, address hooks, bool allowed) external;

    /// @notice Whether the router swaps on V4 pools of source `routerIndex` whose hook is `hooks`: no hook, a hook
    /// without swap permissions, or an allowed one.
    function isHookAllowed(uint8 routerIndex, address hooks) external view returns (bool);

    /// @notice The source in registry slot `routerIndex` (kind `None` when empty).
    /// @param routerIndex The slot.
    /// @return The source.
    function getSource(uint8 routerIndex) external view returns (Source memory);

    /// @notice Sets the receiver of the protocol's fees and captured slippage. Only the owner.
    /// @param treasury The new treasury (neither zero nor the router).
    function setTreasury(address treasury) external;

    /// @notice The receiver of the protocol's fees and captured slippage.
    /// @return The treasury.
    function treasury() external view returns (address);

    /// @notice The chain's wrapped native token, used for native input and output.
    /// @return The token.
    function wrappedNative() external view returns (address);

    /// @notice The largest integrator fee: 100 basis points (1%).
    /// @return The maximum.
    function MAX_FEE_BPS() external view returns (uint256);

    /// @notice The integrator's share of the fee: 9750 basis points of the fee (97.5%).
    /// @return The share.
    function INTEGRATOR_SHARE_BPS() external view returns (uint256);

    /// @notice The captured part of positive slippage: 5000 basis points (50%).
    /// @return The share.
    function SLIPPAGE_CAPTURE_BPS() external view returns (uint256);
}
