// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAmmPool
/// @notice An oracle-priced pool of two tokens. A swap pays the value of the input at the oracle's USD prices,
/// converted into the output token, less a dynamic fee taken from the input; the pool's reserves bound the
/// output. Liquidity is the owner's. Clients get prices from `estimateSwap` / `estimateSwapBatch` (equal to
/// what `swap` pays in the same state, to the wei) and never replicate the pricing.
/// @dev Dynamic fee. Let w = v0 / (v0 + v1) be the pool's inventory share of token0 in value at the oracle
/// prices, w* the target share (`FeeParams.targetWeight0`). The marginal fee rate of a swap that moves w
/// away from w* is baseFee + slope * |w - w*|; toward w* it is baseFee - slope * |w - w*|. A swap pays the
/// average of the marginal rate over its path, which is that rate at the midpoint of w before and w after
/// (w after is computed from the gross, pre-fee output, so the quote is not circular):
///   rate = clamp(baseFee + slope * d, minFee, maxFee)
///   d = (w_before + w_after) / 2 - w*  (token0 in),  d = w* - (w_before + w_after) / 2  (token1 in)
/// Equivalently slope * d = slope * (|w_after - w*|^2 - |w_before - w*|^2) / (2 |w_after - w_before|). The fee
/// grows with how far the swap pushes the inventory from balance, is lower for a swap that restores balance
/// than for one of the same size that upsets it, and cannot be avoided by splitting a swap into pieces (their
/// rates average to the whole swap's, up to a second-order effect of the fee the LP keeps).
/// Bounds: maxFee <= 500 bps, minFee <= baseFee <= maxFee, slope <= 10,000 bps per unit of w, w* in [5%, 95%].
/// Rounding favours the pool: the fee amount rounds up, the output rounds down.
/// Fee split: the fee (in tokenIn) splits into a protocol share (accrued per token, claimed by the owner), a
/// referral share (accrued per code and token when the swap carries an active code of the RefCodeRegistry)
/// and the LP share, the rest, which stays in the reserves. An unknown, revoked or zero code never blocks a
/// swap: its referral share goes to the LP. At all times, per token: balance >= reserve + protocol fees +
/// total referral claimable. Fee-on-transfer tokens are refused (`FeeOnTransferNotSupported`).
interface IAmmPool {
    /// @notice The pool's fee settings; all rates in basis points (10,000 = 100%).
    /// @param minFeeBps The lowest fee rate, paid by swaps that rebalance the inventory.
    /// @param baseFeeBps The fee rate of a marginal swap at the target inventory.
    /// @param maxFeeBps The highest fee rate, at most `MAX_FEE_BPS`.
    /// @param slopeBps The fee rate change per unit (100%) of displacement of w from the target, at most
    /// `MAX_SLOPE_BPS`.
    /// @param protocolShareBps The part of each fee accrued to the protocol.
    /// @param refShareBps The part of each fee accrued to an active referral code carried by the swap.
    /// @param targetWeight0 The target inventory share of token0 in value, 1e18 = 100%.
    struct FeeParams {
        uint16 minFeeBps;
        uint16 baseFeeBps;
        uint16 maxFeeBps;
        uint16 slopeBps;
        uint16 protocolShareBps;
        uint16 refShareBps;
        uint64 targetWeight0;
    }

    /// @notice A token is not one of the pool's, or a swap names the same token twice.
    /// @param token The offending token. Remedy: use the pool's token addresses (`getTokens`).
    error InvalidToken(address token);

    /// @notice An amount that must not be zero is zero (swap input, liquidity).
    error ZeroAmount();

    /// @notice The swap's input is too small to pay any output after the fee.
    error ZeroAmountOut();

    /// @notice The output is below the caller's minimum. Remedy: raise the tolerance or reduce the size.
    /// @param amountOut The output the swap would pay.
    /// @param minAmountOut The caller's minimum.
    error SlippageExceeded(uint256 amountOut, uint256 minAmountOut);

    /// @notice The output (or a withdrawal) exceeds the reserve. Remedy: use a smaller amount.
    /// @param amount The amount asked for.
    /// @param reserve The reserve of that token.
    error InsufficientReserve(uint256 amount, uint256 reserve);

    /// @notice A token transfer or approval failed (reverted, returned false, or the token has no code).
    /// @param token The token.
    error TransferFailed(address token);

