// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IV4PoolManager, IV4UnlockCallback} from "../../src/sources/v4/interfaces/IV4PoolManager.sol";

// Hooks and callers that attack RouterV2's `UniswapV4` kind. Hooks are placed (vm.etch) at addresses carrying their
// permission flags, so they keep their settings in storage set after placement.

/// @notice A beforeSwap hook (flag 1 << 7) that, once armed, calls `target` with `data` from inside the swap and
/// records how the call ended.
contract ReentrantHook {
    address public target;
    bytes public data;
    bool public attempted;
    bool public succeeded;
    bytes public failure;

    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
    }

    function beforeSwap(address, IV4PoolManager.PoolKey calldata, IV4PoolManager.SwapParams calldata, bytes calldata)
        external
        returns (bytes4, int256, uint24)
    {
        if (target != address(0)) {
            attempted = true;
            (succeeded, failure) = target.call(data);
        }
        return (ReentrantHook.beforeSwap.selector, 0, 0);
    }
}

/// @notice An afterSwap hook with a return delta (flags 1 << 6 | 1 << 2) that takes `takePips` of each swap's
/// output for itself (above 1,000,000: more than the output).
contract GreedyHook {
    uint256 public takePips;

    function setTake(uint256 takePips_) external {
        takePips = takePips_;
    }

    function afterSwap(
        address,
        IV4PoolManager.PoolKey calldata key,
        IV4PoolManager.SwapParams calldata params,
        int256 delta,
        bytes calldata
    ) external returns (bytes4, int128) {
        // The output is the unspecified currency of an exact input.
        int128 out = params.zeroForOne ? int128(delta) : int128(delta >> 128);
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 amount = uint256(uint128(out)) * takePips / 1_000_000;
        if (amount == 0) return (GreedyHook.afterSwap.selector, 0);
        IV4PoolManager(msg.sender).take(params.zeroForOne ? key.currency1 : key.currency0, address(this), amount);
        // forge-lint: disable-next-line(unsafe-typecast)
        return (GreedyHook.afterSwap.selector, int128(int256(amount)));
    }
}

/// @notice Unlocks the PoolManager itself and, from its own callback, calls the router's `unlockCallback` with data
/// that would have the router pay from `payer`.
contract UnlockSpoofer is IV4UnlockCallback {
    address public immutable router;
    bytes internal forged;

    constructor(address router_) {
        router = router_;
    }

    function attack(IV4PoolManager manager, bytes calldata forged_) external {
        forged = forged_;
        manager.unlock("");
    }

    function unlockCallback(bytes calldata) external returns (bytes memory) {
        return IV4UnlockCallback(router).unlockCallback(forged);
    }
}
