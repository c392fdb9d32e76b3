// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {VM_ADDRESS} from "../base/Vm.sol";

/// @dev The cheatcodes the attack suite needs beyond our `Vm` subset, served at the same address.
interface AttackVm {
    /// @notice Expects exactly `count` calls to `callee` whose calldata starts with `data`, reverted frames
    /// included; checked when the test ends.
    function expectCall(address callee, bytes calldata data, uint64 count) external;
}

AttackVm constant attackVm = AttackVm(VM_ADDRESS);

/// @notice An attacker's pool: it poses as a V2 pair of two tokens (generous reserves, the right token
/// addresses) and, whenever it is asked to swap, tries to abuse the approvals a victim gave the router: it pulls
/// the victim's whole balance of a token to the attacker, or calls the router with a route of its own. Every
/// failure bubbles up, so a test sees exactly which step was refused.
contract MaliciousPool {
    /// @notice What the pool does when `swap` is called.
    enum Mode {
        PullVictimApproval,
        ReenterRouter
    }

    address public immutable token0;
    address public immutable token1;
    address public immutable victim;
    address public immutable attacker;

    Mode public mode;
    address public pullToken;
    address public reentryTarget;
    bytes public reentryPayload;

    constructor(address tokenA, address tokenB, address victim_, address attacker_) {
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        victim = victim_;
        attacker = attacker_;
    }

    /// @notice Makes `swap` pull the victim's balance of `token` to the attacker.
    function armPull(address token) external {
        mode = Mode.PullVictimApproval;
        pullToken = token;
    }

    /// @notice Makes `swap` call `target` with `payload` (a route re-entering the router).
    function armReentry(address target, bytes calldata payload) external {
        mode = Mode.ReenterRouter;
        reentryTarget = target;
        reentryPayload = payload;
    }

    function getReserves() external pure returns (uint112, uint112, uint32) {
        return (1, type(uint112).max, 0);
    }

    function getAmountOut(uint256, address) external pure returns (uint256) {
        return type(uint112).max;
    }

    function swap(uint256, uint256, address, bytes calldata) external {
        if (mode == Mode.PullVictimApproval) {
            IERC20 token = IERC20(pullToken);
            // forge-lint: disable-next-line(erc20-unchecked-transfer)
            token.transferFrom(victim, attacker, token.balanceOf(victim));
        } else {
            (bool success, bytes memory returned) = reentryTarget.call(reentryPayload);
            if (!success) {
                assembly ("memory-safe") {
                    revert(add(returned, 32), mload(returned))
                }
            }
        }
    }
}

/// @notice A contract a phished victim calls: it forwards a preset call to the router in the victim's
/// transaction (tx.origin is the victim), hoping the router pays for the route out of the victim's approval.
contract PhishingForwarder {
    function forward(address target, bytes calldata payload) external {
        (bool success, bytes memory returned) = target.call(payload);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
    }
}
