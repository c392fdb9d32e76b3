// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAmmRouter
/// @notice The AMM's entry point on a chain: a registry of oracle-priced pools, one per token pair, that finds
/// the pool of a pair and swaps, quotes, reads reserves and handles referral fees through it. Callers approve
/// the router (not the pool) for tokenIn. Pools emit `Swap` / `SwapWithRef` with `user` = this router for
/// routed swaps; the trader is the transaction's sender.
/// @dev Two-token results (`getReserves`, `getRefClaimable`, `claimRefFees`) are in the order of the
/// `tokenA, tokenB` arguments as given, not in the pool's sorted order.
interface IAmmRouter {
    /// @notice No pool is registered for the pair.
    /// @param tokenA The first token given.
    /// @param tokenB The second token given.
    error NoPoolForPair(address tokenA, address tokenB);

    /// @notice A token transfer or approval failed (reverted, returned false, or the token has no code).
    /// @param token The token.
    error TransferFailed(address token);

    /// @notice The router received less than the amount transferred; fee-on-transfer tokens are not supported.
    /// @param token The token.
    error FeeOnTransferNotSupported(address token);

    /// @notice The pair already has a pool; remove it first.
    /// @param pool The registered pool.
    error PoolAlreadyExists(address pool);

    /// @notice The pool is not registered.
    /// @param pool The pool.
    error PoolNotFound(address pool);

    /// @notice The pool validates referral codes against another registry than the router's.
    /// @param pool The pool.
    error RegistryMismatch(address pool);

    /// @notice An address that must be set is zero.
    error ZeroAddress();

    /// @notice A pool was registered.
    /// @param pool The pool.
    /// @param token0 Its token sorted first.
    /// @param token1 Its token sorted second.
    event PoolAdded(address indexed pool, address indexed token0, address indexed token1);

    /// @notice A pool was unregistered.
    /// @param pool The pool.
    /// @param token0 Its token sorted first.
    /// @param token1 Its token sorted second.
    event PoolRemoved(address indexed pool, address indexed token0, address indexed token1);

    /// @notice `distributeRefFees` paid a code's referral fees of one pool to the code's claim wallet.
    /// @param pool The pool.
    /// @param refCode The code.
    /// @param claimWallet The recipient.
    /// @param amount0 The pool's token0 paid.
    /// @param amount1 The pool's token1 paid.
    event RefFeesDistributed(
        address indexed pool, bytes32 indexed refCode, address indexed claimWallet, uint256 amount0, uint256 amount1
    );

    /// @notice `distributeRefFees` could not pay a code's fees of one pool (e.g. a token transfer failed); the
    /// other pools and codes were still paid.
    /// @param pool The pool.
    /// @param refCode The code.
    /// @param reason The revert data.
    event RefFeesDistributionFailed(address indexed pool, bytes32 indexed refCode, bytes reason);

    /// @notice The registry of referral codes the router enumerates and its pools validate against.
    /// @return The registry.
    function refCodeRegistry() external view returns (address);

    /// @notice Every registered pool.
    /// @dev The interface specification calls this "pure"; a registry read from storage is `view`.
    /// @return pools The pools, in registration order except where a removal moved the last one.
    function getPools() external view returns (address[] memory pools);

    /// @notice The pool of a pair, whichever order the tokens are given in.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @return The pool; the zero address when none.
    function getPoolForPair(address tokenA, address tokenB) external view returns (address);

    /// @notice Swaps exactly `amountIn` of `tokenIn` for at least `minAmountOut` of `tokenOut` on the pair's
    /// pool; the output is paid to the caller. Approve the router for `amountIn` of `tokenIn` first.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out.
    /// @param amountIn The input, fee included.
    /// @param minAmountOut The least output accepted.
    /// @return amountOut The output paid to the caller.
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut)
        external
        returns (uint256 amountOut);

    /// @notice `swap` carrying a referral code. An invalid code does not block the swap; it only earns no
    /// referral allocation.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out.
    /// @param amountIn The input, fee included.
    /// @param minAmountOut The least output accepted.
    /// @param refCode keccak256 of the referral code text.
    /// @return amountOut The output paid to the caller.
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, bytes32 refCode)
        external
        returns (uint256 amountOut);

    /// @notice The pool's `estimateSwap`: exactly what `swap` would pay now.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out.
    /// @param amountIn The input, fee included.
    /// @return amountOut The output.
    function estimateSwap(address tokenIn, address tokenOut, uint256 amountIn) external view returns (uint256 amountOut);

    /// @notice The pool's `estimateSwapBatch`: `estimateSwap` of each amount against the current state.
    /// @param tokenIn The token paid in.
    /// @param tokenOut The token paid out.
    /// @param amountsIn The inputs.
    /// @return amountsOut The outputs, in the same order.
    function estimateSwapBatch(address tokenIn, address tokenOut, uint256[] calldata amountsIn)
        external
        view
        returns (uint256[] memory amountsOut);

    /// @notice The reserves of the pair's pool.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @return reserve0 The reserve of `tokenA`.
    /// @return reserve1 The reserve of `tokenB`.
    function getReserves(address tokenA, address tokenB) external view returns (uint256 reserve0, uint256 reserve1);

    /// @notice The referral fees a code has accrued in the pair's pool.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param refCode A registered code.
    /// @return amount0 In `tokenA`.
    /// @return amount1 In `tokenB`.
    function getRefClaimable(address tokenA, address tokenB, bytes32 refCode)
        external
        view
        returns (uint256 amount0, uint256 amount1);

    /// @notice Claims a code's referral fees of the pair's pool; the caller must be the code's claim wallet and
    /// is paid directly by the pool.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @param refCode A registered, unlocked code.
    /// @return amount0 The `tokenA` paid.
    /// @return amount1 The `tokenB` paid.
    function claimRefFees(address tokenA, address tokenB, bytes32 refCode)
        external
        returns (uint256 amount0, uint256 amount1);

    /// @notice Pays the pending referral fees of every pool to the claim wallet of every active code. Anyone may
    /// call. Codes whose claims are locked are skipped, as is a pool that fails to pay (see
    /// `RefFeesDistributionFailed`). Costs gas in codes x pools; use the bounded variant for large registries.
    function distributeRefFees() external;

    /// @notice `distributeRefFees` for the codes in registry positions [startCode, startCode + count).
    /// @param startCode The first position (registration order).
    /// @param count How many positions at most; the range is cut at `refCodeCount()`.
    function distributeRefFees(uint256 startCode, uint256 count) external;

    /// @notice Registers a pool for its pair. Only the owner. The pool must use the router's registry.
    /// @param pool The pool.
    function addPool(address pool) external;

    /// @notice Unregisters a pool. Only the owner.
    /// @param pool The pool.
    function removePool(address pool) external;
}