    /// @notice The pool received less than the amount transferred; fee-on-transfer tokens are not supported.
    /// @param token The token.
    error FeeOnTransferNotSupported(address token);

    /// @notice The referral code is not registered in the RefCodeRegistry.
    /// @param refCode The code.
    error InvalidRefCode(bytes32 refCode);

    /// @notice The claimer is not the code's claim wallet.
    /// @param refCode The code.
    /// @param caller The account that tried to claim.
    error UnauthorizedRefCodeClaim(bytes32 refCode, address caller);

    /// @notice The code's claims are locked: its claim wallet changed less than the registry's
    /// `claimLockDelay` ago. Remedy: retry after `unlockTime`.
    /// @param refCode The code.
    /// @param unlockTime The Unix time from which claims are possible.
    error RefCodeClaimLocked(bytes32 refCode, uint256 unlockTime);

    /// @notice The oracle has no usable price for a token (it reverted, answered zero, an out-of-range price
    /// or malformed data). Swaps and estimates are blocked until it has one.
    /// @param token The token.
    error PriceUnavailable(address token);

    /// @notice The oracle's price of a token is older than `maxPriceAge`. Swaps and estimates are blocked
    /// until it is refreshed.
    /// @param token The token.
    /// @param updatedAt When the price was set.
    error StalePrice(address token, uint256 updatedAt);

    /// @notice Fee parameters outside their bounds (see `FeeParams`).
    error InvalidFeeParams();

    /// @notice A maximum price age of zero or above `MAX_PRICE_AGE`.
    /// @param maxPriceAge The value given.
    error InvalidMaxPriceAge(uint256 maxPriceAge);

    /// @notice A token has more than 18 decimals.
    /// @param token The token.
    /// @param decimals Its decimals.
    error UnsupportedDecimals(address token, uint8 decimals);

    /// @notice An address that must be set is zero.
    error ZeroAddress();

    /// @notice Only the AMM router set by the owner may call this.
    /// @param caller The caller.
    error UnauthorizedCaller(address caller);

    /// @notice A swap without a referral code was executed.
    /// @param user The caller of `swap` (the AMM router or RouterV2 for routed swaps, else the trader).
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out to `user`.
    /// @param amountIn The input, fee included.
    /// @param amountOut The output.
    /// @param fee The fee taken from the input, in tokenIn.
    event Swap(
        address indexed user,
        address indexed tokenIn,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 fee
    );

    /// @notice A swap carrying a referral code was executed.
    /// @param user The caller of `swap` (the AMM router or RouterV2 for routed swaps, else the trader).
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out to `user`.
    /// @param amountIn The input, fee included.
    /// @param amountOut The output.
    /// @param fee The fee taken from the input, in tokenIn.
    /// @param refCode The code the swap carried, as given.
    /// @param refFee The part of `fee` accrued to the code; zero when the code is not active.
    event SwapWithRef(
        address indexed user,
        address indexed tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 fee,
        bytes32 indexed refCode,
        uint256 refFee
    );

    /// @notice The owner added liquidity.
    /// @param provider The account the tokens came from.
    /// @param amount0 The token0 added.
    /// @param amount1 The token1 added.
    event LiquidityAdded(address indexed provider, uint256 amount0, uint256 amount1);

    /// @notice The owner removed liquidity.
    /// @param to The recipient.
    /// @param amount0 The token0 removed.
    /// @param amount1 The token1 removed.
    event LiquidityRemoved(address indexed to, uint256 amount0, uint256 amount1);

    /// @notice The accrued protocol fees were paid out.
    /// @param to The recipient.
    /// @param amount0 The token0 paid.
    /// @param amount1 The token1 paid.
    event ProtocolFeesClaimed(address indexed to, uint256 amount0, uint256 amount1);

    /// @notice A code's accrued referral fees were paid to its claim wallet (claimed or pushed).
    /// @param refCode The code.
    /// @param claimWallet The recipient, the code's claim wallet.
    /// @param amount0 The token0 paid.
    /// @param amount1 The token1 paid.
    event RefFeesClaimed(bytes32 indexed refCode, address indexed claimWallet, uint256 amount0, uint256 amount1);

    /// @notice The fee parameters were set.
    /// @param params The new parameters.
    event FeeParamsSet(FeeParams params);

