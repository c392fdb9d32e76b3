// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IWrappedNative} from "../interfaces/IWrappedNative.sol";
import {IUniswapV2Factory} from "../sources/v2/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "../sources/v2/interfaces/IUniswapV2Pair.sol";
import {IStablePoolFactory} from "../sources/stable/interfaces/IStablePoolFactory.sol";
import {IStablePool} from "../sources/stable/interfaces/IStablePool.sol";
import {IAmmPool} from "../amm/interfaces/IAmmPool.sol";
import {IAmmRouter} from "../amm/interfaces/IAmmRouter.sol";
import {ILaunchpad} from "../launchpad/interfaces/ILaunchpad.sol";
import {IRouterV2} from "./interfaces/IRouterV2.sol";
import {FeeMath} from "./libraries/FeeMath.sol";

/// @title RouterV2
/// @notice Executes aggregator routes: pulls the input from the caller straight into the first hop's pools (or
/// wraps the native coin and pays them), runs each hop across its parallel swaps on registry-vouched pools,
/// splits the gross output into the user's amount, the integrator fee and captured positive slippage, and pays
/// everyone in the output token (in native coin when unwrapping). When there is nothing to take from an ERC20
/// output (no fee, no slippage to capture), the last hop's pools pay the recipient directly.
/// @dev Every amount the router works with is a balance delta: what a pool received above its reserves, what
/// the router or the recipient received from a pool's swap. So fee-on-transfer tokens work, and tokens or coin
/// others left in the router are never touched. The router never calls a caller-supplied target with
/// caller-supplied calldata: a pool is called, or paid, only after the registered source's factory returned it
/// for the swap's tokens, and only through the fixed calls of the source's kind; it pulls tokens only from
/// `msg.sender`, and only into such a pool.
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

    /// @dev The launchpad the router is trading with right now, the only sender besides the wrapped native
    /// token that may pay it native coin (sale proceeds and the refund of a buy that sells out a curve).
    address private transient _nativePayer;

    /// @dev The per-call settings of a route, gathered to keep the stack small.
    struct Order {
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 expectedAmountOut;
        uint256 feeBps;
        address feeRecipient;
        address recipient;
    }

    /// @dev One hop as it executes, gathered to keep the stack small.
    /// @param index The hop's position in the path.
    /// @param tokenIn The token the hop's swaps trade in (the wrapped native token for the native coin).
    /// @param tokenOut The token the hop's swaps trade out (likewise).
    /// @param payer Who pays the hop's pools: the caller for the first hop of a token input, else the router.
    /// @param recipient The route's recipient when the last hop's pools may pay it directly, else address(0).
    /// @param directLimit The largest output of a swap that may go straight to `recipient`.
    /// @param paysRecipient Set once a swap of the hop paid `recipient` directly.
    /// @param received What the hop's pools received of its input (their balances above their reserves).
    /// @param amountOut What the hop's swaps paid out, as measured where they paid it.
    struct Hop {
        uint256 index;
        address tokenIn;
        address tokenOut;
        address payer;
        address recipient;
        uint256 directLimit;
        bool paysRecipient;
        uint256 received;
        uint256 amountOut;
    }

    /// @param initialOwner The account that manages the registry and the treasury.
    /// @param wrappedNative_ The chain's wrapped native token (WHYPE on 999, WETH on 4663).
    /// @param treasury_ The receiver of the protocol's fees and captured slippage.
    constructor(address initialOwner, address wrappedNative_, address treasury_) Ownable(initialOwner) {
        if (wrappedNative_ == address(0)) revert InvalidWrappedNative();
        wrappedNative = wrappedNative_;
        _setTreasury(treasury_);
    }

    /// @notice Accepts native coin from the wrapped native token only (when the router unwraps the output).
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
    function getSource(uint8 routerIndex) external view returns (Source memory) {
        return _sources[routerIndex];
    }

    /// @inheritdoc IRouterV2
    function setTreasury(address treasury_) external onlyOwner {
        _setTreasury(treasury_);
    }

    // ---------------------------------------------------------------- route execution

    /// @dev Checks the order, takes the input, runs the hops and pays out. The first hop's pools are paid straight
    /// from the caller (or from the router for a wrapped native input); the last hop's pools pay the recipient
    /// directly when the router has nothing to take from the output, otherwise the router, which splits it.
    function _execute(address[] calldata tokens, Swap[][] calldata hopSwaps, Order memory order)
        private
        returns (uint256 userAmountOut)
    {
        uint256 hops = _checkOrder(tokens, hopSwaps.length, order);
        address tokenOut = tokens[hops];

        Hop memory hop;
        hop.payer = _takeInput(tokens[0], order.amountIn);
        uint256 amountTraded;
        uint256 amount = order.amountIn;
        for (uint256 i; i < hops; ++i) {
            hop.index = i;
            hop.tokenIn = _tradedToken(tokens[i]);
            hop.tokenOut = _tradedToken(tokens[i + 1]);
            if (i + 1 == hops) _allowDirectPayout(hop, hopSwaps[i].length, tokenOut, order);
            _executeHop(hop, hopSwaps[i], amount);
            if (i == 0) amountTraded = hop.received;
            amount = hop.amountOut;
            hop.payer = address(this);
        }

        userAmountOut = hop.paysRecipient ? _checkDirectPayout(amount, order) : _payOut(tokenOut, amount, order);
        emit SwapExecuted(msg.sender, order.recipient, tokens[0], tokenOut, amountTraded, userAmountOut, amount);
    }

    /// @dev Validates the path, the hop count and the settings; returns the number of hops.
    function _checkOrder(address[] calldata tokens, uint256 hopCount, Order memory order)
        private
        view
        returns (uint256 hops)
    {
        if (tokens.length < 2) revert InvalidPath();
        // Cannot underflow: tokens.length >= 2.
        unchecked {
            hops = tokens.length - 1;
        }
        if (hopCount != hops) revert InvalidHopSwaps(hopCount, hops);
        for (uint256 i = 1; i < hops; ++i) {
            if (tokens[i] == address(0)) revert InvalidPath();
        }
        if (order.amountIn == 0) revert ZeroAmount();
        FeeMath.checkFee(order.feeBps, order.feeRecipient != address(0));
        if (order.feeRecipient == address(this)) revert InvalidFeeRecipient(order.feeRecipient);
        if (order.recipient == address(0) || order.recipient == address(this)) {
            revert InvalidRecipient(order.recipient);
        }
    }

    /// @dev Wraps a native input, which the router then pays the first hop's pools from; a token input is pulled
    /// from the caller straight into the first hop's pools. Returns who pays the first hop.
    function _takeInput(address tokenIn, uint256 amountIn) private returns (address payer) {
        if (tokenIn == address(0)) {
            if (msg.value != amountIn) revert NativeValueMismatch(msg.value, amountIn);
            IWrappedNative(wrappedNative).deposit{value: amountIn}();
            return address(this);
        }
        if (msg.value != 0) revert NativeValueMismatch(msg.value, 0);
        return msg.sender;
    }

    /// @dev Lets the last hop's pools pay the recipient directly when the router would take nothing from the
    /// output: an ERC20 output (no unwrapping), no integrator fee, and no positive slippage to capture (no
    /// expected amount, or a single swap whose output, priced before the pool pays it, is not above the expected
    /// amount; with a split the total is only known at the end, so it goes through the router). Pools refuse to
    /// pay their own tokens, so such a recipient is paid through the router too (as is a recipient that is one
    /// of the hop's pools: `_checkHopSwaps` clears `recipient` for it).
    function _allowDirectPayout(Hop memory hop, uint256 swapCount, address tokenOut, Order memory order) private pure {
        if (tokenOut == address(0) || order.feeBps != 0) return;
        address recipient = order.recipient;
        if (recipient == hop.tokenIn || recipient == hop.tokenOut) return;
        uint256 expected = order.expectedAmountOut;
        if (expected == 0) hop.directLimit = type(uint256).max;
        else if (swapCount == 1) hop.directLimit = expected;
        else return;
        hop.recipient = recipient;
    }

    /// @dev Splits `amountIn` of the hop's input across its swaps in proportion to their quoted inputs (the last
    /// swap takes the remainder). Leaves in `hop` what the pools received of the input and what their swaps paid.
    function _executeHop(Hop memory hop, Swap[] calldata swaps, uint256 amountIn) private {
        uint256 totalQuoted = _checkHopSwaps(hop, swaps);
        hop.received = 0;
        hop.amountOut = 0;

        uint256 remaining = amountIn;
        // Cannot underflow: _checkHopSwaps reverts on an empty hop.
        uint256 last;
        unchecked {
            last = swaps.length - 1;
        }
        for (uint256 i; i < last; ++i) {
            uint256 share = Math.mulDiv(amountIn, swaps[i].amountIn, totalQuoted);
            // Cannot underflow: the shares are floors of amountIn * quoted / totalQuoted over quoted amounts that
            // sum to at most totalQuoted, so together they never exceed amountIn.
            unchecked {
                remaining -= share;
            }
            _executeSwap(swaps[i], share, hop);
        }
        _executeSwap(swaps[last], remaining, hop);
    }

    /// @dev Checks that the hop has swaps, all of the hop's tokens, and quoted inputs to split by; returns their
    /// sum.
    function _checkHopSwaps(Hop memory hop, Swap[] calldata swaps) private pure returns (uint256 totalQuoted) {
        uint256 count = swaps.length;
        if (count == 0) revert EmptyHop(hop.index);
        for (uint256 i; i < count; ++i) {
            Swap calldata swap_ = swaps[i];
            if (swap_.tokenIn != hop.tokenIn || swap_.tokenOut != hop.tokenOut) revert SwapTokenMismatch(hop.index, i);
            // A pool paying itself would keep the output in its reserves: such a recipient is paid by the router.
            if (swap_.pool == hop.recipient) hop.recipient = address(0);
            totalQuoted += swap_.amountIn;
        }
        if (totalQuoted == 0) revert InvalidSplit(hop.index);
    }

    /// @dev Dispatches one swap to its source's kind. A new kind is a new branch here and a new `_swap*`, with the
    /// same shape: check that the source's contract vouches for `swap_.pool`, have `hop.payer` pay it `amountIn`
    /// through the kind's fixed calls, and send the output where `_outputTo` says, measured there.
    /// `Launchpad` will unwrap and call `buyTokens{value}` or call `sellTokens` on the launchpad (then wrap what
    /// it paid).
    function _executeSwap(Swap calldata swap_, uint256 amountIn, Hop memory hop) private {
        Source memory source = _sources[swap_.routerIndex];
        SourceKind kind = source.kind;
        uint256 received;
        uint256 amountOut;
        if (kind == SourceKind.UniswapV2) (received, amountOut) = _swapUniswapV2(source, swap_, amountIn, hop);
        else if (kind == SourceKind.Stable) (received, amountOut) = _swapStable(source, swap_, amountIn, hop);
        else if (kind == SourceKind.Core) (received, amountOut) = _swapCore(source, swap_, amountIn, hop);
        else if (kind == SourceKind.Launchpad) (received, amountOut) = _swapLaunchpad(source, swap_, amountIn, hop);
        else revert UnknownSource(swap_.routerIndex);
        hop.received += received;
        hop.amountOut += amountOut;
    }

    /// @dev A Uniswap V2 pair: has it paid, prices what it actually received with the source's fee, takes the
    /// output. A zero share is validated but not traded.
    function _swapUniswapV2(Source memory source, Swap calldata swap_, uint256 amountIn, Hop memory hop)
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
        (received, quoted) = _payUniswapV2(pool, source.feeBps, swap_.tokenIn, zeroForOne, amountIn, hop.payer);
        if (quoted == 0) revert ZeroAmountOut(pool);

        (address to, uint256 balanceBefore) = _outputTo(hop, swap_.tokenOut, quoted);
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
    function _swapStable(Source memory source, Swap calldata swap_, uint256 amountIn, Hop memory hop)
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
        received = _payPool(swap_.tokenIn, hop.payer, pool, amountIn, zeroForOne ? reserve0 : reserve1);
        uint256 quoted = IStablePool(pool).getAmountOut(received, swap_.tokenIn);
        if (quoted == 0) revert ZeroAmountOut(pool);

        (address to, uint256 balanceBefore) = _outputTo(hop, swap_.tokenOut, quoted);
        if (zeroForOne) IStablePool(pool).swap(0, quoted, to, "");
        else IStablePool(pool).swap(quoted, 0, to, "");
        amountOut = IERC20(swap_.tokenOut).balanceOf(to) - balanceBefore;
    }

    /// @dev The oracle-validated AMM ("core"): the source's contract is the AMM router, which vouches for the one
    /// pool of each pair. Core pools price at their oracle and pull their input, so the router takes the input
    /// (from the caller on the first hop), approves exactly what it received to the pool and calls its
    /// `swap(tokenIn, tokenOut, amountIn, 0[, refCode])`; the pool pays the router, which forwards the output
    /// to the recipient when the hop pays it directly. `data` is empty or a 32-byte referral code (an unknown
    /// code never blocks the swap; it earns nothing). Minimum outputs are enforced on the whole route.
    function _swapCore(Source memory source, Swap calldata swap_, uint256 amountIn, Hop memory hop)
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
        received = _pullToRouter(swap_.tokenIn, hop.payer, amountIn);
        tokenIn.forceApprove(pool, received);
        uint256 outBefore = tokenOut.balanceOf(address(this));
        if (dataLength == 32) IAmmPool(pool).swap(swap_.tokenIn, swap_.tokenOut, received, 0, bytes32(swap_.data));
        else IAmmPool(pool).swap(swap_.tokenIn, swap_.tokenOut, received, 0);
        uint256 paid = tokenOut.balanceOf(address(this)) - outBefore;
        if (paid == 0) revert ZeroAmountOut(pool);
        // The pool pulls all it is given; an allowance left over would outlive the call.
        if (tokenIn.allowance(address(this), pool) != 0) tokenIn.forceApprove(pool, 0);

        (address to, uint256 balanceBefore) = _outputTo(hop, swap_.tokenOut, paid);
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
    function _swapLaunchpad(Source memory source, Swap calldata swap_, uint256 amountIn, Hop memory hop)
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

        received = _pullToRouter(swap_.tokenIn, hop.payer, amountIn);
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

        (address to, uint256 balanceBefore) = _outputTo(hop, swap_.tokenOut, paid);
        if (to == address(this)) return (received, paid);
        IERC20(swap_.tokenOut).safeTransfer(to, paid);
        amountOut = IERC20(swap_.tokenOut).balanceOf(to) - balanceBefore;
    }

    /// @dev Brings `amount` of `token` into the router for a source that takes its input from the router: pulled
    /// from the caller on the first hop of a token input (measured, so a fee-on-transfer input counts as it
    /// arrived), already here otherwise. Returns what the router has to trade.
    function _pullToRouter(address token, address payer, uint256 amount) private returns (uint256 received) {
        if (payer == address(this)) return amount;
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(payer, address(this), amount);
        received = IERC20(token).balanceOf(address(this)) - before;
    }

    /// @dev Pays a vouched pool `amount` of `token`: pulled from the caller for the first hop of a token input,
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

    /// @dev Where a swap of output `amountOut` sends it (the recipient when the hop may pay it directly and the
    /// output is within `directLimit`, otherwise the router), and that account's balance before the swap.
    function _outputTo(Hop memory hop, address tokenOut, uint256 amountOut)
        private
        view
        returns (address to, uint256 balanceBefore)
    {
        to = address(this);
        if (hop.recipient != address(0) && amountOut <= hop.directLimit) {
            to = hop.recipient;
            hop.paysRecipient = true;
        }
        balanceBefore = IERC20(tokenOut).balanceOf(to);
    }

    // ---------------------------------------------------------------- payout

    /// @dev The recipient was paid by the last hop's pools: nothing to split, only `minAmountOut` to check.
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

    /// @dev The token a hop trades for a path token: the wrapped native token stands in for the native coin.
    function _tradedToken(address pathToken) private view returns (address) {
        return pathToken == address(0) ? wrappedNative : pathToken;
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0) || treasury_ == address(this)) revert InvalidTreasury(treasury_);
        address previous = treasury;
        treasury = treasury_;
        emit TreasurySet(previous, treasury_);
    }
}
