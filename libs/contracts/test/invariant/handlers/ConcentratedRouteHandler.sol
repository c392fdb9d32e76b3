// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../base/Base.sol";
import {TestERC20} from "../../../src/TestERC20.sol";
import {RouterV2} from "../../../src/router/RouterV2.sol";
import {IRouterV2} from "../../../src/router/interfaces/IRouterV2.sol";

/// @notice Drives RouterV2 through the real V3 and Algebra pools for invariant runs: several actors run random
/// routes (single hop either way on either kind, one hop split across V3, Algebra and a V2 pair, two hops mixing
/// the kinds), so the pools' prices wander across their positions from call to call. It never reverts: a call the
/// router refuses is caught and classified (a pool that ran out of liquidity, `SwapInputNotSpent`, is expected;
/// anything else is counted as unexpected).
contract ConcentratedRouteHandler is Base {
    /// @notice The pools and tokens the handler trades, as the fixture deployed them.
    struct Deployment {
        RouterV2 router;
        TestERC20 tokenA;
        TestERC20 tokenB;
        TestERC20 tokenC;
        address v3AB;
        address v3BC;
        address algebraAB;
        address algebraBC;
        address realPairAB;
        uint8 v3Slot;
        uint8 algebraSlot;
        uint8 v2Slot;
    }

    Deployment internal d;
    address[] internal actors;

    uint256 public ghostSwaps;
    uint256 public ghostOutOfLiquidity;
    uint256 public ghostUnexpectedReverts;
    bytes public lastUnexpectedRevert;

    constructor(Deployment memory deployment, uint256 actorCount) {
        d = deployment;
        for (uint256 i; i < actorCount; ++i) {
            actors.push(vm.addr(uint256(keccak256(abi.encode("concentrated actor", i)))));
        }
    }

    /// @notice One random route by a random actor.
    function swap(uint256 actorSeed, uint256 shapeSeed, uint256 amountSeed) external {
        address actor = actors[actorSeed % actors.length];
        uint256 amountIn = bound(amountSeed, 1e12, 3_000 ether);
        uint256 shape = shapeSeed % 6;
        bool reverse = (shapeSeed >> 8) % 2 == 1;
        (address[] memory path, IRouterV2.Swap[][] memory hops) = _route(shape, reverse, amountIn);

        TestERC20(path[0]).mint(actor, amountIn);
        vm.startPrank(actor);
        TestERC20(path[0]).approve(address(d.router), amountIn);
        try d.router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0)) returns (uint256 out) {
            if (out > 0) ++ghostSwaps;
        } catch (bytes memory reason) {
            // forge-lint: disable-next-line(unsafe-typecast)
            if (bytes4(reason) == IRouterV2.SwapInputNotSpent.selector) {
                ++ghostOutOfLiquidity;
            } else {
                ++ghostUnexpectedReverts;
                lastUnexpectedRevert = reason;
            }
        }
        // What an actor was not asked for stays with it; the allowance is not needed again.
        TestERC20(path[0]).approve(address(d.router), 0);
        vm.stopPrank();
    }

    function _route(uint256 shape, bool reverse, uint256 amountIn)
        internal
        view
        returns (address[] memory path, IRouterV2.Swap[][] memory hops)
    {
        address a = address(d.tokenA);
        address b = address(d.tokenB);
        address c = address(d.tokenC);
        if (shape < 4) {
            // Single hops: V3 A/B, Algebra A/B, V3 B/C, Algebra B/C.
            address pool = shape == 0 ? d.v3AB : shape == 1 ? d.algebraAB : shape == 2 ? d.v3BC : d.algebraBC;
            uint8 slot = shape % 2 == 0 ? d.v3Slot : d.algebraSlot;
            (address x, address y) = shape < 2 ? (a, b) : (b, c);
            if (reverse) (x, y) = (y, x);
            path = _pair(x, y);
            hops = new IRouterV2.Swap[][](1);
            hops[0] = new IRouterV2.Swap[](1);
            hops[0][0] = _swap(pool, x, y, slot, amountIn);
        } else if (shape == 4) {
            // A -> B split across V3, Algebra and the V2 pair (or back).
            (address x, address y) = reverse ? (b, a) : (a, b);
            path = _pair(x, y);
            hops = new IRouterV2.Swap[][](1);
            hops[0] = new IRouterV2.Swap[](3);
            hops[0][0] = _swap(d.v3AB, x, y, d.v3Slot, 2);
            hops[0][1] = _swap(d.algebraAB, x, y, d.algebraSlot, 2);
            hops[0][2] = _swap(d.realPairAB, x, y, d.v2Slot, 1);
        } else {
            // A -(V3)-> B -(Algebra)-> C, or C -(Algebra)-> B -(V3)-> A.
            path = new address[](3);
            (path[0], path[1], path[2]) = reverse ? (c, b, a) : (a, b, c);
            hops = new IRouterV2.Swap[][](2);
            hops[0] = new IRouterV2.Swap[](1);
            hops[1] = new IRouterV2.Swap[](1);
            hops[0][0] =
                reverse ? _swap(d.algebraBC, c, b, d.algebraSlot, amountIn) : _swap(d.v3AB, a, b, d.v3Slot, amountIn);
            hops[1][0] = reverse ? _swap(d.v3AB, b, a, d.v3Slot, 1) : _swap(d.algebraBC, b, c, d.algebraSlot, 1);
        }
    }

    function _pair(address x, address y) internal pure returns (address[] memory path) {
        path = new address[](2);
        (path[0], path[1]) = (x, y);
    }

    function _swap(address pool, address tokenIn, address tokenOut, uint8 slot, uint256 quoted)
        internal
        pure
        returns (IRouterV2.Swap memory)
    {
        return IRouterV2.Swap({
            pool: pool, tokenIn: tokenIn, tokenOut: tokenOut, routerIndex: slot, amountIn: quoted, data: ""
        });
    }
}