    /// @notice The maximum price age was set.
    /// @param maxPriceAge The new maximum in seconds.
    event MaxPriceAgeSet(uint256 maxPriceAge);

    /// @notice The oracle was set.
    /// @param oracle The new oracle.
    event OracleSet(address indexed oracle);

    /// @notice The AMM router trusted to claim on behalf of its caller was set.
    /// @param router The new router (zero to trust none).
    event RouterSet(address indexed router);

    // ---------------------------------------------------------------- constants and configuration

    /// @notice The highest `maxFeeBps`: 500 (5%).
    /// @return The cap in basis points.
    function MAX_FEE_BPS() external view returns (uint256);

    /// @notice The highest `slopeBps`: 10,000.
    /// @return The cap in basis points per unit of w.
    function MAX_SLOPE_BPS() external view returns (uint256);

    /// @notice The highest `maxPriceAge`: 7 days.
    /// @return The cap in seconds.
    function MAX_PRICE_AGE() external view returns (uint256);

    /// @notice The highest price the pool accepts from its oracle: 1e36 (USD 1e18 per whole token).
    /// @return The cap, 1e18 fixed point.
    function MAX_PRICE() external view returns (uint256);

    /// @notice The token sorted first (lower address).
    /// @return The token.
    function token0() external view returns (address);

    /// @notice The token sorted second.
    /// @return The token.
    function token1() external view returns (address);

    /// @notice The oracle the pool prices with.
    /// @return The oracle.
    function oracle() external view returns (address);

    /// @notice The registry that validates referral codes and names their claim wallets.
    /// @return The registry.
    function refCodeRegistry() external view returns (address);

    /// @notice The AMM router trusted to claim on behalf of its caller (`claimRefFeesFor`).
    /// @return The router; zero when none.
    function router() external view returns (address);

    /// @notice The oldest price (in seconds) a swap or estimate accepts.
    /// @return The maximum age.
    function maxPriceAge() external view returns (uint256);

    /// @notice The fee parameters.
    /// @return The parameters.
    function feeParams() external view returns (FeeParams memory);

    // ---------------------------------------------------------------- views

    /// @notice The pool's tokens, sorted by address.
    /// @return token0 The token sorted first.
    /// @return token1 The token sorted second.
    function getTokens() external view returns (address token0, address token1);

    /// @notice The reserves: what swaps can pay out (accrued protocol and referral fees excluded).
    /// @return reserve0 The reserve of token0.
    /// @return reserve1 The reserve of token1.
    function getReserves() external view returns (uint256 reserve0, uint256 reserve1);

    /// @notice The output `swap` would pay for `amountIn` of `tokenIn` now, to the wei.
    /// @dev Reverts as `swap` would (InvalidToken, ZeroAmount, InsufficientReserve, PriceUnavailable,
    /// StalePrice, EnforcedPause); returns 0 for an input too small to pay anything (which `swap` refuses).
    /// @param tokenIn The token paid in.
    /// @param tokenOut The other token of the pool.
    /// @param amountIn The input, fee included.
    /// @return amountOut The output.
    function estimateSwap(address tokenIn, address tokenOut, uint256 amountIn) external view returns (uint256 amountOut);

    /// @notice `estimateSwap` for each amount, each against the current state (not one after the other).
    /// @dev Reverts when any single estimate would.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The other token of the pool.
    /// @param amountsIn The inputs.
    /// @return amountsOut The outputs, in the same order.
    function estimateSwapBatch(address tokenIn, address tokenOut, uint256[] calldata amountsIn)
        external
        view
        returns (uint256[] memory amountsOut);

    /// @notice The current fee rate per direction of a marginal (infinitesimal) swap, 1e18 = 100%
    /// (0.01e18 = 1%). Needs fresh oracle prices.
    /// @return fee0In The rate of a swap paying token0 in.
    /// @return fee1In The rate of a swap paying token1 in.
    function getPoolFees() external view returns (uint256 fee0In, uint256 fee1In);

    /// @notice The inventory share of token0 in value at the oracle prices, 1e18 = 100% (the target when the
    /// pool is empty). Needs fresh oracle prices.
    /// @return The share w.
    function inventoryWeight0() external view returns (uint256);

    /// @notice The accrued protocol fees, claimable by the owner.
    /// @return amount0 In token0.
    /// @return amount1 In token1.
    function protocolFees() external view returns (uint256 amount0, uint256 amount1);

