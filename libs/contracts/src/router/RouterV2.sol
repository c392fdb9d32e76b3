// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IWrappedNative} from "../interfaces/IWrappedNative.sol";
import {IUniswapV2Factory} from "../sources/v2/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "../sources/v2/interfaces/IUniswapV2Pair.sol";
import {IStablePoolFactory} from "../sources/stable/interfaces/IStablePoolFactory.sol";
import {IStablePool} from "../sources/stable/interfaces/IStablePool.sol";
import {IAmmPool} from "../amm/interfaces/IAmmPool.sol";
import {IAmmRouter} from "../amm/interfaces/IAmmRouter.sol";
import {ILaunchpad} from "../launchpad/interfaces/ILaunchpad.sol";
import {IUniswapV3Factory} from "../sources/v3/interfaces/IUniswapV3Factory.sol";
import {IUniswapV3Pool} from "../sources/v3/interfaces/IUniswapV3Pool.sol";
import {IUniswapV3SwapCallback} from "../sources/v3/interfaces/IUniswapV3SwapCallback.sol";
import {IAlgebraFactory} from "../sources/algebra/interfaces/IAlgebraFactory.sol";
import {IAlgebraPool} from "../sources/algebra/interfaces/IAlgebraPool.sol";
import {IAlgebraSwapCallback} from "../sources/algebra/interfaces/IAlgebraSwapCallback.sol";
import {IV4PoolManager, IV4UnlockCallback} from "../sources/v4/interfaces/IV4PoolManager.sol";
import {
    ICurveStableswapNGFactory,
    ICurveStableswapNGPool,
    ICurveTwocryptoNGFactory,
    ICurveTwocryptoNGPool
} from "./interfaces/ICurveNG.sol";
import {IRouterV2} from "./interfaces/IRouterV2.sol";
import {FeeMath} from "./libraries/FeeMath.sol";

