// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {WrappedNative} from "../../src/WrappedNative.sol";
import {WrappedNativeHandler} from "./handlers/WrappedNativeHandler.sol";

contract WrappedNativeInvariantTest is Test {
    WrappedNative internal wrapped;
    WrappedNativeHandler internal handler;

    function setUp() public {
        wrapped = new WrappedNative("Wrapped HYPE", "WHYPE");
        handler = new WrappedNativeHandler(wrapped, 4);
        targetContract(address(handler));
    }

    /// @notice The native coin held backs the supply exactly, and the supply is the sum of balances.
    function invariant_backingEqualsSupplyEqualsSumOfBalances() public view {
        address[] memory actors = handler.actors();
        uint256 sum;
        for (uint256 i; i < actors.length; ++i) {
            sum += wrapped.balanceOf(actors[i]);
        }
        assertEq(address(wrapped).balance, wrapped.totalSupply(), "backing != totalSupply");
        assertEq(wrapped.totalSupply(), sum, "totalSupply != sum of balances");
    }

    /// @notice The supply is everything wrapped minus everything unwrapped.
    function invariant_supplyMatchesGhostFlows() public view {
        assertEq(wrapped.totalSupply(), handler.ghostDeposited() - handler.ghostWithdrawn());
    }
}
