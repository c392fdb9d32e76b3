// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {V2Fixture} from "../fixtures/V2Fixture.sol";
import {UniswapV2PairHandler} from "./handlers/UniswapV2PairHandler.sol";

contract UniswapV2PairInvariantTest is V2Fixture {
    UniswapV2PairHandler internal handler;

    function setUp() public override {
        super.setUp();
        handler = new UniswapV2PairHandler(pair);
        _addLiquidity(address(handler), 1_000_000 ether, 2_000_000 ether);
        token0.transferOwnership(address(handler));
        token1.transferOwnership(address(handler));
        targetContract(address(handler));
    }

    /// @notice The pair always holds at least its reserves.
    function invariant_balancesCoverReserves() public view {
        (uint256 r0, uint256 r1) = _reserves();
        assertGe(token0.balanceOf(address(pair)), r0, "token0 balance < reserve0");
        assertGe(token1.balanceOf(address(pair)), r1, "token1 balance < reserve1");
    }

    /// @notice No swap ever lowered reserve0 * reserve1.
    function invariant_kNeverDecreasesAcrossSwaps() public view {
        assertEq(handler.ghostKDecreases(), 0, "a swap decreased K");
    }

    /// @notice Reserves stay positive while shares exist.
    function invariant_reservesBackTheShares() public view {
        (uint256 r0, uint256 r1) = _reserves();
        assertGt(pair.totalSupply(), 0);
        assertGt(r0, 0);
        assertGt(r1, 0);
    }
}