/// @title RouterV2
/// @notice Executes aggregator routes: pulls the input from the caller straight into the first stage's pools (or
/// wraps the native coin and pays them), runs each stage's swaps on registry-vouched pools (a linear route's
/// stage is one hop split across parallel swaps; a route that splits across paths has stages trading several
/// pairs), splits the gross output into the user's amount, the integrator fee and captured positive slippage,
/// and pays everyone in the output token (in native coin when unwrapping). When there is nothing to take from
/// an ERC20 output (no fee, no slippage to capture), the last stage's pools pay the recipient directly.
/// @dev Every amount the router works with is a balance delta: what a pool received above its reserves, what
/// the router or the recipient received from a pool's swap. So fee-on-transfer tokens work, and tokens or coin
/// others left in the router are never touched: the router spends only what it holds for the call, kept per token
/// in memory (`Ledger`), and a route must end holding nothing but its output. The router never calls a caller-supplied target with
/// caller-supplied calldata: a pool is called, or paid, only after the registered source's factory returned it
/// for the swap's tokens, and only through the fixed calls of the source's kind; it pulls tokens only from
/// `msg.sender`, and only into such a pool. Concentrated-liquidity pools (Uniswap V3 and its forks, Algebra Integral)
/// are paid in their swap callback, which pays only the vouched pool the router is calling at that moment, once, in
/// the token it sells, and no more than the swap's share. Uniswap V4 pools are swapped inside their PoolManager's
/// `unlock`, all of a stage's swaps on one manager in one unlock: the router checks each swap's delta (it owes exactly
/// the swap's share of its input and is owed some output), pays what it owes (the native coin as such) and takes
/// what it is owed, so nothing is left owed to the manager or by it. Curve's StableswapNG and TwocryptoNG pools trade
/// on the coin indices their factory gives for the swap's tokens (which vouches for the pool), paid by a transfer
/// before `exchange_received`, or through an allowance of exactly the input that the pool pulls in `exchange` and that
/// is cleared afterwards.
contract RouterV2 is IRouterV2, Ownable2Step, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @dev The fee denominator of source fees.
    uint256 private constant BPS = 10_000;

    /// @inheritdoc IRouterV2
    uint256 public constant MAX_FEE_BPS = FeeMath.MAX_FEE_BPS;

    /// @inheritdoc IRouterV2
    uint256 public constant INTEGRATOR_SHARE_BPS = FeeMath.INTEGRATOR_SHARE_BPS;

    /// @inheritdoc IRouterV2
    uint256 public constant SLIPPAGE_CAPTURE_BPS = FeeMath.SLIPPAGE_CAPTURE_BPS;

    /// @inheritdoc IRouterV2
    address public immutable wrappedNative;

    /// @inheritdoc IRouterV2
    address public treasury;

    /// @dev The liquidity sources by registry slot.
    mapping(uint8 routerIndex => Source) private _sources;

    /// @dev Hooks with swap permissions allowed on a V4 source's pools.
    mapping(uint8 routerIndex => mapping(address hooks => bool)) private _allowedHooks;

    /// @dev The V4 PoolManager the router unlocked and whose `unlockCallback` it has not had yet: the only caller
    /// it honours, once (the callback clears it before it swaps).
    address private transient _v4Manager;

    /// @dev The launchpad or V4 PoolManager the router is trading with right now, the only sender besides the
    /// wrapped native token that may pay it native coin (sale proceeds and the refund of a buy that sells out a
    /// curve; a V4 swap's native output).
    address private transient _nativePayer;

    /// @dev The concentrated-liquidity pool the router is swapping on right now, vouched for by its source's
    /// factory: the only account whose swap callback is paid. Set with the other `_callback*` values just before the
    /// pool's `swap`; the payment clears it, so a pool is paid once per swap and no callback is paid between swaps.
    address private transient _callbackPool;

    /// @dev Who pays the active pool: the caller (first stage of a token input) or the router.
    address private transient _callbackPayer;

    /// @dev The active swap's direction: true when it sells token0.
    bool private transient _callbackZeroForOne;

    /// @dev The token the active swap sells.
    address private transient _callbackToken;

    /// @dev Before the payment, the most the active pool may ask for (the swap's share of its input); after it,
    /// what the pool was paid.
    uint256 private transient _callbackAmount;

    /// @dev The price limits of an exact-input swap that may move the price anywhere: one step inside the
    /// extremes of TickMath (the same values in Uniswap V3 and Algebra Integral), which the pools refuse as limits.
    uint160 private constant MIN_SQRT_PRICE_LIMIT = 4295128739 + 1;
    uint160 private constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970342 - 1;

    /// @dev A V4 hook's permissions that can change a swap (v4-core's `Hooks`): beforeSwap, afterSwap and their
    /// return deltas, in the low bits of the hook's address.
    uint160 private constant SWAP_HOOK_FLAGS = (1 << 7) | (1 << 6) | (1 << 3) | (1 << 2);

    /// @dev The `data` of a Curve swap whose pool pulls its input through an allowance (`abi.encode(uint256(1))`).
    uint256 private constant CURVE_PULL = 1;

    /// @dev The size of an ABI-encoded V4 pool key, a V4 swap's `data`.
    uint256 private constant V4_KEY_SIZE = 0xa0;

    /// @dev The unlock data's head: who pays the stage and where its output may go directly (see `Stage`). The
    /// stage's V4 swaps (`V4Leg`) follow it, packed.
    struct V4Head {
        address payer;
        address recipient;
        uint256 directLimit;
    }

    /// @dev One V4 swap as the unlock callback executes it: an exact input of `amountIn` on the pool of `key`.
    struct V4Leg {
        IV4PoolManager.PoolKey key;
        bool zeroForOne;
        uint256 amountIn;
    }

    /// @dev The sizes of `V4Head` and `V4Leg` as the unlock data packs them.
    uint256 private constant V4_HEAD_SIZE = 0x60;
    uint256 private constant V4_LEG_SIZE = 0xe0;

    /// @dev A V4 swap's outcome word in the callback's answer: the output as measured where it went, and in the
    /// top bit whether that was the recipient.
    uint256 private constant V4_TO_RECIPIENT = 1 << 255;

    /// @dev A stage's V4 swaps on one manager, gathered for one unlock: the unlock data (`V4Head`, then the legs),
    /// the number of legs and each one's output slot.
    struct V4Queue {
        address manager;
        uint256 count;
        bytes data;
        uint256[] slotsOut;
    }

    /// @dev The per-call settings of a route, gathered to keep the stack small.
    struct Order {
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 expectedAmountOut;
        uint256 feeBps;
        address feeRecipient;
        address recipient;
    }

    /// @dev One stage as it executes, gathered to keep the stack small.
    /// @param index The stage's position in `hopSwaps`.
    /// @param payer Who pays the stage's pools: the caller for the first stage of a token input, else the router.
    /// @param recipient The route's recipient when the last stage's pools may pay it directly, else address(0).
    /// @param directLimit The largest output of a swap that may go straight to `recipient`.
    /// @param paysRecipient Set once a swap of the stage paid `recipient` directly.
    /// @param received What the stage's pools received of their input (their balances above their reserves).
    struct Stage {
        uint256 index;
        address payer;
        address recipient;
        uint256 directLimit;
        bool paysRecipient;
        uint256 received;
    }

    /// @dev What the router holds for one call, by slot: slot `i` is `tokens[i]` as traded (the wrapped native
    /// token for address(0)); a token listed twice lives in its first slot. Only these amounts are ever spent, so
    /// tokens others sent the router are never touched. At most 256 slots, so that sets of slots are bitmaps.
    /// The slots live in one block of memory at `book`, `SLOT_SIZE` bytes each, read and written by the `_ledger*`
    /// helpers: the token, what the call holds of it (for the input before the first stage: what the caller pays;
    /// while a stage spends it: what is left of it to share out), and for a token the current stage spends, what
    /// it held of it at the stage's start, the sum of the quoted inputs of the stage's swaps on it and the
    /// position of the last of them.
    /// @param book The memory address of slot 0.
    /// @param slots The number of slots (`tokens.length`).
    /// @param held The slots the call holds: the input, then the outputs of stages that no stage since spent.
    /// @param spent The slots the current stage spends.
    /// @param quoted The slots the current stage spends with at least one non-zero quoted input.
    /// @param outSlot The output token's slot.
    struct Ledger {
        uint256 book;
        uint256 slots;
        uint256 held;
        uint256 spent;
        uint256 quoted;
        uint256 outSlot;
    }

    /// @dev The size of a ledger slot and the offsets of its fields.
    uint256 private constant SLOT_SIZE = 0xa0;
    uint256 private constant SLOT_AMOUNT = 0x20;
    uint256 private constant SLOT_STAGE_AMOUNT = 0x40;
    uint256 private constant SLOT_STAGE_QUOTED = 0x60;
    uint256 private constant SLOT_LAST_SWAP = 0x80;

    /// @dev A slot lookup's answer for a token the path does not list (and its value for inline assembly).
    uint256 private constant NO_SLOT = type(uint256).max;
    uint256 private constant NO_SLOT_WORD = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    /// @dev The offsets of `Swap`'s static fields in calldata that a stage's checks read.
    uint256 private constant SWAP_POOL = 0x00;
    uint256 private constant SWAP_TOKEN_IN = 0x20;
    uint256 private constant SWAP_TOKEN_OUT = 0x40;
    uint256 private constant SWAP_ROUTER_INDEX = 0x60;
    uint256 private constant SWAP_AMOUNT_IN = 0x80;

    /// @param initialOwner The account that manages the registry and the treasury.
    /// @param wrappedNative_ The chain's wrapped native token (WHYPE on 999, WETH on 4663).
    /// @param treasury_ The receiver of the protocol's fees and captured slippage.
    constructor(address initialOwner, address wrappedNative_, address treasury_) Ownable(initialOwner) {
        if (wrappedNative_ == address(0)) revert InvalidWrappedNative();
        wrappedNative = wrappedNative_;
        _setTreasury(treasury_);
    }

    /// @notice Accepts native coin from the wrapped native token (when the router unwraps), the launchpad it is
    /// trading with and the V4 PoolManager it unlocked (a native output it takes).
    receive() external payable {
        if (msg.sender != wrappedNative && msg.sender != _nativePayer) revert NativeSenderNotAllowed(msg.sender);
    }

    // ---------------------------------------------------------------- swaps

    /// @inheritdoc IRouterV2
    function executeSwaps(
        address[] calldata tokens,
        uint256 amountIn,
        uint256 minAmountOut,
        uint256 expectedAmountOut,
        Swap[][] calldata hopSwaps,
        uint256 feeBps,
        address feeRecipient
    ) external payable nonReentrant returns (uint256 userAmountOut) {
        Order memory order = Order({
            amountIn: amountIn,
            minAmountOut: minAmountOut,
            expectedAmountOut: expectedAmountOut,
            feeBps: feeBps,
            feeRecipient: feeRecipient,
            recipient: msg.sender
        });
        userAmountOut = _execute(tokens, hopSwaps, order);
    }

    /// @inheritdoc IRouterV2
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
    ) external payable nonReentrant returns (uint256 userAmountOut) {
        // A deadline only bounds how long a signed call stays valid; a validator's few seconds do not matter.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp > deadline) revert DeadlineExpired(deadline, block.timestamp);
        Order memory order;
        order.amountIn = amountIn;
        order.minAmountOut = minAmountOut;
        order.expectedAmountOut = expectedAmountOut;
        order.feeBps = feeBps;
        order.feeRecipient = feeRecipient;
        order.recipient = recipient;
        userAmountOut = _execute(tokens, hopSwaps, order);
    }

    /// @inheritdoc IRouterV2
    function previewFees(uint256 grossAmountOut, uint256 expectedAmountOut, uint256 feeBps, bool hasFeeRecipient)
        external
        pure
        returns (
            uint256 userAmount,
            uint256 integratorFee,
            uint256 protocolFee,
            uint256 recipientSlippage,
            uint256 protocolSlippage
        )
    {
        FeeMath.Split memory split = FeeMath.splitOutput(grossAmountOut, expectedAmountOut, feeBps, hasFeeRecipient);
        return
            (split.userAmount, split.integratorFee, split.protocolFee, split.recipientSlippage, split.protocolSlippage);
    }

    /// @inheritdoc IUniswapV3SwapCallback
    /// @dev Pays only the active pool (see `_payActivePool`); the data is ignored (the router passes none).
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _payActivePool(amount0Delta, amount1Delta);
    }

    /// @inheritdoc IAlgebraSwapCallback
    /// @dev Pays only the active pool (see `_payActivePool`); the data is ignored (the router passes none).
    function algebraSwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _payActivePool(amount0Delta, amount1Delta);
    }

    /// @inheritdoc IV4UnlockCallback
    /// @dev Honoured once, only from the manager the router unlocked (see `_unlockV4`): swaps each leg of the data the
    /// router packed, pays what the router owes for it and takes its output. Answers a word per leg (`V4_TO_RECIPIENT`).
    function unlockCallback(bytes calldata data) external returns (bytes memory outputs) {
        address manager = _v4Manager;
        if (msg.sender != manager) revert CallbackNotFromActivePool(msg.sender);
        _v4Manager = address(0);
        V4Head calldata head;
        V4Leg[] calldata legs;
        assembly ("memory-safe") {
            head := data.offset
            legs.offset := add(data.offset, V4_HEAD_SIZE)
            legs.length := div(sub(data.length, V4_HEAD_SIZE), V4_LEG_SIZE)
        }
        uint256 count = legs.length;
        outputs = new bytes(count << 5);
        for (uint256 i; i < count; ++i) {
            uint256 word = _swapV4Leg(IV4PoolManager(manager), head, legs[i]);
            assembly ("memory-safe") {
                mstore(add(add(outputs, 0x20), shl(5, i)), word)
            }
        }
    }

    // ---------------------------------------------------------------- registry and settings

    /// @inheritdoc IRouterV2
    function setSource(uint8 routerIndex, SourceKind kind, address factory, uint16 feeBps) external onlyOwner {
        if (kind == SourceKind.None) revert InvalidSourceKind();
        if (factory == address(0)) revert InvalidSourceFactory();
        if (feeBps >= BPS) revert InvalidSourceFee(feeBps);
        _sources[routerIndex] = Source({kind: kind, factory: factory, feeBps: feeBps});
        emit SourceSet(routerIndex, kind, factory, feeBps);
    }

    /// @inheritdoc IRouterV2
    function removeSource(uint8 routerIndex) external onlyOwner {
        if (_sources[routerIndex].kind == SourceKind.None) revert UnknownSource(routerIndex);
        delete _sources[routerIndex];
        emit SourceRemoved(routerIndex);
    }

    /// @inheritdoc IRouterV2
    function setHookAllowed(uint8 routerIndex, address hooks, bool allowed) external onlyOwner {
        _allowedHooks[routerIndex][hooks] = allowed;
        emit HookAllowedSet(routerIndex, hooks, allowed);
    }

    /// @inheritdoc IRouterV2
    function isHookAllowed(uint8 routerIndex, address hooks) public view returns (bool) {
        return uint160(hooks) & SWAP_HOOK_FLAGS == 0 || _allowedHooks[routerIndex][hooks];
    }

    /// @inheritdoc IRouterV2
    function getSource(uint8 routerIndex) external view returns (Source memory) {
        return _sources[routerIndex];
    }

    /// @inheritdoc IRouterV2
    function setTreasury(address treasury_) external onlyOwner {
        _setTreasury(treasury_);
    }

    // ---------------------------------------------------------------- route execution

    /// @dev Checks the order, takes the input, runs the stages and pays out. The first stage's pools are paid
    /// straight from the caller (or from the router for a wrapped native input); the last stage's pools pay the
    /// recipient directly when the router has nothing to take from the output, otherwise the router, which splits
    /// it. A linear route is the case of one token per stage: stage `i` spends `tokens[i]` for `tokens[i + 1]`.
    function _execute(address[] calldata tokens, Swap[][] calldata hopSwaps, Order memory order)
        private
        returns (uint256 userAmountOut)
    {
        Ledger memory ledger = _openLedger(tokens, hopSwaps.length, order);
        address tokenOut = tokens[tokens.length - 1];

        Stage memory stage;
        stage.payer = _takeInput(tokens[0], order.amountIn);
        uint256 amountTraded;
        uint256 stages = hopSwaps.length;
        for (uint256 i; i < stages; ++i) {
            stage.index = i;
            if (i + 1 == stages) _allowDirectPayout(stage, ledger, hopSwaps[i].length, tokenOut, order);
            _executeStage(ledger, stage, hopSwaps[i]);
            if (i == 0) {
                amountTraded = stage.received;
                stage.payer = address(this);
            }
        }

        uint256 amount = _closeLedger(ledger);
        userAmountOut = stage.paysRecipient ? _checkDirectPayout(amount, order) : _payOut(tokenOut, amount, order);
        emit SwapExecuted(msg.sender, order.recipient, tokens[0], tokenOut, amountTraded, userAmountOut, amount);
    }

    /// @dev Validates the path, the stage count and the settings; opens the call's ledger holding the input.
    function _openLedger(address[] calldata tokens, uint256 stageCount, Order memory order)
        private
        view
        returns (Ledger memory ledger)
    {
        uint256 length = tokens.length;
        if (length < 2 || length > 256) revert InvalidPath();
        uint256 last;
        // Cannot underflow: length >= 2.
        unchecked {
            last = length - 1;
        }
        if (stageCount == 0 || stageCount > last) revert InvalidHopSwaps(stageCount, last);
        if (order.amountIn == 0) revert ZeroAmount();
        FeeMath.checkFee(order.feeBps, order.feeRecipient != address(0));
        if (order.feeRecipient == address(this)) revert InvalidFeeRecipient(order.feeRecipient);
        if (order.recipient == address(0) || order.recipient == address(this)) {
            revert InvalidRecipient(order.recipient);
        }

        uint256 book;
        uint256 outSlot = NO_SLOT;
        bool nativeInside;
        address native = wrappedNative;
        assembly ("memory-safe") {
            book := mload(0x40)
            let size := mul(length, SLOT_SIZE)
            mstore(0x40, add(book, size))
            // Zeroes the block (calldata past its end reads as zeros).
            calldatacopy(book, calldatasize(), size)
            let outToken := calldataload(add(tokens.offset, shl(5, last)))
            if iszero(outToken) { outToken := native }
            for { let i := 0 } lt(i, length) { i := add(i, 1) } {
                let token := calldataload(add(tokens.offset, shl(5, i)))
                // As the ABI decoder does: a word that is not an address reverts.
                if shr(160, token) { revert(0, 0) }
                if iszero(token) {
                    if and(gt(i, 0), lt(i, last)) { nativeInside := 1 }
                    token := native
                }
                mstore(add(book, mul(i, SLOT_SIZE)), token)
                // The output's slot: the first that holds the output token.
                if and(eq(token, outToken), eq(outSlot, NO_SLOT_WORD)) { outSlot := i }
            }
            mstore(add(book, SLOT_AMOUNT), mload(order))
        }
        // The native coin can only be the input or the output.
        if (nativeInside) revert InvalidPath();
        ledger.book = book;
        ledger.slots = length;
        ledger.held = 1;
        ledger.outSlot = outSlot;
    }

    /// @dev After the last stage: the call must hold nothing but the output token. Returns what it holds of it.
    function _closeLedger(Ledger memory ledger) private pure returns (uint256 amountOut) {
        uint256 outSlot = ledger.outSlot;
        uint256 others = ledger.held & ~(uint256(1) << outSlot);
        if (others != 0) {
            uint256 slot;
            while ((others >> slot) & 1 == 0) {
                ++slot;
            }
            revert UnspentToken(address(uint160(_ledgerRead(ledger, slot, 0))));
        }
        amountOut = _ledgerRead(ledger, outSlot, SLOT_AMOUNT);
    }

    /// @dev Wraps a native input, which the router then pays the first stage's pools from; a token input is
    /// pulled from the caller straight into the first stage's pools. Returns who pays the first stage.
    function _takeInput(address tokenIn, uint256 amountIn) private returns (address payer) {
        if (tokenIn == address(0)) {
            if (msg.value != amountIn) revert NativeValueMismatch(msg.value, amountIn);
            IWrappedNative(wrappedNative).deposit{value: amountIn}();
            return address(this);
        }
        if (msg.value != 0) revert NativeValueMismatch(msg.value, 0);
        return msg.sender;
    }

    /// @dev Lets the last stage's pools pay the recipient directly when the router would take nothing from the
    /// output: an ERC20 output (no unwrapping), no integrator fee, and no positive slippage to capture (no
    /// expected amount, or a single swap whose output, priced before the pool pays it, is not above the expected
    /// amount; with a split the total is only known at the end, so it goes through the router). The output must
    /// all come from the last stage: when an earlier stage produced some of it, the router holds that part and
    /// pays the whole. Pools refuse to pay their own tokens, so such a recipient is paid through the router too,
    /// as is a recipient that is one of the stage's pools, and the route whose last stage has a swap that does not
    /// produce the output (`_noteSwap` and `_executeSingleSwapStage` clear `recipient` for them before any swap of
    /// the stage runs).
    function _allowDirectPayout(
        Stage memory stage,
        Ledger memory ledger,
        uint256 swapCount,
        address tokenOut,
        Order memory order
    ) private pure {
        if (tokenOut == address(0) || order.feeBps != 0) return;
        if ((ledger.held >> ledger.outSlot) & 1 != 0) return;
        uint256 expected = order.expectedAmountOut;
        if (expected == 0) stage.directLimit = type(uint256).max;
        else if (swapCount == 1) stage.directLimit = expected;
        else return;
        stage.recipient = order.recipient;
    }

    /// @dev Runs one stage: each swap takes its share of what the call holds of its input token, in proportion to
    /// the quoted inputs of the stage's swaps on that token (the last of them takes the remainder); what the swaps
    /// pay is held from the next stage on. Leaves in `stage` what the pools received of their input.
    function _executeStage(Ledger memory ledger, Stage memory stage, Swap[] calldata swaps) private {
        if (swaps.length == 1) {
            _executeSingleSwapStage(ledger, stage, swaps[0]);
            return;
        }
        uint256[] memory slots = _openStage(ledger, stage, swaps);
        uint256 produced;
        stage.received = 0;
        V4Queue memory queue;
        uint256 count = slots.length;
        for (uint256 i; i < count; ++i) {
            produced |= _stageSwap(ledger, stage, queue, swaps[i], slots[i], i, count);
        }
        if (queue.count != 0) _runV4Queue(ledger, stage, queue);
        ledger.held |= produced;
    }

    /// @dev Swap `index` of a multi-swap stage (`slots` as `_openStage` gives them): takes its share, then swaps it,
    /// or queues it for the stage's V4 unlock. Returns the bit of the slot it produces.
    function _stageSwap(
        Ledger memory ledger,
        Stage memory stage,
        V4Queue memory queue,
        Swap calldata swap_,
        uint256 slots,
        uint256 index,
        uint256 count
    ) private returns (uint256) {
        uint256 slotOut = slots >> 8;
        // What a stage produces is held from the next stage on: a stage cannot also spend it.
        if ((ledger.spent >> slotOut) & 1 != 0) revert StageTokenNotHeld(stage.index, swap_.tokenOut);
        uint256 share = _takeShare(ledger, slots & 0xff, index, swap_);
        Source memory source = _sources[swap_.routerIndex];
        if (!_queueV4(queue, source, swap_, share, slotOut, count)) {
            (uint256 received, uint256 amountOut) = _executeSwap(source, swap_, share, stage);
            stage.received += received;
            _ledgerAdd(ledger, slotOut, amountOut);
        }
        return uint256(1) << slotOut;
    }

    /// @dev Adds a stage's swap to the stage's V4 unlock when it is a V4 swap on the queue's manager (the first V4
    /// swap's; another manager's swaps unlock on their own): validated, and queued unless its share is zero. Returns
    /// whether it took the swap.
    function _queueV4(
        V4Queue memory queue,
        Source memory source,
        Swap calldata swap_,
        uint256 share,
        uint256 slotOut,
        uint256 swapCount
    ) private view returns (bool) {
        if (source.kind != SourceKind.UniswapV4) return false;
        if (queue.manager == address(0)) {
            queue.manager = source.factory;
            queue.data = new bytes(V4_HEAD_SIZE + swapCount * V4_LEG_SIZE);
            queue.slotsOut = new uint256[](swapCount);
        } else if (queue.manager != source.factory) {
            return false;
        }
        bool zeroForOne = _v4Direction(source, swap_);
        if (share == 0) return true;
        uint256 count = queue.count;
        _packV4Leg(queue.data, count, swap_, zeroForOne, share);
        queue.slotsOut[count] = slotOut;
        queue.count = count + 1;
        return true;
    }

    /// @dev Runs a stage's queued V4 swaps in one unlock and books their outputs (each paid the manager its share).
    function _runV4Queue(Ledger memory ledger, Stage memory stage, V4Queue memory queue) private {
        bytes memory data = queue.data;
        uint256 count = queue.count;
        assembly ("memory-safe") {
            mstore(data, add(V4_HEAD_SIZE, mul(count, V4_LEG_SIZE)))
        }
        bytes memory outputs = _unlockV4(queue.manager, data, stage);
        for (uint256 k; k < count; ++k) {
            (uint256 amountIn, uint256 amountOut) = _v4Outcome(data, outputs, k);
            stage.received += amountIn;
            _ledgerAdd(ledger, queue.slotsOut[k], amountOut);
        }
    }

    /// @dev A stage of one swap (each hop of a path that does not split): the checks of `_openStage` and
    /// `_noteSwap`, in the same order, for one swap, which spends all the call holds of its input token. (The
    /// general path gives the same amounts; this one saves the bookkeeping of shares.)
    function _executeSingleSwapStage(Ledger memory ledger, Stage memory stage, Swap calldata swap_) private {
        (address tokenIn, address tokenOut, uint256 slotIn, uint256 slotOut) = _slotsOf(ledger, swap_);
        if (slotIn == NO_SLOT || slotOut == NO_SLOT) revert SwapTokenMismatch(stage.index, 0);
        if ((ledger.held >> slotIn) & 1 == 0) revert StageTokenNotHeld(stage.index, tokenIn);
        if (_swapWord(swap_, SWAP_AMOUNT_IN) == 0) revert InvalidSplit(stage.index);
        address recipient = stage.recipient;
        if (recipient != address(0)) {
            // As in `_noteSwap`.
            if (
                slotOut != ledger.outSlot || tokenIn == recipient || tokenOut == recipient
                    || address(uint160(_swapWord(swap_, SWAP_POOL))) == recipient
            ) stage.recipient = address(0);
        }
        // What a stage produces is held from the next stage on: a stage cannot also spend it.
        if (slotOut == slotIn) revert StageTokenNotHeld(stage.index, tokenOut);

        uint256 amountIn = _ledgerRead(ledger, slotIn, SLOT_AMOUNT);
        _ledgerWrite(ledger, slotIn, SLOT_AMOUNT, 0);
        (uint256 received, uint256 amountOut) = _executeSwap(_sources[swap_.routerIndex], swap_, amountIn, stage);
        stage.received = received;
        _ledgerAdd(ledger, slotOut, amountOut);
        ledger.held = (ledger.held & ~(uint256(1) << slotIn)) | (uint256(1) << slotOut);
    }

    /// @dev Checks that the stage has swaps, that each trades two tokens of the path, and that each spends a
    /// token the call holds when the stage starts; sums the quoted inputs per spent token (which must not sum to
    /// zero) and takes the spent tokens out of the held set, noting what the stage shares out of each. Returns
    /// each swap's slots (`slotIn | slotOut << 8`).
    function _openStage(Ledger memory ledger, Stage memory stage, Swap[] calldata swaps)
        private
        pure
        returns (uint256[] memory slots)
    {
        uint256 count = swaps.length;
        if (count == 0) revert EmptyHop(stage.index);
        slots = new uint256[](count);
        ledger.spent = 0;
        ledger.quoted = 0;
        for (uint256 i; i < count; ++i) {
            slots[i] = _noteSwap(ledger, stage, swaps[i], i);
        }
        uint256 spent = ledger.spent;
        // A token none of whose swaps has a quoted input cannot be split.
        if (spent & ~ledger.quoted != 0) revert InvalidSplit(stage.index);
        ledger.held &= ~spent;
    }

    /// @dev Checks swap `index` of the stage and adds it to the stage's spending of its input token (which the
    /// call must hold: `ledger.held` is still the set at the stage's start; the token's first swap notes what the
    /// stage shares out of it). Returns its slots.
    function _noteSwap(Ledger memory ledger, Stage memory stage, Swap calldata swap_, uint256 index)
        private
        pure
        returns (uint256)
    {
        (address tokenIn, address tokenOut, uint256 slotIn, uint256 slotOut) = _slotsOf(ledger, swap_);
        if (slotIn == NO_SLOT || slotOut == NO_SLOT) revert SwapTokenMismatch(stage.index, index);
        uint256 bit = uint256(1) << slotIn;
        uint256 quoted = _swapWord(swap_, SWAP_AMOUNT_IN);
        if (quoted != 0) ledger.quoted |= bit;
        if (ledger.spent & bit == 0) {
            if (ledger.held & bit == 0) revert StageTokenNotHeld(stage.index, tokenIn);
            ledger.spent |= bit;
            _ledgerWrite(ledger, slotIn, SLOT_STAGE_AMOUNT, _ledgerRead(ledger, slotIn, SLOT_AMOUNT));
        } else {
            quoted += _ledgerRead(ledger, slotIn, SLOT_STAGE_QUOTED);
        }
        _ledgerWrite(ledger, slotIn, SLOT_STAGE_QUOTED, quoted);
        _ledgerWrite(ledger, slotIn, SLOT_LAST_SWAP, index);
        address recipient = stage.recipient;
        if (recipient != address(0)) {
            // A pool paying itself, or a token contract, would keep the output: such a recipient is paid by the
            // router, as is the route whose last stage produces anything but the output.
            if (
                slotOut != ledger.outSlot || tokenIn == recipient || tokenOut == recipient
                    || address(uint160(_swapWord(swap_, SWAP_POOL))) == recipient
            ) stage.recipient = address(0);
        }
        return slotIn | (slotOut << 8);
    }

    /// @dev The share of swap `index` of the stage, spending the token in `slot`: its quoted part of what the
    /// stage shares out of the token (floor), or, for the token's last swap of the stage, all that is left of it.
    function _takeShare(Ledger memory ledger, uint256 slot, uint256 index, Swap calldata swap_)
        private
        pure
        returns (uint256 share)
    {
        uint256 left = _ledgerRead(ledger, slot, SLOT_AMOUNT);
        if (index == _ledgerRead(ledger, slot, SLOT_LAST_SWAP)) {
            _ledgerWrite(ledger, slot, SLOT_AMOUNT, 0);
            return left;
        }
        share = Math.mulDiv(
            _ledgerRead(ledger, slot, SLOT_STAGE_AMOUNT),
            _swapWord(swap_, SWAP_AMOUNT_IN),
            _ledgerRead(ledger, slot, SLOT_STAGE_QUOTED)
        );
        // Cannot underflow: the shares are floors of amount * quoted / totalQuoted over quoted amounts that sum to
        // at most totalQuoted, so together they never exceed the amount.
        unchecked {
            _ledgerWrite(ledger, slot, SLOT_AMOUNT, left - share);
        }
    }

    /// @dev A swap's tokens and their slots in the path (the first that holds each), NO_SLOT for a token the path
    /// does not list. The tokens are read as raw words: a word with dirty high bits matches no slot (the path's
    /// tokens are clean addresses), and the swap's own code reads every field through the ABI decoder, which
    /// rejects such words, before it uses it.
    function _slotsOf(Ledger memory ledger, Swap calldata swap_)
        private
        pure
        returns (address tokenIn, address tokenOut, uint256 slotIn, uint256 slotOut)
    {
        uint256 book = ledger.book;
        uint256 slots = ledger.slots;
        assembly ("memory-safe") {
            tokenIn := calldataload(add(swap_, 0x20))
            tokenOut := calldataload(add(swap_, 0x40))
            slotIn := not(0)
            slotOut := not(0)
            for { let i := 0 } lt(i, slots) { i := add(i, 1) } {
                let token := mload(add(book, mul(i, SLOT_SIZE)))
                if and(eq(token, tokenIn), eq(slotIn, not(0))) { slotIn := i }
                if and(eq(token, tokenOut), eq(slotOut, not(0))) { slotOut := i }
            }
        }
    }

    /// @dev A word of a swap's static fields (`SWAP_*`), read raw for the checks of a stage; see `_slotsOf`.
    function _swapWord(Swap calldata swap_, uint256 offset) private pure returns (uint256 word) {
        assembly ("memory-safe") {
            word := calldataload(add(swap_, offset))
        }
    }

    /// @dev A field of a ledger slot (`slot` below `ledger.slots`, `field` one of the SLOT_* offsets, 0 for the
    /// token).
    function _ledgerRead(Ledger memory ledger, uint256 slot, uint256 field) private pure returns (uint256 value) {
        uint256 book = ledger.book;
        assembly ("memory-safe") {
            value := mload(add(add(book, mul(slot, SLOT_SIZE)), field))
        }
    }

    /// @dev Sets a field of a ledger slot.
    function _ledgerWrite(Ledger memory ledger, uint256 slot, uint256 field, uint256 value) private pure {
        uint256 book = ledger.book;
        assembly ("memory-safe") {
            mstore(add(add(book, mul(slot, SLOT_SIZE)), field), value)
        }
    }

    /// @dev Adds to what the call holds of a slot's token (checked: no token pays more than its supply).
    function _ledgerAdd(Ledger memory ledger, uint256 slot, uint256 amount) private pure {
        uint256 book = ledger.book;
        uint256 held;
        assembly ("memory-safe") {
            held := mload(add(add(book, mul(slot, SLOT_SIZE)), SLOT_AMOUNT))
        }
        held += amount;
        assembly ("memory-safe") {
            mstore(add(add(book, mul(slot, SLOT_SIZE)), SLOT_AMOUNT), held)
        }
    }

    /// @dev Dispatches one swap to its source's kind; returns what its pool received of `amountIn` and what it
    /// paid. A new kind is a new branch here (before the Curve kinds' branch, which takes every kind after UniswapV4)
    /// and a new `_swap*`, with the same shape: check that the source's contract vouches for `swap_.pool`, have
    /// `stage.payer` pay it `amountIn` through the kind's fixed calls, and send the output where `_outputTo` says,
    /// measured there.
    function _executeSwap(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        SourceKind kind = source.kind;
        if (kind == SourceKind.UniswapV2) (received, amountOut) = _swapUniswapV2(source, swap_, amountIn, stage);
        else if (kind == SourceKind.Stable) (received, amountOut) = _swapStable(source, swap_, amountIn, stage);
        else if (kind == SourceKind.Core) (received, amountOut) = _swapCore(source, swap_, amountIn, stage);
        else if (kind == SourceKind.Launchpad) (received, amountOut) = _swapLaunchpad(source, swap_, amountIn, stage);
        else if (kind == SourceKind.UniswapV3) (received, amountOut) = _swapUniswapV3(source, swap_, amountIn, stage);
        else if (kind == SourceKind.Algebra) (received, amountOut) = _swapAlgebra(source, swap_, amountIn, stage);
        else if (kind == SourceKind.UniswapV4) (received, amountOut) = _swapUniswapV4(source, swap_, amountIn, stage);
        else if (kind != SourceKind.None) (received, amountOut) = _swapCurve(source, swap_, amountIn, stage); // Curve NG
        else revert UnknownSource(swap_.routerIndex);
    }

    /// @dev A Uniswap V2 pair: has it paid, prices what it actually received with the source's fee, takes the
    /// output. A zero share is validated but not traded.
    function _swapUniswapV2(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        if (pool == address(0) || IUniswapV2Factory(source.factory).getPair(swap_.tokenIn, swap_.tokenOut) != pool) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return (0, 0);

        bool zeroForOne = swap_.tokenIn < swap_.tokenOut;
        uint256 quoted;
        (received, quoted) = _payUniswapV2(pool, source.feeBps, swap_.tokenIn, zeroForOne, amountIn, stage.payer);
        if (quoted == 0) revert ZeroAmountOut(pool);

        (address to, uint256 balanceBefore) = _outputTo(stage, swap_.tokenOut, quoted);
        if (zeroForOne) IUniswapV2Pair(pool).swap(0, quoted, to, "");
        else IUniswapV2Pair(pool).swap(quoted, 0, to, "");
        amountOut = IERC20(swap_.tokenOut).balanceOf(to) - balanceBefore;
    }

    /// @dev Has `payer` pay a V2 pair `amountIn` of `tokenIn`; returns what the pair received (its balance above
    /// its reserve, so a fee-on-transfer input is priced as it arrived) and the output that buys at the pair's
    /// reserves with the source's fee.
    function _payUniswapV2(
        address pool,
        uint256 feeBps,
        address tokenIn,
        bool zeroForOne,
        uint256 amountIn,
        address payer
    ) private returns (uint256 received, uint256 amountOut) {
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pool).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        received = _payPool(tokenIn, payer, pool, amountIn, reserveIn);
        uint256 receivedWithFee = received * (BPS - feeBps);
        amountOut = (receivedWithFee * reserveOut) / (reserveIn * BPS + receivedWithFee);
    }

    /// @dev A Solidly-style stable pool: has it paid, asks it to quote what it actually received, takes the
    /// output. A zero share is validated but not traded.
    function _swapStable(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        if (
            pool == address(0)
                || IStablePoolFactory(source.factory).getPair(swap_.tokenIn, swap_.tokenOut, true) != pool
        ) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return (0, 0);

        bool zeroForOne = swap_.tokenIn < swap_.tokenOut;
        (uint256 reserve0, uint256 reserve1,) = IStablePool(pool).getReserves();
        received = _payPool(swap_.tokenIn, stage.payer, pool, amountIn, zeroForOne ? reserve0 : reserve1);
        uint256 quoted = IStablePool(pool).getAmountOut(received, swap_.tokenIn);
        if (quoted == 0) revert ZeroAmountOut(pool);

        (address to, uint256 balanceBefore) = _outputTo(stage, swap_.tokenOut, quoted);
        if (zeroForOne) IStablePool(pool).swap(0, quoted, to, "");
        else IStablePool(pool).swap(quoted, 0, to, "");
        amountOut = IERC20(swap_.tokenOut).balanceOf(to) - balanceBefore;
    }

    /// @dev The oracle-validated AMM ("core"): the source's contract is the AMM router, which vouches for the one
    /// pool of each pair. Core pools price at their oracle and pull their input, so the router takes the input
    /// (from the caller in the first stage), approves exactly what it received to the pool and calls its
    /// `swap(tokenIn, tokenOut, amountIn, 0[, refCode])`; the pool pays the router, which forwards the output
    /// to the recipient when the stage pays it directly. `data` is empty or a 32-byte referral code (an unknown
    /// code never blocks the swap; it earns nothing). Minimum outputs are enforced on the whole route.
    function _swapCore(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address pool = swap_.pool;
        uint256 dataLength = swap_.data.length;
        if (dataLength != 0 && dataLength != 32) revert DataNotAllowed(pool);
        if (pool == address(0) || IAmmRouter(source.factory).getPoolForPair(swap_.tokenIn, swap_.tokenOut) != pool) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return (0, 0);

        IERC20 tokenIn = IERC20(swap_.tokenIn);
        IERC20 tokenOut = IERC20(swap_.tokenOut);
        received = _pullToRouter(swap_.tokenIn, stage.payer, amountIn);
        tokenIn.forceApprove(pool, received);
        uint256 outBefore = tokenOut.balanceOf(address(this));
        if (dataLength == 32) IAmmPool(pool).swap(swap_.tokenIn, swap_.tokenOut, received, 0, bytes32(swap_.data));
        else IAmmPool(pool).swap(swap_.tokenIn, swap_.tokenOut, received, 0);
        uint256 paid = tokenOut.balanceOf(address(this)) - outBefore;
        if (paid == 0) revert ZeroAmountOut(pool);
        // The pool pulls all it is given; an allowance left over would outlive the call.
        if (tokenIn.allowance(address(this), pool) != 0) tokenIn.forceApprove(pool, 0);

        (address to, uint256 balanceBefore) = _outputTo(stage, swap_.tokenOut, paid);
        if (to == address(this)) return (received, paid);
        tokenOut.safeTransfer(to, paid);
        amountOut = tokenOut.balanceOf(to) - balanceBefore;
    }

    /// @dev A bonding curve of the launchpad: the source's contract is the launchpad, which is also the swap's
    /// pool, and it vouches for its tokens (`isLaunchpadToken`); one side of the swap is the wrapped native
    /// token. A buy unwraps the input and calls `buyTokens{value}`; a buy that sells out the curve is filled
    /// partially and the launchpad refunds the rest, which the router returns to the caller in native coin
    /// (what the curve received is then the input less the refund). A sell needs no approval: the router holds
    /// the tokens, calls `sellTokens` and wraps the native coin it is paid. A graduated token's curve is frozen
    /// (the launchpad reverts `TokenFrozen`): it trades on its DEX pool instead.
    function _swapLaunchpad(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address launchpad = source.factory;
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        bool isBuy = swap_.tokenIn == wrappedNative;
        address token = isBuy ? swap_.tokenOut : swap_.tokenIn;
        if (
            pool != launchpad || (!isBuy && swap_.tokenOut != wrappedNative)
                || !ILaunchpad(launchpad).isLaunchpadToken(token)
        ) revert PoolNotVouched(swap_.routerIndex, pool);
        if (amountIn == 0) return (0, 0);

        received = _pullToRouter(swap_.tokenIn, stage.payer, amountIn);
        _nativePayer = launchpad;
        uint256 paid;
        if (isBuy) {
            IWrappedNative(wrappedNative).withdraw(received);
            uint256 nativeBefore = address(this).balance;
            uint256 tokensBefore = IERC20(token).balanceOf(address(this));
            ILaunchpad(launchpad).buyTokens{value: received}(token);
            paid = IERC20(token).balanceOf(address(this)) - tokensBefore;
            // Cannot underflow: the buy spent at most `received` of `nativeBefore`, and any refund came back.
            uint256 refund;
            unchecked {
                refund = address(this).balance + received - nativeBefore;
                received -= refund;
            }
            _sendNative(msg.sender, refund);
        } else {
            uint256 nativeBefore = address(this).balance;
            ILaunchpad(launchpad).sellTokens(token, received);
            paid = address(this).balance - nativeBefore;
            if (paid != 0) IWrappedNative(wrappedNative).deposit{value: paid}();
        }
        _nativePayer = address(0);
        if (paid == 0) revert ZeroAmountOut(pool);

        (address to, uint256 balanceBefore) = _outputTo(stage, swap_.tokenOut, paid);
        if (to == address(this)) return (received, paid);
        IERC20(swap_.tokenOut).safeTransfer(to, paid);
        amountOut = IERC20(swap_.tokenOut).balanceOf(to) - balanceBefore;
    }

    /// @dev A Uniswap V3 pool (or a fork's): vouched for when the source's factory returns it for the swap's two
    /// tokens and the fee tier the pool reports (`getPool(tokenIn, tokenOut, pool.fee())`), so the pool's tokens
    /// are the swap's; then an exact-input swap of the share (see `_swapConcentrated`). A zero share is validated
    /// but not traded.
    function _swapUniswapV3(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        (bool hasFee, uint24 fee) = _poolFee(pool);
        if (!hasFee || IUniswapV3Factory(source.factory).getPool(swap_.tokenIn, swap_.tokenOut, fee) != pool) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return (0, 0);
        return _swapConcentrated(pool, swap_, amountIn, stage, false);
    }

    /// @dev An Algebra Integral pool: vouched for when the source's factory returns it for the swap's two tokens
    /// (`poolByPair`, the factory's own pools, not those of custom deployers); then an exact-input swap of the share
    /// (see `_swapConcentrated`). The pool prices itself, fee included (static, or what its plugin sets), so the
    /// source's `feeBps` is informational. A zero share is validated but not traded.
    function _swapAlgebra(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        if (pool == address(0) || IAlgebraFactory(source.factory).poolByPair(swap_.tokenIn, swap_.tokenOut) != pool) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return (0, 0);
        return _swapConcentrated(pool, swap_, amountIn, stage, true);
    }

    /// @dev An exact-input swap of `amountIn` on a vouched concentrated-liquidity pool, with no price limit (one
    /// step inside the extremes). The pool pays the recipient directly when the stage may pay it without a limit
    /// (nothing to take from the output), else the router, which forwards the output when `_outputTo` says so. The
    /// pool asks to be paid in its callback, which pays it from `stage.payer` (the caller's tokens go straight to the
    /// pool) and checks what it asks for; the pool must take the whole share (`SwapInputNotSpent` otherwise: the
    /// router would keep the rest). The pool checks that it was paid what it asked, so a fee-on-transfer input does
    /// not trade here. Returns what the pool was paid and the output, measured where it was paid.
    function _swapConcentrated(address pool, Swap calldata swap_, uint256 amountIn, Stage memory stage, bool algebra)
        private
        returns (uint256 received, uint256 amountOut)
    {
        address tokenIn = swap_.tokenIn;
        address tokenOut = swap_.tokenOut;
        bool zeroForOne = tokenIn < tokenOut;
        address to = address(this);
        if (stage.recipient != address(0) && stage.directLimit == type(uint256).max) {
            to = stage.recipient;
            stage.paysRecipient = true;
        }
        uint256 balanceBefore = IERC20(tokenOut).balanceOf(to);

        _callbackPool = pool;
        _callbackPayer = stage.payer;
        _callbackZeroForOne = zeroForOne;
        _callbackToken = tokenIn;
        _callbackAmount = amountIn;
        int256 amountSpecified = SafeCast.toInt256(amountIn);
        uint160 priceLimit = zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT;
        if (algebra) IAlgebraPool(pool).swap(to, zeroForOne, amountSpecified, priceLimit, "");
        else IUniswapV3Pool(pool).swap(to, zeroForOne, amountSpecified, priceLimit, "");
        // The payment cleared the active pool and noted what it paid.
        if (_callbackPool != address(0)) revert SwapInputNotSpent(pool, amountIn, 0);
        received = _callbackAmount;
        if (received != amountIn) revert SwapInputNotSpent(pool, amountIn, received);

        amountOut = IERC20(tokenOut).balanceOf(to) - balanceBefore;
        if (amountOut == 0) revert ZeroAmountOut(pool);
        if (to != address(this)) return (received, amountOut);
        uint256 recipientBefore;
        (to, recipientBefore) = _outputTo(stage, tokenOut, amountOut);
        if (to == address(this)) return (received, amountOut);
        IERC20(tokenOut).safeTransfer(to, amountOut);
        amountOut = IERC20(tokenOut).balanceOf(to) - recipientBefore;
    }

    /// @dev Pays the active concentrated-liquidity pool what its swap callback asks for: only when the caller is
    /// that pool (set just before its `swap`, after its factory vouched for it; never the caller's choice of
    /// account), only in the token the swap sells, at most the swap's share, and once (the payment clears the active
    /// pool before it moves any token, so a reentrant token cannot be paid twice). Pays from the caller for the first
    /// stage of a token input (straight into the pool), else from the router.
    function _payActivePool(int256 amount0Delta, int256 amount1Delta) private {
        address pool = _callbackPool;
        if (msg.sender != pool) revert CallbackNotFromActivePool(msg.sender);
        (int256 owed, int256 other) = _callbackZeroForOne ? (amount0Delta, amount1Delta) : (amount1Delta, amount0Delta);
        if (owed <= 0 || other > 0) revert CallbackTokenMismatch(pool, amount0Delta, amount1Delta);
        // casting to 'uint256' is safe because owed > 0 here.
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 amount = uint256(owed);
        uint256 maxAmount = _callbackAmount;
        if (amount > maxAmount) revert CallbackAmountTooHigh(pool, amount, maxAmount);
        _callbackPool = address(0);
        _callbackAmount = amount;
        address payer = _callbackPayer;
        if (payer == address(this)) IERC20(_callbackToken).safeTransfer(pool, amount);
        else IERC20(_callbackToken).safeTransferFrom(payer, pool, amount);
    }

    /// @dev A Uniswap V4 swap alone in its unlock (a stage's other V4 swaps on the same manager share one: see
    /// `_executeStage`). A zero share is validated but not traded.
    function _swapUniswapV4(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        bool zeroForOne = _v4Direction(source, swap_);
        if (amountIn == 0) return (0, 0);
        bytes memory data = new bytes(V4_HEAD_SIZE + V4_LEG_SIZE);
        _packV4Leg(data, 0, swap_, zeroForOne, amountIn);
        return _v4Outcome(data, _unlockV4(source.factory, data, stage), 0);
    }

    /// @dev Validates a V4 swap and returns its direction: the source's contract is the PoolManager, which must be
    /// the swap's `pool`; `data` is the pool's key, whose currencies must be the swap's tokens (address(0), the
    /// native coin, standing for the wrapped native token) and whose hook must be allowed (`isHookAllowed`). The
    /// key's fields are read through the ABI decoder's checks; the manager refuses a key of a pool it does not hold.
    function _v4Direction(Source memory source, Swap calldata swap_) private view returns (bool zeroForOne) {
        address pool = swap_.pool;
        bytes calldata data = swap_.data;
        if (data.length != V4_KEY_SIZE) revert DataNotAllowed(pool);
        if (pool != source.factory) revert PoolNotVouched(swap_.routerIndex, pool);
        IV4PoolManager.PoolKey calldata key;
        assembly ("memory-safe") {
            key := data.offset
        }
        address native = wrappedNative;
        address token0 = key.currency0;
        address token1 = key.currency1;
        if (token0 == address(0)) token0 = native;
        if (token1 == address(0)) token1 = native;
        zeroForOne = swap_.tokenIn == token0 && swap_.tokenOut == token1;
        if (!zeroForOne && (swap_.tokenIn != token1 || swap_.tokenOut != token0)) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        // Read through the decoder's checks, so that the fee and tick spacing the manager gets are clean too.
        (key.fee, key.tickSpacing);
        address hooks = key.hooks;
        if (!isHookAllowed(swap_.routerIndex, hooks)) revert HookNotAllowed(swap_.routerIndex, hooks);
    }

    /// @dev Writes V4 leg `index` into unlock data: the swap's pool key, its direction and its share.
    function _packV4Leg(bytes memory data, uint256 index, Swap calldata swap_, bool zeroForOne, uint256 amountIn)
        private
        pure
    {
        bytes calldata key = swap_.data;
        assembly ("memory-safe") {
            let leg := add(add(data, add(0x20, V4_HEAD_SIZE)), mul(index, V4_LEG_SIZE))
            calldatacopy(leg, key.offset, V4_KEY_SIZE)
            mstore(add(leg, V4_KEY_SIZE), zeroForOne)
            mstore(add(leg, add(V4_KEY_SIZE, 0x20)), amountIn)
        }
    }

    /// @dev Leg `index`'s share (what the manager was paid: the callback checks it took exactly that) and output.
    function _v4Outcome(bytes memory data, bytes memory outputs, uint256 index)
        private
        pure
        returns (uint256 amountIn, uint256 amountOut)
    {
        assembly ("memory-safe") {
            let leg := add(add(data, add(0x20, V4_HEAD_SIZE)), mul(index, V4_LEG_SIZE))
            amountIn := mload(add(leg, add(V4_KEY_SIZE, 0x20)))
            amountOut := mload(add(add(outputs, 0x20), shl(5, index)))
        }
        amountOut &= ~V4_TO_RECIPIENT;
    }

    /// @dev Unlocks `manager` with `data` (the head is written here from `stage`; its `unlockCallback` swaps the
    /// legs) and returns the callback's answer; notes in `stage` a leg that paid the recipient. Only this manager's
    /// callback is honoured, once, and only it may pay the router native coin meanwhile.
    function _unlockV4(address manager, bytes memory data, Stage memory stage) private returns (bytes memory outputs) {
        address payer = stage.payer;
        address recipient = stage.recipient;
        uint256 directLimit = stage.directLimit;
        assembly ("memory-safe") {
            mstore(add(data, 0x20), payer)
            mstore(add(data, 0x40), recipient)
            mstore(add(data, 0x60), directLimit)
        }
        _v4Manager = manager;
        _nativePayer = manager;
        outputs = IV4PoolManager(manager).unlock(data);
        _nativePayer = address(0);
        // The callback clears the manager: a manager that returned without calling back swapped nothing.
        uint256 count = (data.length - V4_HEAD_SIZE) / V4_LEG_SIZE;
        if (_v4Manager != address(0) || outputs.length != count << 5) revert SwapInputNotSpent(manager, 0, 0);
        for (uint256 i; i < count; ++i) {
            uint256 word;
            assembly ("memory-safe") {
                word := mload(add(add(outputs, 0x20), shl(5, i)))
            }
            if (word & V4_TO_RECIPIENT != 0) stage.paysRecipient = true;
        }
    }

    /// @dev One V4 swap inside the unlock (see `_v4Swap`): pays the manager what the router owes for it and takes
    /// what it is owed, so both deltas close. Returns the leg's outcome word.
    function _swapV4Leg(IV4PoolManager manager, V4Head calldata head, V4Leg calldata leg) private returns (uint256) {
        uint256 due = _v4Swap(manager, leg);
        IV4PoolManager.PoolKey calldata key = leg.key;
        bool zeroForOne = leg.zeroForOne;
        _settleV4(manager, zeroForOne ? key.currency0 : key.currency1, head.payer, leg.amountIn);
        return _takeV4(manager, zeroForOne ? key.currency1 : key.currency0, due, head);
    }

    /// @dev The swap of a V4 leg: an exact input of its share with no price limit (one step inside the extremes, V4's
    /// TickMath being V3's). The router must owe exactly the share of the input currency and be owed some of the
    /// output currency, whatever the pool's hook did (`UnexpectedDelta` otherwise; `ZeroAmountOut` for a share too
    /// small to buy anything). Returns what it is owed.
    function _v4Swap(IV4PoolManager manager, V4Leg calldata leg) private returns (uint256 due) {
        bool zeroForOne = leg.zeroForOne;
        uint256 amountIn = leg.amountIn;
        IV4PoolManager.SwapParams memory params = IV4PoolManager.SwapParams({
            zeroForOne: zeroForOne,
            amountSpecified: -SafeCast.toInt256(amountIn),
            sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT
        });
        int256 delta = manager.swap(leg.key, params, "");
        int256 amount0 = delta >> 128;
        int256 amount1 = int256(int128(delta));
        (int256 owed, int256 owing) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (owed >= 0 || owing < 0) revert UnexpectedDelta(leg.key.hooks, amount0, amount1);
        if (owing == 0) revert ZeroAmountOut(address(manager));
        // casting to 'uint256' is safe because owed < 0 here (and an int128).
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 paid = uint256(-owed);
        if (paid > amountIn) revert CallbackAmountTooHigh(address(manager), paid, amountIn);
        if (paid != amountIn) revert SwapInputNotSpent(address(manager), amountIn, paid);
        // casting to 'uint256' is safe because owing > 0 here.
        // forge-lint: disable-next-line(unsafe-typecast)
        due = uint256(owing);
    }

    /// @dev Pays the manager `amount` of `currency` from `payer`: the native coin unwrapped from what the router holds
    /// (pulled first when the caller pays), a token straight from the payer between `sync` and `settle`, which must
    /// count all of it (a token taking a fee on transfer does not trade here).
    function _settleV4(IV4PoolManager manager, address currency, address payer, uint256 amount) private {
        if (currency == address(0)) {
            _pullToRouter(wrappedNative, payer, amount);
            IWrappedNative(wrappedNative).withdraw(amount);
            manager.settle{value: amount}();
            return;
        }
        manager.sync(currency);
        if (payer == address(this)) IERC20(currency).safeTransfer(address(manager), amount);
        else IERC20(currency).safeTransferFrom(payer, address(manager), amount);
        uint256 settled = manager.settle();
        if (settled != amount) revert SwapInputNotSpent(address(manager), amount, settled);
    }

    /// @dev Takes a V4 swap's output `amount` of `currency` from the manager: to the recipient when the stage may pay
    /// it directly and the amount is within its limit (`_outputTo`'s rule), else to the router. The native coin is
    /// taken by the router and wrapped (what the route holds of it is the wrapped token). Returns the outcome word:
    /// the output as measured where it went, `V4_TO_RECIPIENT` set when that is the recipient.
    function _takeV4(IV4PoolManager manager, address currency, uint256 amount, V4Head calldata head)
        private
        returns (uint256)
    {
        address recipient = head.recipient;
        bool toRecipient = recipient != address(0) && amount <= head.directLimit;
        uint256 flag = toRecipient ? V4_TO_RECIPIENT : 0;
        if (currency == address(0)) {
            manager.take(address(0), address(this), amount);
            IWrappedNative(wrappedNative).deposit{value: amount}();
            if (toRecipient) IERC20(wrappedNative).safeTransfer(recipient, amount);
            return amount | flag;
        }
        address to = toRecipient ? recipient : address(this);
        uint256 balanceBefore = IERC20(currency).balanceOf(to);
        manager.take(currency, to, amount);
        return (IERC20(currency).balanceOf(to) - balanceBefore) | flag;
    }

    /// @dev A Curve StableswapNG or TwocryptoNG pool: vouched for when the source's factory gives the swap's coin
    /// indices in it (`_curveCall`); a zero share is validated but not traded. Empty `data`: the payer pays the pool by
    /// a transfer and the pool swaps what it received (its balance increase, so a fee-on-transfer input trades as it
    /// arrived) in `exchange_received(i, j, received, 0, to)`. `data` = `abi.encode(uint256(1))`: the router takes the
    /// input (from the caller in the first stage), approves exactly what it received, and the pool pulls it in
    /// `exchange(i, j, received, 0, to)` (a StableswapNG pool holding a rebasing coin refuses `exchange_received`); an
    /// allowance left over is cleared. Any other `data` is refused. The pool pays the recipient directly when the stage
    /// may pay it any amount (`_outputTo` asked with the largest output), else the router: the output is not known
    /// before the swap and no quote is asked for (a pool's `get_dy` costs about as much as its swap), so a last stage
    /// of one swap whose output is capped by the expected amount pays the router, which splits the output and pays the
    /// recipient (`_payOut`). The swap's own minimum is 0: minimum outputs are enforced on the whole route. Returns what
    /// the pool received and the output, measured where it was paid.
    function _swapCurve(Source memory source, Swap calldata swap_, uint256 amountIn, Stage memory stage)
        private
        returns (uint256 received, uint256 amountOut)
    {
        (uint256 call_, bool pull) = _curveCall(source, swap_);
        if (amountIn == 0) return (0, 0);

        // Read raw: `_curveCall` read the pool through the ABI decoder's checks, and a token word with dirty high bits
        // matches no slot of the path (the stage's checks refused it).
        address pool = address(uint160(_swapWord(swap_, SWAP_POOL)));
        IERC20 tokenIn = IERC20(address(uint160(_swapWord(swap_, SWAP_TOKEN_IN))));
        IERC20 tokenOut = IERC20(address(uint160(_swapWord(swap_, SWAP_TOKEN_OUT))));
        // The recipient when the stage may pay it any amount (the output is not known before the swap), else the router.
        (address to, uint256 balanceBefore) = _outputTo(stage, address(tokenOut), type(uint256).max);
        if (pull) {
            received = _pullToRouter(address(tokenIn), stage.payer, amountIn);
            tokenIn.forceApprove(pool, received);
        } else {
            received =
                _payPool(address(tokenIn), stage.payer, pool, amountIn, _tokenView(address(tokenIn), pool, address(0)));
        }
        assembly ("memory-safe") {
            mstore(add(call_, 0x44), received)
            mstore(add(call_, 0x84), to)
            if iszero(call(gas(), pool, 0, call_, 0xa4, 0, 0)) {
                returndatacopy(call_, 0, returndatasize())
                revert(call_, returndatasize())
            }
        }
        // The pool pulls all it is approved for; an allowance left over would outlive the call.
        if (pull && _tokenView(address(tokenIn), address(this), pool) != 0) tokenIn.forceApprove(pool, 0);

        amountOut = _tokenView(address(tokenOut), to, address(0)) - balanceBefore;
        if (amountOut == 0) revert ZeroAmountOut(pool);
    }

    /// @dev `token.balanceOf(account)`, or with a `spender`, `token.allowance(account, spender)`, read with the checks
    /// of a high-level call (a failed call's revert is passed on, a short answer reverts).
    function _tokenView(address token, address account, address spender) private view returns (uint256 amount) {
        bytes4 selector = spender == address(0) ? IERC20.balanceOf.selector : IERC20.allowance.selector;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 0x04), account)
            mstore(add(p, 0x24), spender)
            if iszero(
                and(
                    staticcall(gas(), token, p, add(0x24, shl(5, iszero(iszero(spender)))), p, 0x20),
                    gt(returndatasize(), 0x1f)
                )
            ) {
                returndatacopy(p, 0x00, returndatasize())
                revert(p, returndatasize())
            }
            amount := mload(p)
        }
    }

    /// @dev Vouches for a Curve swap's pool and writes the pool call of the swap in memory, at the returned address:
    /// the selector (`exchange` when `pull`, else `exchange_received`, of the kind's pool), the coin indices, a zero
    /// `min_dy`; `_swapCurve` fills in the input and the receiver. The indices come from the source's factory:
    /// StableswapNG's `get_coin_indices(pool, tokenIn, tokenOut)` answers `(int128 i, int128 j, bool isUnderlying)`,
    /// TwocryptoNG's `(uint256 i, uint256 j)` (the same words in calldata: NG's pool takes int128 indices, Twocrypto's
    /// uint256, only the selectors differ); both revert for a pool they did not deploy and for coins the pool does not
    /// hold. NG's flag is true on its plain-pool path as well as for a metapool's underlying coins (false only for a
    /// metapool's own two coins), so an underlying pair is told by the factory's `is_meta(pool)`, and refused: its
    /// indices are the underlying coins', not the pool's. A failed call, a short answer or an underlying pair:
    /// `PoolNotVouched`.
    function _curveCall(Source memory source, Swap calldata swap_) private view returns (uint256 call_, bool pull) {
        address pool = swap_.pool;
        bytes calldata data = swap_.data;
        assembly ("memory-safe") {
            pull := and(eq(data.length, 0x20), eq(calldataload(data.offset), CURVE_PULL))
        }
        if (data.length != 0 && !pull) revert DataNotAllowed(pool);
        address factory = source.factory;
        bool ng = source.kind == SourceKind.CurveStableswapNG;
        bytes4 selector = ng
            ? (pull ? ICurveStableswapNGPool.exchange.selector : ICurveStableswapNGPool.exchange_received.selector)
            : (pull ? ICurveTwocryptoNGPool.exchange.selector : ICurveTwocryptoNGPool.exchange_received.selector);
        bytes4 getCoinIndices = ICurveTwocryptoNGFactory.get_coin_indices.selector;
        bytes4 isMeta = ICurveStableswapNGFactory.is_meta.selector;
        bool ok;
        assembly ("memory-safe") {
            call_ := mload(0x40)
            mstore(0x40, add(call_, 0xc0))
            mstore(call_, selector)
            let q := add(call_, 0x40)
            mstore(q, getCoinIndices)
            // The swap's pool and tokens (the pool read through the ABI decoder's checks above; a token with dirty
            // high bits matches no slot of the path, so the stage's checks refused it).
            calldatacopy(add(q, 0x04), swap_, 0x60)
            // The answer lands after the selector: i, j, then NG's flag (where the input goes later). Two words for
            // Twocrypto, three for NG.
            ok := staticcall(gas(), factory, q, 0x64, add(call_, 0x04), 0x60)
            ok := and(ok, iszero(lt(returndatasize(), add(0x40, shl(5, ng)))))
            if and(ok, and(ng, iszero(iszero(mload(add(call_, 0x44)))))) {
                mstore(0x00, isMeta)
                mstore(0x04, pool)
                ok := staticcall(gas(), factory, 0x00, 0x24, 0x00, 0x20)
                ok := and(ok, and(iszero(lt(returndatasize(), 0x20)), iszero(mload(0x00))))
            }
            mstore(add(call_, 0x64), 0)
        }
        // The slot was read through the ABI decoder's checks when the source was looked up.
        // casting to 'uint8' is safe because the word is a uint8 (see above).
        // forge-lint: disable-next-line(unsafe-typecast)
        if (!ok) revert PoolNotVouched(uint8(_swapWord(swap_, SWAP_ROUTER_INDEX)), pool);
    }

    /// @dev A pool's `fee()` (a Uniswap V3 fee tier), read without trusting the account: false when the call fails
    /// or does not return a uint24 (no code, not a pool).
    function _poolFee(address pool) private view returns (bool ok, uint24 fee) {
        bytes4 selector = IUniswapV3Pool.fee.selector;
        uint256 word;
        assembly ("memory-safe") {
            mstore(0x00, selector)
            ok := staticcall(gas(), pool, 0x00, 0x04, 0x00, 0x20)
            ok := and(ok, iszero(lt(returndatasize(), 0x20)))
            word := mload(0x00)
        }
        if (!ok || word > type(uint24).max) return (false, 0);
        // casting to 'uint24' is safe because word <= type(uint24).max here.
        // forge-lint: disable-next-line(unsafe-typecast)
        fee = uint24(word);
    }

    /// @dev Brings `amount` of `token` into the router for a source that takes its input from the router: pulled
    /// from the caller in the first stage of a token input (measured, so a fee-on-transfer input counts as it
    /// arrived), already here otherwise. Returns what the router has to trade.
    function _pullToRouter(address token, address payer, uint256 amount) private returns (uint256 received) {
        if (payer == address(this)) return amount;
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(payer, address(this), amount);
        received = IERC20(token).balanceOf(address(this)) - before;
    }

    /// @dev Pays a vouched pool `amount` of `token`: pulled from the caller for the first stage of a token input,
    /// otherwise sent by the router. `payer` is only ever `msg.sender` or the router (set by `_execute`), so the
    /// router never moves anyone else's tokens. Returns the pool's balance above `reserveIn`: what it received.
    function _payPool(address token, address payer, address pool, uint256 amount, uint256 reserveIn)
        private
        returns (uint256 received)
    {
        if (payer == address(this)) IERC20(token).safeTransfer(pool, amount);
        else IERC20(token).safeTransferFrom(payer, pool, amount);
        received = IERC20(token).balanceOf(pool) - reserveIn;
    }

    /// @dev Where a swap of output `amountOut` sends it (the recipient when the stage may pay it directly and the
    /// output is within `directLimit`, otherwise the router), and that account's balance before the swap.
    function _outputTo(Stage memory stage, address tokenOut, uint256 amountOut)
        private
        view
        returns (address to, uint256 balanceBefore)
    {
        to = address(this);
        if (stage.recipient != address(0) && amountOut <= stage.directLimit) {
            to = stage.recipient;
            stage.paysRecipient = true;
        }
        balanceBefore = IERC20(tokenOut).balanceOf(to);
    }

    // ---------------------------------------------------------------- payout

    /// @dev The recipient was paid by the last stage's pools: nothing to split, only `minAmountOut` to check.
    function _checkDirectPayout(uint256 amountOut, Order memory order) private pure returns (uint256) {
        if (amountOut < order.minAmountOut) revert InsufficientOutput(amountOut, order.minAmountOut);
        return amountOut;
    }

    /// @dev Splits the gross output, pays the recipient (checking `minAmountOut` on what it received), then the
    /// fee recipient and the treasury. Unwraps first when the output is the native coin.
    function _payOut(address tokenOut, uint256 grossAmountOut, Order memory order)
        private
        returns (uint256 userAmountOut)
    {
        FeeMath.Split memory split = FeeMath.splitOutput(
            grossAmountOut, order.expectedAmountOut, order.feeBps, order.feeRecipient != address(0)
        );

        if (tokenOut == address(0)) {
            IWrappedNative(wrappedNative).withdraw(grossAmountOut);
            userAmountOut = split.userAmount;
            _sendNative(order.recipient, userAmountOut);
        } else {
            // Measured, so that a fee-on-transfer output is checked against minAmountOut as received.
            uint256 balanceBefore = IERC20(tokenOut).balanceOf(order.recipient);
            if (split.userAmount > 0) IERC20(tokenOut).safeTransfer(order.recipient, split.userAmount);
            userAmountOut = IERC20(tokenOut).balanceOf(order.recipient) - balanceBefore;
        }
        if (userAmountOut < order.minAmountOut) revert InsufficientOutput(userAmountOut, order.minAmountOut);

        _send(tokenOut, order.feeRecipient, split.integratorFee + split.recipientSlippage);
        // The treasury is only read when it is owed something.
        if (split.protocolFee > 0) _send(tokenOut, treasury, split.protocolFee);

        // Cannot underflow: protocolFee includes protocolSlippage.
        uint256 protocolFeeShare;
        unchecked {
            protocolFeeShare = split.protocolFee - split.protocolSlippage;
        }
        if (split.integratorFee > 0 || protocolFeeShare > 0) {
            emit FeesCollected(tokenOut, order.feeRecipient, split.integratorFee, protocolFeeShare);
        }
        if (split.recipientSlippage > 0 || split.protocolSlippage > 0) {
            emit PositiveSlippageCaptured(
                tokenOut, split.positiveSlippage, split.recipientSlippage, split.protocolSlippage
            );
        }
    }

    /// @dev Sends `amount` of `token` (native coin for address(0)); nothing for a zero amount.
    function _send(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (token == address(0)) _sendNative(to, amount);
        else IERC20(token).safeTransfer(to, amount);
    }

    /// @dev Sends native coin with all gas; nothing for a zero amount.
    function _sendNative(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool success,) = to.call{value: amount}("");
        if (!success) revert NativeTransferFailed(to, amount);
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0) || treasury_ == address(this)) revert InvalidTreasury(treasury_);
        address previous = treasury;
        treasury = treasury_;
        emit TreasurySet(previous, treasury_);
    }
}
