// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IV4PoolManager} from "../sources/v4/interfaces/IV4PoolManager.sol";
import {IV4PoolManagerAdmin} from "./V4PositionMinter.sol";

// Uniswap V4 hooks of the devnet, each a kind of hook the aggregator meets on real chains: one that sets its pools'
// LP fee (dynamic fee, no swap permission), one that takes a fee out of each swap's input through beforeSwap's return
// delta, and one that refuses some swaps. A hook's permissions are the low 14 bits of its address (v4-core's
// `Hooks`), so each is deployed at an address carrying exactly its flags (CREATE2 with a mined salt on the devnet).
// They hold no state of their own but immutables, so a test may also place their code at a flagged address.

/// @notice What every devnet hook shares: the manager it serves, its owner, and the guard of its hook calls.
abstract contract DevnetHook {
    /// @notice A hook function was called by an account other than the manager.
    error NotPoolManager(address caller);

    /// @notice An owner-only function was called by someone else.
    error NotOwner(address caller);

    /// @notice The PoolManager the hook serves.
    IV4PoolManagerAdmin public immutable manager;

    /// @notice Who may change the hook's settings.
    address public immutable owner;

    /// @param manager_ The PoolManager.
    /// @param owner_ The hook's owner.
    constructor(IV4PoolManagerAdmin manager_, address owner_) {
        manager = manager_;
        owner = owner_;
    }

    modifier onlyManager() {
        if (msg.sender != address(manager)) revert NotPoolManager(msg.sender);
        _;
    }
}

/// @title DynamicFeeHook
/// @notice Sets the LP fee of its dynamic-fee pools (key fee 0x800000): `initialFee` when a pool is initialized, then
/// what the owner sets. It has no swap permission (flags: afterInitialize only), so a swap on its pools is the
/// PoolManager's own maths at the pool's current LP fee, which changes without an event of the manager.
contract DynamicFeeHook is DevnetHook {
    /// @notice The hook's flags (its address's low bits): afterInitialize.
    uint160 public constant FLAGS = 1 << 12;

    /// @notice The LP fee, in pips, of a pool when it is initialized.
    uint24 public immutable initialFee;

    /// @notice The owner set a pool's LP fee.
    event FeeSet(bytes32 indexed poolId, uint24 fee);

    constructor(IV4PoolManagerAdmin manager_, address owner_, uint24 initialFee_) DevnetHook(manager_, owner_) {
        initialFee = initialFee_;
    }

    /// @notice The PoolManager's afterInitialize hook: sets the pool's first LP fee.
    function afterInitialize(address, IV4PoolManager.PoolKey calldata key, uint160, int24)
        external
        onlyManager
        returns (bytes4)
    {
        manager.updateDynamicLPFee(key, initialFee);
        return DynamicFeeHook.afterInitialize.selector;
    }

    /// @notice Sets a pool's LP fee (owner only).
    function setFee(IV4PoolManager.PoolKey calldata key, uint24 fee) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        manager.updateDynamicLPFee(key, fee);
        emit FeeSet(keccak256(abi.encode(key)), fee);
    }
}

/// @title InputFeeHook
/// @notice Takes `feePips` of each exact-input swap's input for its owner before the swap (beforeSwap with a return
/// delta: the pool swaps the rest); exact-output swaps pay no hook fee. Flags: beforeSwap, beforeSwapReturnsDelta.
contract InputFeeHook is DevnetHook {
    /// @notice The hook's flags: beforeSwap (1 << 7) and beforeSwapReturnsDelta (1 << 3).
    uint160 public constant FLAGS = (1 << 7) | (1 << 3);

    /// @notice The hook's fee, in pips of the input.
    uint24 public immutable feePips;

    constructor(IV4PoolManagerAdmin manager_, address owner_, uint24 feePips_) DevnetHook(manager_, owner_) {
        feePips = feePips_;
    }

    /// @notice The PoolManager's beforeSwap hook: takes the fee of an exact input for the owner and returns it as the
    /// swap's specified delta (the caller still owes the whole input; the pool swaps the rest).
    function beforeSwap(
        address,
        IV4PoolManager.PoolKey calldata key,
        IV4PoolManager.SwapParams calldata params,
        bytes calldata
    ) external onlyManager returns (bytes4, int256, uint24) {
        int256 specified = params.amountSpecified;
        if (specified >= 0) return (InputFeeHook.beforeSwap.selector, 0, 0);
        // casting to 'uint256' is safe because specified < 0 here.
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 fee = uint256(-specified) * feePips / 1_000_000;
        if (fee == 0) return (InputFeeHook.beforeSwap.selector, 0, 0);
        manager.take(params.zeroForOne ? key.currency0 : key.currency1, owner, fee);
        // The specified delta in the upper 128 bits: positive, the hook is owed it (it took it).
        // forge-lint: disable-next-line(unsafe-typecast)
        return (InputFeeHook.beforeSwap.selector, int256(fee) << 128, 0);
    }
}

/// @title SwapLimitHook
/// @notice Refuses swaps whose specified amount (input or output) is above `maxAmount` (beforeSwap reverts): a pool
/// that fails some swaps and not others. Flags: beforeSwap.
contract SwapLimitHook is DevnetHook {
    /// @notice The hook's flags: beforeSwap.
    uint160 public constant FLAGS = 1 << 7;

    /// @notice The largest amount a swap may specify.
    uint256 public immutable maxAmount;

    /// @notice A swap specified more than `maxAmount`.
    error SwapTooLarge(uint256 amount, uint256 maxAmount);

    constructor(IV4PoolManagerAdmin manager_, address owner_, uint256 maxAmount_) DevnetHook(manager_, owner_) {
        maxAmount = maxAmount_;
    }

    /// @notice The PoolManager's beforeSwap hook: refuses a swap above the limit, changes nothing else.
    function beforeSwap(
        address,
        IV4PoolManager.PoolKey calldata,
        IV4PoolManager.SwapParams calldata params,
        bytes calldata
    ) external view onlyManager returns (bytes4, int256, uint24) {
        int256 specified = params.amountSpecified;
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 amount = specified < 0 ? uint256(-specified) : uint256(specified);
        if (amount > maxAmount) revert SwapTooLarge(amount, maxAmount);
        return (SwapLimitHook.beforeSwap.selector, 0, 0);
    }
}
