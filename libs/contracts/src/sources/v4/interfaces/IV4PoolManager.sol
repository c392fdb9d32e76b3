// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IV4PoolManager
/// @notice The part of Uniswap V4's singleton PoolManager (v4-core) that RouterV2 uses, with v4-core's own ABI: its
/// user-defined types are spelled as their underlying types (`Currency` and `IHooks` as `address`, `BalanceDelta`
/// as `int256`: amount0 in the upper 128 bits, amount1 in the lower, both signed, positive when owed to the caller).
interface IV4PoolManager {
    /// @notice A pool's key; its id is `keccak256(abi.encode(key))`.
    /// @param currency0 The currency sorted first (address(0) is the native coin).
    /// @param currency1 The currency sorted second.
    /// @param fee The LP fee in pips, or 0x800000 for a pool whose hook sets it (dynamic fee).
    /// @param tickSpacing The pool's tick spacing.
    /// @param hooks The pool's hook contract; its address's low 14 bits are the hooks it has.
    struct PoolKey {
        address currency0;
        address currency1;
        uint24 fee;
        int24 tickSpacing;
        address hooks;
    }

    /// @notice A swap's parameters.
    /// @param zeroForOne True to sell currency0 for currency1.
    /// @param amountSpecified The exact input when negative, the exact output when positive.
    /// @param sqrtPriceLimitX96 The price (Q64.96 square root) the swap stops at.
    struct SwapParams {
        bool zeroForOne;
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
    }

    /// @notice Unlocks the manager and calls `unlockCallback(data)` on the caller; every delta must be settled
    /// when it returns.
    function unlock(bytes calldata data) external returns (bytes memory);

    /// @notice Swaps on a pool of the manager (only while unlocked); returns the caller's balance delta.
    function swap(PoolKey memory key, SwapParams memory params, bytes calldata hookData)
        external
        returns (int256 swapDelta);

    /// @notice Notes the manager's balance of `currency` before a payment in it.
    function sync(address currency) external;

    /// @notice Credits the caller with what the manager received since `sync` (the native coin: `msg.value`).
    function settle() external payable returns (uint256 paid);

    /// @notice Pays `amount` of `currency` to `to`, debiting the caller.
    function take(address currency, address to, uint256 amount) external;
}

/// @title IV4UnlockCallback
/// @notice What the PoolManager calls on the account that unlocked it.
interface IV4UnlockCallback {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}