    /// @notice The referral fees accrued and not yet paid, summed over all codes.
    /// @return amount0 In token0.
    /// @return amount1 In token1.
    function totalRefClaimable() external view returns (uint256 amount0, uint256 amount1);

    /// @notice The referral fees a code has accrued and not yet been paid.
    /// @param refCode A registered code (else InvalidRefCode).
    /// @return amount0 In token0.
    /// @return amount1 In token1.
    function getRefClaimable(bytes32 refCode) external view returns (uint256 amount0, uint256 amount1);

    // ---------------------------------------------------------------- swaps

    /// @notice Swaps exactly `amountIn` of `tokenIn` for at least `minAmountOut` of `tokenOut`, paid to the
    /// caller. The caller approves the pool for `amountIn` of `tokenIn` first.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The other token of the pool.
    /// @param amountIn The input, fee included.
    /// @param minAmountOut The least output accepted.
    /// @return amountOut The output paid to the caller.
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut)
        external
        returns (uint256 amountOut);

    /// @notice `swap` carrying a referral code. An unknown, revoked or zero code does not block the swap; it
    /// only earns no referral share (that share goes to the LP). Emits `SwapWithRef` in all cases.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The other token of the pool.
    /// @param amountIn The input, fee included.
    /// @param minAmountOut The least output accepted.
    /// @param refCode keccak256 of the referral code text.
    /// @return amountOut The output paid to the caller.
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, bytes32 refCode)
        external
        returns (uint256 amountOut);

    // ---------------------------------------------------------------- referral fees

    /// @notice Pays a code's accrued referral fees to the caller, who must be its claim wallet.
    /// @param refCode A registered code (else InvalidRefCode), not claim-locked (else RefCodeClaimLocked).
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function claimRefFees(bytes32 refCode) external returns (uint256 amount0, uint256 amount1);

    /// @notice `claimRefFees` on behalf of `claimer`, for the AMM router, which passes its own caller: the
    /// claim still succeeds only when `claimer` is the code's claim wallet, and pays `claimer`.
    /// @param refCode A registered, unlocked code.
    /// @param claimer The account claiming (the router's caller).
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function claimRefFeesFor(bytes32 refCode, address claimer) external returns (uint256 amount0, uint256 amount1);

    /// @notice Pushes a code's accrued referral fees to its claim wallet. Anyone may call; the funds can only
    /// go to the claim wallet.
    /// @param refCode A registered, unlocked code.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function distributeRefFees(bytes32 refCode) external returns (uint256 amount0, uint256 amount1);

    // ---------------------------------------------------------------- owner

    /// @notice Adds owner liquidity, pulled from the caller (approve the pool first). Only the owner.
    /// @param amount0 The token0 to add.
    /// @param amount1 The token1 to add.
    function addLiquidity(uint256 amount0, uint256 amount1) external;

    /// @notice Removes owner liquidity from the reserves. Only the owner; works while paused.
    /// @param amount0 The token0 to remove, at most reserve0.
    /// @param amount1 The token1 to remove, at most reserve1.
    /// @param to The recipient.
    function removeLiquidity(uint256 amount0, uint256 amount1, address to) external;

    /// @notice Pays all accrued protocol fees to `to` (the treasury). Only the owner.
    /// @param to The recipient.
    /// @return amount0 The token0 paid.
    /// @return amount1 The token1 paid.
    function claimProtocolFees(address to) external returns (uint256 amount0, uint256 amount1);

    /// @notice Sets the fee parameters. Only the owner.
    /// @param params The parameters, within the bounds documented on `FeeParams`.
    function setFeeParams(FeeParams calldata params) external;

    /// @notice Sets the oldest price age swaps accept. Only the owner.
    /// @param maxPriceAge_ In seconds, 1 to `MAX_PRICE_AGE`.
    function setMaxPriceAge(uint256 maxPriceAge_) external;

    /// @notice Sets the oracle. Only the owner.
    /// @param oracle_ The oracle; not zero.
    function setOracle(address oracle_) external;

    /// @notice Sets the AMM router trusted by `claimRefFeesFor`. Only the owner.
    /// @param router_ The router; zero to trust none.
    function setRouter(address router_) external;

    /// @notice Stops swaps and estimates. Only the owner.
    function pause() external;

    /// @notice Resumes swaps and estimates. Only the owner.
    function unpause() external;
}
