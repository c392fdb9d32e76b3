// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IAmmPool} from "./interfaces/IAmmPool.sol";
import {IPriceOracle} from "./interfaces/IPriceOracle.sol";
import {IRefCodeRegistry} from "./interfaces/IRefCodeRegistry.sol";
import {AmmMath} from "./libraries/AmmMath.sol";
import {TokenTransfer} from "./libraries/TokenTransfer.sol";

/// @title AmmPool
/// @notice An oracle-priced pool of two tokens with an inventory-driven dynamic fee and owner-managed liquidity;
/// see IAmmPool for the pricing, the fee formula, the fee split and the accounting guarantee.
/// @dev Token amounts are kept in two-element arrays indexed 0 (token0) and 1 (token1). Every quote, the ones
/// `swap` executes and the ones `estimateSwap` returns, goes through `_quote`. Estimates refuse to run inside a
/// swap (read-only reentrancy guard).
contract AmmPool is IAmmPool, Ownable2Step, Pausable, ReentrancyGuardTransient {
    using TokenTransfer for address;

    /// @inheritdoc IAmmPool
    uint256 public constant MAX_FEE_BPS = 500;

    /// @inheritdoc IAmmPool
    uint256 public constant MAX_SLOPE_BPS = 10_000;

    /// @inheritdoc IAmmPool
    uint256 public constant MAX_PRICE_AGE = 7 days;

    /// @inheritdoc IAmmPool
    uint256 public constant MAX_PRICE = 1e36;

    /// @dev The bounds of the target weight of token0: 5% and 95%.
    uint256 private constant MIN_TARGET_WEIGHT = 0.05e18;
    uint256 private constant MAX_TARGET_WEIGHT = 0.95e18;

    /// @dev The denominator of the fee shares.
    uint256 private constant BPS = 10_000;

    /// @inheritdoc IAmmPool
    address public immutable token0;

    /// @inheritdoc IAmmPool
    address public immutable token1;

    /// @inheritdoc IAmmPool
    address public immutable refCodeRegistry;

    /// @dev 10^decimals of token0 and token1.
    uint256 private immutable unit0;
    uint256 private immutable unit1;

    /// @inheritdoc IAmmPool
    address public oracle;

    /// @inheritdoc IAmmPool
    address public router;

    /// @inheritdoc IAmmPool
    uint256 public maxPriceAge;

    FeeParams private _feeParams;

    uint256[2] private _reserves;
    uint256[2] private _protocolFees;
    uint256[2] private _totalRefClaimable;
    mapping(bytes32 refCode => uint256[2]) private _refClaimable;

    /// @param tokenA One token of the pair (the pool sorts them).
    /// @param tokenB The other token.
    /// @param oracle_ The USD price oracle.
    /// @param refCodeRegistry_ The referral code registry.
    /// @param params The fee parameters.
    /// @param maxPriceAge_ The oldest price age accepted, in seconds.
    /// @param initialOwner The owner: liquidity, fees, parameters, pause.
    constructor(
        address tokenA,
        address tokenB,
        address oracle_,
        address refCodeRegistry_,
        FeeParams memory params,
        uint256 maxPriceAge_,
        address initialOwner
    ) Ownable(initialOwner) {
        if (tokenA == tokenB) revert InvalidToken(tokenA);
        (address t0, address t1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (t0.code.length == 0) revert InvalidToken(t0);
        if (t1.code.length == 0) revert InvalidToken(t1);
        if (refCodeRegistry_ == address(0)) revert ZeroAddress();
        token0 = t0;
        token1 = t1;
        unit0 = _unitOf(t0);
        unit1 = _unitOf(t1);
        refCodeRegistry = refCodeRegistry_;
        _setOracle(oracle_);
        _setFeeParams(params);
        _setMaxPriceAge(maxPriceAge_);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IAmmPool
    function feeParams() external view returns (FeeParams memory) {
        return _feeParams;
    }

    /// @inheritdoc IAmmPool
    function getTokens() external view returns (address, address) {
        return (token0, token1);
    }

    /// @inheritdoc IAmmPool
    function getReserves() external view returns (uint256 reserve0, uint256 reserve1) {
        return (_reserves[0], _reserves[1]);
    }

    /// @inheritdoc IAmmPool
    function estimateSwap(address tokenIn, address tokenOut, uint256 amountIn)
        external
        view
        nonReentrantView
        returns (uint256 amountOut)
    {
        bool token0In = _direction(tokenIn, tokenOut);
        return _quote(_state(), token0In, amountIn).amountOut;
    }

    /// @inheritdoc IAmmPool
    function estimateSwapBatch(address tokenIn, address tokenOut, uint256[] calldata amountsIn)
        external
        view
        nonReentrantView
        returns (uint256[] memory amountsOut)
    {
        bool token0In = _direction(tokenIn, tokenOut);
        AmmMath.State memory state = _state();
        amountsOut = new uint256[](amountsIn.length);
        for (uint256 i; i < amountsIn.length; ++i) {
            amountsOut[i] = _quote(state, token0In, amountsIn[i]).amountOut;
        }
    }

    /// @inheritdoc IAmmPool
    function getPoolFees() external view returns (uint256 fee0In, uint256 fee1In) {
        return AmmMath.marginalFeeRates(_feeParams, _state());
    }

    /// @inheritdoc IAmmPool
    function inventoryWeight0() external view returns (uint256) {
        return AmmMath.inventoryWeight0(_feeParams, _state());
    }

    /// @inheritdoc IAmmPool
    function protocolFees() external view returns (uint256 amount0, uint256 amount1) {
        return (_protocolFees[0], _protocolFees[1]);
    }

    /// @inheritdoc IAmmPool
    function totalRefClaimable() external view returns (uint256 amount0, uint256 amount1) {
        return (_totalRefClaimable[0], _totalRefClaimable[1]);
    }

    /// @inheritdoc IAmmPool
    function getRefClaimable(bytes32 refCode) external view returns (uint256 amount0, uint256 amount1) {
        if (!IRefCodeRegistry(refCodeRegistry).isRegistered(refCode)) revert InvalidRefCode(refCode);
        uint256[2] storage claimable = _refClaimable[refCode];
        return (claimable[0], claimable[1]);
    }

    // ---------------------------------------------------------------- swaps

    /// @inheritdoc IAmmPool
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        uint256 fee;
        (amountOut, fee,) = _swap(tokenIn, tokenOut, amountIn, minAmountOut, bytes32(0));
        emit Swap(msg.sender, tokenIn, tokenOut, amountIn, amountOut, fee);
    }

    /// @inheritdoc IAmmPool
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, bytes32 refCode)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        uint256 fee;
        uint256 refFee;
        (amountOut, fee, refFee) = _swap(tokenIn, tokenOut, amountIn, minAmountOut, refCode);
        emit SwapWithRef(msg.sender, tokenIn, tokenOut, amountIn, amountOut, fee, refCode, refFee);
    }

    // ---------------------------------------------------------------- referral fees

    /// @inheritdoc IAmmPool
    function claimRefFees(bytes32 refCode) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        return _payRefFees(refCode, msg.sender, true);
    }

    /// @inheritdoc IAmmPool
    function claimRefFeesFor(bytes32 refCode, address claimer)
        external
        nonReentrant
        returns (uint256 amount0, uint256 amount1)
    {
        if (msg.sender != router || router == address(0)) revert UnauthorizedCaller(msg.sender);
        return _payRefFees(refCode, claimer, true);
    }

    /// @inheritdoc IAmmPool
    function distributeRefFees(bytes32 refCode) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        return _payRefFees(refCode, address(0), false);
    }

    // ---------------------------------------------------------------- owner

    /// @inheritdoc IAmmPool
    function addLiquidity(uint256 amount0, uint256 amount1) external onlyOwner nonReentrant {
        if (amount0 == 0 && amount1 == 0) revert ZeroAmount();
        if (amount0 != 0) _pull(token0, amount0);
        if (amount1 != 0) _pull(token1, amount1);
        _reserves[0] += amount0;
        _reserves[1] += amount1;
        emit LiquidityAdded(msg.sender, amount0, amount1);
    }

    /// @inheritdoc IAmmPool
    function removeLiquidity(uint256 amount0, uint256 amount1, address to) external onlyOwner nonReentrant {
        if (amount0 == 0 && amount1 == 0) revert ZeroAmount();
        if (to == address(0)) revert ZeroAddress();
        if (amount0 > _reserves[0]) revert InsufficientReserve(amount0, _reserves[0]);
        if (amount1 > _reserves[1]) revert InsufficientReserve(amount1, _reserves[1]);
        // Cannot underflow: both amounts were checked against their reserves.
        unchecked {
            _reserves[0] -= amount0;
            _reserves[1] -= amount1;
        }
        if (amount0 != 0) token0.safeTransfer(to, amount0);
        if (amount1 != 0) token1.safeTransfer(to, amount1);
        emit LiquidityRemoved(to, amount0, amount1);
    }

    /// @inheritdoc IAmmPool
    function claimProtocolFees(address to) external onlyOwner nonReentrant returns (uint256 amount0, uint256 amount1) {
        if (to == address(0)) revert ZeroAddress();
        (amount0, amount1) = (_protocolFees[0], _protocolFees[1]);
        delete _protocolFees;
        if (amount0 != 0) token0.safeTransfer(to, amount0);
        if (amount1 != 0) token1.safeTransfer(to, amount1);
        emit ProtocolFeesClaimed(to, amount0, amount1);
    }

    /// @inheritdoc IAmmPool
    function setFeeParams(FeeParams calldata params) external onlyOwner {
        _setFeeParams(params);
    }

    /// @inheritdoc IAmmPool
    function setMaxPriceAge(uint256 maxPriceAge_) external onlyOwner {
        _setMaxPriceAge(maxPriceAge_);
    }

    /// @inheritdoc IAmmPool
    function setOracle(address oracle_) external onlyOwner {
        _setOracle(oracle_);
    }

    /// @inheritdoc IAmmPool
    function setRouter(address router_) external onlyOwner {
        router = router_;
        emit RouterSet(router_);
    }

    /// @inheritdoc IAmmPool
    function pause() external onlyOwner {
        _pause();
    }

    /// @inheritdoc IAmmPool
    function unpause() external onlyOwner {
        _unpause();
    }

    // ---------------------------------------------------------------- internal: swaps

    /// @dev Quotes, checks the caller's minimum, books the fee split, pulls the input and pays the output.
    function _swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, bytes32 refCode)
        private
        returns (uint256 amountOut, uint256 fee, uint256 refFee)
    {
        bool token0In = _direction(tokenIn, tokenOut);
        AmmMath.Quote memory q = _quote(_state(), token0In, amountIn);
        amountOut = q.amountOut;
        fee = q.fee;
        if (amountOut == 0) revert ZeroAmountOut();
        if (amountOut < minAmountOut) revert SlippageExceeded(amountOut, minAmountOut);

        (uint256 i, uint256 o) = token0In ? (0, 1) : (1, 0);
        FeeParams memory params = _feeParams;
        // Shares round down; the LP share (the remainder) absorbs the rounding.
        uint256 protocolFee = (fee * params.protocolShareBps) / BPS;
        if (refCode != bytes32(0) && IRefCodeRegistry(refCodeRegistry).isActive(refCode)) {
            refFee = (fee * params.refShareBps) / BPS;
        }

        _pull(tokenIn, amountIn);
        // Cannot underflow: protocolFee + refFee <= fee * (protocolShareBps + refShareBps) / BPS <= fee <= amountIn.
        unchecked {
            _reserves[i] += amountIn - protocolFee - refFee;
        }
        // Cannot underflow: `_quote` reverted unless amountOut <= the output reserve.
        unchecked {
            _reserves[o] -= amountOut;
        }
        if (protocolFee != 0) _protocolFees[i] += protocolFee;
        if (refFee != 0) {
            _refClaimable[refCode][i] += refFee;
            _totalRefClaimable[i] += refFee;
        }
        tokenOut.safeTransfer(msg.sender, amountOut);
    }

    /// @dev The one quote function behind `swap`, `estimateSwap` and `estimateSwapBatch`.
    function _quote(AmmMath.State memory state, bool token0In, uint256 amountIn)
        private
        view
        returns (AmmMath.Quote memory q)
    {
        if (amountIn == 0) revert ZeroAmount();
        q = AmmMath.quote(_feeParams, state, token0In, amountIn);
        uint256 reserveOut = token0In ? state.reserve1 : state.reserve0;
        if (q.amountOut > reserveOut) revert InsufficientReserve(q.amountOut, reserveOut);
    }

    /// @dev The reserves, fresh oracle prices and units; reverts while paused or without fresh prices.
    function _state() private view returns (AmmMath.State memory state) {
        _requireNotPaused();
        state.reserve0 = _reserves[0];
        state.reserve1 = _reserves[1];
        state.price0 = _price(token0);
        state.price1 = _price(token1);
        state.unit0 = unit0;
        state.unit1 = unit1;
    }

    /// @dev Whether a swap from `tokenIn` to `tokenOut` pays token0 in; reverts unless they are the pool's two
    /// tokens in either order.
    function _direction(address tokenIn, address tokenOut) private view returns (bool token0In) {
        if (tokenIn == token0) {
            if (tokenOut != token1) revert InvalidToken(tokenOut);
            return true;
        }
        if (tokenIn != token1) revert InvalidToken(tokenIn);
        if (tokenOut != token0) revert InvalidToken(tokenOut);
        return false;
    }

    /// @dev The oracle's price of `token`, required to be present, in range and at most `maxPriceAge` old. A
    /// reverting oracle or malformed answer counts as missing. A time in the future counts as fresh.
    function _price(address token) private view returns (uint256 price) {
        (bool ok, bytes memory ret) = oracle.staticcall(abi.encodeCall(IPriceOracle.getPriceUsd, (token)));
        if (!ok || ret.length < 64) revert PriceUnavailable(token);
        uint256 updatedAt;
        (price, updatedAt) = abi.decode(ret, (uint256, uint256));
        if (price == 0 || price > MAX_PRICE) revert PriceUnavailable(token);
        // Price ages are checked in seconds to minutes; a validator's few seconds of drift do not matter.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp > updatedAt && block.timestamp - updatedAt > maxPriceAge) {
            revert StalePrice(token, updatedAt);
        }
    }

    /// @dev Pulls exactly `amount` of `token` from the caller; refuses tokens that deliver less.
    function _pull(address token, uint256 amount) private {
        uint256 before = token.balanceOf();
        token.safeTransferFrom(msg.sender, address(this), amount);
        if (token.balanceOf() - before != amount) revert FeeOnTransferNotSupported(token);
    }

    // ---------------------------------------------------------------- internal: referral fees

    /// @dev Pays a registered, unlocked code's accrued fees to its claim wallet. With `checkClaimer`, `claimer`
    /// must be that wallet; without, the wallet is read from the registry (a push).
    function _payRefFees(bytes32 refCode, address claimer, bool checkClaimer)
        private
        returns (uint256 amount0, uint256 amount1)
    {
        IRefCodeRegistry.RefCode memory code = IRefCodeRegistry(refCodeRegistry).refCodeInfo(refCode);
        if (!code.registered) revert InvalidRefCode(refCode);
        address wallet = code.claimWallet;
        if (checkClaimer && claimer != wallet) revert UnauthorizedRefCodeClaim(refCode, claimer);
        // The lock is a delay of hours or days; a validator's few seconds of drift do not matter.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp < code.claimUnlockTime) revert RefCodeClaimLocked(refCode, code.claimUnlockTime);

        uint256[2] storage claimable = _refClaimable[refCode];
        (amount0, amount1) = (claimable[0], claimable[1]);
        if (amount0 == 0 && amount1 == 0) return (0, 0);
        delete _refClaimable[refCode];
        // Cannot underflow: the total is the sum of every code's claimable, which includes this code's.
        unchecked {
            _totalRefClaimable[0] -= amount0;
            _totalRefClaimable[1] -= amount1;
        }
        if (amount0 != 0) token0.safeTransfer(wallet, amount0);
        if (amount1 != 0) token1.safeTransfer(wallet, amount1);
        emit RefFeesClaimed(refCode, wallet, amount0, amount1);
    }

    // ---------------------------------------------------------------- internal: settings

    function _setFeeParams(FeeParams memory params) private {
        if (
            params.maxFeeBps > MAX_FEE_BPS || params.minFeeBps > params.baseFeeBps
                || params.baseFeeBps > params.maxFeeBps || params.slopeBps > MAX_SLOPE_BPS
                || uint256(params.protocolShareBps) + params.refShareBps > BPS
                || params.targetWeight0 < MIN_TARGET_WEIGHT || params.targetWeight0 > MAX_TARGET_WEIGHT
        ) revert InvalidFeeParams();
        _feeParams = params;
        emit FeeParamsSet(params);
    }

    function _setMaxPriceAge(uint256 maxPriceAge_) private {
        if (maxPriceAge_ == 0 || maxPriceAge_ > MAX_PRICE_AGE) revert InvalidMaxPriceAge(maxPriceAge_);
        maxPriceAge = maxPriceAge_;
        emit MaxPriceAgeSet(maxPriceAge_);
    }

    function _setOracle(address oracle_) private {
        if (oracle_ == address(0)) revert ZeroAddress();
        oracle = oracle_;
        emit OracleSet(oracle_);
    }

    /// @dev 10^decimals of a token with at most 18 decimals.
    function _unitOf(address token) private view returns (uint256) {
        uint8 decimals = IERC20Metadata(token).decimals();
        if (decimals > 18) revert UnsupportedDecimals(token, decimals);
        return 10 ** decimals;
    }
}
