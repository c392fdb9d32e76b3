// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {StableFixture} from "../fixtures/StableFixture.sol";
import {StablePoolHandler} from "./handlers/StablePoolHandler.sol";

contract StablePoolInvariantTest is StableFixture {
    StablePoolHandler internal handler;

    function setUp() public override {
        super.setUp();
        _addBalancedLiquidity(address(this), 1_000_000);
        handler = new StablePoolHandler(pool);
        // The handler is the main provider: it may withdraw down to a tenth of the starting supply.
        _addBalancedLiquidity(address(handler), 1_000_000);
        token0.transferOwnership(address(handler));
        token1.transferOwnership(address(handler));
        targetContract(address(handler));
    }

    /// @notice The pool always holds at least its reserves.
    function invariant_balancesCoverReserves() public view {
        (uint256 r0, uint256 r1) = _reserves();
        assertGe(token0.balanceOf(address(pool)), r0, "token0 balance < reserve0");
        assertGe(token1.balanceOf(address(pool)), r1, "token1 balance < reserve1");
    }

    /// @notice No swap ever lowered the x^3*y + y^3*x invariant of the reserves.
    function invariant_kNeverDecreasesAcrossSwaps() public view {
        assertEq(handler.ghostKDecreases(), 0, "a swap decreased K");
    }

    /// @notice The handler's K reading agrees with the test's own reference.
    function invariant_referenceKAgrees() public view {
        assertEq(handler.poolK(), _poolK());
    }
}
