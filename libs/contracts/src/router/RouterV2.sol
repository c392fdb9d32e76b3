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
import {IRouterV2} from "./interfaces/IRouterV2.sol";
import {FeeMath} from "./libraries/FeeMath.sol";

/// @title RouterV2
/// @notice Executes aggregator routes: pulls the input (or wraps the native coin), runs each hop across its
/// parallel swaps on registry-vouched pools, splits the gross output into the user's amount, the integrator fee
/// and captured positive slippage, and pays everyone in the output token (in native coin when unwrapping).
/// @dev Every amount the router works with is a balance delta it caused, so fee-on-transfer tokens work and
/// tokens or coin others left in the router are never touched. The router never calls a caller-supplied target
/// with caller-supplied calldata: a pool is called only after the registered source's factory returned it for
/// the swap's tokens, and only through the fixed calls of the source's kind.
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

    /// @dev The per-call settings of a route, gathered to keep the stack small.
    struct Order {
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 expectedAmountOut;
        uint256 feeBps;
        address feeRecipient;
        address recipient;
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
        if (msg.sender != wrappedNative) revert NativeSenderNotAllowed(msg.sender);
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

    /// @dev Checks the order, takes the input, runs the hops and pays out.
    function _execute(address[] calldata tokens, Swap[][] calldata hopSwaps, Order memory order)
        private
        returns (uint256 userAmountOut)
    {
        uint256 hops = _checkOrder(tokens, hopSwaps.length, order);
        address tokenIn = tokens[0];
        address tokenOut = tokens[hops];

        uint256 amountReceived = _takeInput(tokenIn, order.amountIn);
        uint256 amount = amountReceived;
        for (uint256 hop; hop < hops; ++hop) {
            amount = _executeHop(hop, _tradedToken(tokens[hop]), _tradedToken(tokens[hop + 1]), hopSwaps[hop], amount);
        }

        userAmountOut = _payOut(tokenOut, amount, order);
        emit SwapExecuted(msg.sender, order.recipient, tokenIn, tokenOut, amountReceived, userAmountOut, amount);
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

    /// @dev Wraps native input or pulls the token input; returns what the router received.
    function _takeInput(address tokenIn, uint256 amountIn) private returns (uint256 received) {
        if (tokenIn == address(0)) {
            if (msg.value != amountIn) revert NativeValueMismatch(msg.value, amountIn);
            IWrappedNative(wrappedNative).deposit{value: amountIn}();
            return amountIn;
        }
        if (msg.value != 0) revert NativeValueMismatch(msg.value, 0);
        uint256 balanceBefore = IERC20(tokenIn).balanceOf(address(this));
        IERC20(tokenIn).safeTransferFrom(msg.sender, address(this), amountIn);
        received = IERC20(tokenIn).balanceOf(address(this)) - balanceBefore;
        if (received == 0) revert ZeroAmount();
    }

    /// @dev Splits `amountIn` of `tokenIn` across the hop's swaps in proportion to their quoted inputs (the last
    /// swap takes the remainder) and returns the `tokenOut` the router received.
    function _executeHop(uint256 hop, address tokenIn, address tokenOut, Swap[] calldata swaps, uint256 amountIn)
        private
        returns (uint256 amountOut)
    {
        uint256 count = swaps.length;
        if (count == 0) revert EmptyHop(hop);
        uint256 totalQuoted;
        for (uint256 i; i < count; ++i) {
            if (swaps[i].tokenIn != tokenIn || swaps[i].tokenOut != tokenOut) revert SwapTokenMismatch(hop, i);
            totalQuoted += swaps[i].amountIn;
        }
        if (totalQuoted == 0) revert InvalidSplit(hop);

        uint256 balanceBefore = IERC20(tokenOut).balanceOf(address(this));
        uint256 remaining = amountIn;
        uint256 last = count - 1;
        for (uint256 i; i < last; ++i) {
            uint256 share = Math.mulDiv(amountIn, swaps[i].amountIn, totalQuoted);
            // Cannot underflow: the shares are floors of amountIn * quoted / totalQuoted over quoted amounts that
            // sum to at most totalQuoted, so together they never exceed amountIn.
            unchecked {
                remaining -= share;
            }
            _executeSwap(swaps[i], share);
        }
        _executeSwap(swaps[last], remaining);
        amountOut = IERC20(tokenOut).balanceOf(address(this)) - balanceBefore;
    }

    /// @dev Dispatches one swap to its source's kind. A new kind is a new branch here and a new `_swap*`, with the
    /// same shape: check that the source's contract vouches for `swap_.pool`, trade `amountIn` through the kind's
    /// fixed calls, and leave the output with the router (measured by the hop). `Core` will approve exactly
    /// `amountIn` to the vouched AMM and call its `swap(tokenIn, tokenOut, amountIn, minOut[, refCode])`, the
    /// referral code decoded from `swap_.data`; `Launchpad` will unwrap and call `buyTokens{value}` or call
    /// `sellTokens` on the launchpad (then wrap what it paid).
    function _executeSwap(Swap calldata swap_, uint256 amountIn) private {
        Source memory source = _sources[swap_.routerIndex];
        SourceKind kind = source.kind;
        if (kind == SourceKind.UniswapV2) _swapUniswapV2(source, swap_, amountIn);
        else if (kind == SourceKind.Stable) _swapStable(source, swap_, amountIn);
        else if (kind == SourceKind.None) revert UnknownSource(swap_.routerIndex);
        else revert UnsupportedSourceKind(kind);
    }

    /// @dev A Uniswap V2 pair: pays the pair, prices what it actually received with the source's fee, takes the
    /// output. A zero share is validated but not traded.
    function _swapUniswapV2(Source memory source, Swap calldata swap_, uint256 amountIn) private {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        if (pool == address(0) || IUniswapV2Factory(source.factory).getPair(swap_.tokenIn, swap_.tokenOut) != pool) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return;

        bool zeroForOne = swap_.tokenIn < swap_.tokenOut;
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pool).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        IERC20(swap_.tokenIn).safeTransfer(pool, amountIn);
        uint256 received = IERC20(swap_.tokenIn).balanceOf(pool) - reserveIn;

        uint256 receivedWithFee = received * (BPS - source.feeBps);
        uint256 amountOut = (receivedWithFee * reserveOut) / (reserveIn * BPS + receivedWithFee);
        if (amountOut == 0) revert ZeroAmountOut(pool);
        if (zeroForOne) IUniswapV2Pair(pool).swap(0, amountOut, address(this), "");
        else IUniswapV2Pair(pool).swap(amountOut, 0, address(this), "");
    }

    /// @dev A Solidly-style stable pool: pays the pool, asks it to quote what it actually received, takes the
    /// output. A zero share is validated but not traded.
    function _swapStable(Source memory source, Swap calldata swap_, uint256 amountIn) private {
        address pool = swap_.pool;
        if (swap_.data.length != 0) revert DataNotAllowed(pool);
        if (
            pool == address(0)
                || IStablePoolFactory(source.factory).getPair(swap_.tokenIn, swap_.tokenOut, true) != pool
        ) {
            revert PoolNotVouched(swap_.routerIndex, pool);
        }
        if (amountIn == 0) return;

        bool zeroForOne = swap_.tokenIn < swap_.tokenOut;
        (uint256 reserve0, uint256 reserve1,) = IStablePool(pool).getReserves();
        IERC20(swap_.tokenIn).safeTransfer(pool, amountIn);
        uint256 received = IERC20(swap_.tokenIn).balanceOf(pool) - (zeroForOne ? reserve0 : reserve1);

        uint256 amountOut = IStablePool(pool).getAmountOut(received, swap_.tokenIn);
        if (amountOut == 0) revert ZeroAmountOut(pool);
        if (zeroForOne) IStablePool(pool).swap(0, amountOut, address(this), "");
        else IStablePool(pool).swap(amountOut, 0, address(this), "");
    }

    // ---------------------------------------------------------------- payout

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
        _send(tokenOut, treasury, split.protocolFee);

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
