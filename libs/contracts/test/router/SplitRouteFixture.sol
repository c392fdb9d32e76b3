// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {RouterFixture} from "./RouterFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";

/// @notice The router fixture plus the v2A pools that routes splitting across paths need, priced like the
/// fixture's (1 A = 2 B = 2 C = 2 USDC, 1 WHYPE = 100 A): A/C beside A/B and B/C (A -> B and A -> C -> B), B/USDC
/// beside C/USDC (the diamond A -> B -> USDC, A -> C -> USDC), and WHYPE/B beside A/WHYPE and A/B (native in or
/// out on two paths). Every pool of a path is used by that path only, so each path of these routes trades as if
/// it ran alone.
abstract contract SplitRouteFixture is RouterFixture {
    address internal pairAC;
    address internal pairBUsdc;
    address internal pairWB;

    function setUp() public virtual override {
        super.setUp();
        pairAC = _addV2Liquidity(v2A, address(tokenA), 1_000_000 ether, address(tokenC), 2_000_000 ether);
        pairBUsdc = _addV2Liquidity(v2A, address(tokenB), 1_000_000 ether, address(usdc), 1_000_000e6);
        pairWB = _addV2Liquidity(v2A, address(wnative), 10_000 ether, address(tokenB), 2_000_000 ether);
    }

    // ---------------------------------------------------------------- route builders

    function _path(address a, address b, address c, address d) internal pure returns (address[] memory path) {
        path = new address[](4);
        (path[0], path[1], path[2], path[3]) = (a, b, c, d);
    }

    function _swaps(IRouterV2.Swap memory s0) internal pure returns (IRouterV2.Swap[] memory swaps) {
        swaps = new IRouterV2.Swap[](1);
        swaps[0] = s0;
    }

    function _swaps(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[] memory swaps)
    {
        swaps = new IRouterV2.Swap[](2);
        (swaps[0], swaps[1]) = (s0, s1);
    }

    function _swaps(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1, IRouterV2.Swap memory s2)
        internal
        pure
        returns (IRouterV2.Swap[] memory swaps)
    {
        swaps = new IRouterV2.Swap[](3);
        (swaps[0], swaps[1], swaps[2]) = (s0, s1, s2);
    }

    function _stages(IRouterV2.Swap[] memory s0, IRouterV2.Swap[] memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory stages)
    {
        stages = new IRouterV2.Swap[][](2);
        (stages[0], stages[1]) = (s0, s1);
    }

    function _stages(IRouterV2.Swap[] memory s0, IRouterV2.Swap[] memory s1, IRouterV2.Swap[] memory s2)
        internal
        pure
        returns (IRouterV2.Swap[][] memory stages)
    {
        stages = new IRouterV2.Swap[][](3);
        (stages[0], stages[1], stages[2]) = (s0, s1, s2);
    }

    // ---------------------------------------------------------------- the routes

    /// @dev A -> B directly beside A -> C -> B: `tokens` [A, C, B], stage 0 [A -> B, A -> C], stage 1 [C -> B];
    /// the input is split `quotedDirect` : `quotedViaC`.
    function _twoPathsAToB(uint256 quotedDirect, uint256 quotedViaC)
        internal
        view
        returns (address[] memory tokens, IRouterV2.Swap[][] memory stages)
    {
        tokens = _path(address(tokenA), address(tokenC), address(tokenB));
        stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, quotedDirect),
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, quotedViaC)
            ),
            _swaps(_swap(pairBC, address(tokenC), address(tokenB), V2_A, 1))
        );
    }

    /// @dev What `_twoPathsAToB` pays for `amountIn` at the current reserves, and the input's shares.
    function _twoPathsAToBOut(uint256 amountIn, uint256 quotedDirect, uint256 quotedViaC)
        internal
        view
        returns (uint256 out, uint256 shareDirect, uint256 shareViaC)
    {
        shareDirect = (amountIn * quotedDirect) / (quotedDirect + quotedViaC);
        shareViaC = amountIn - shareDirect;
        out = _v2QuoteOrZero(pairAB, address(tokenA), shareDirect)
            + _v2QuoteOrZero(pairBC, address(tokenC), _v2QuoteOrZero(pairAC, address(tokenA), shareViaC));
    }

    /// @dev The diamond A -> B -> USDC beside A -> C -> USDC: `tokens` [A, B, C, USDC], stage 0 [A -> B, A -> C],
    /// stage 1 [B -> USDC, C -> USDC]; the input is split `quotedViaB` : `quotedViaC`.
    function _diamondAToUsdc(uint256 quotedViaB, uint256 quotedViaC)
        internal
        view
        returns (address[] memory tokens, IRouterV2.Swap[][] memory stages)
    {
        tokens = _path(address(tokenA), address(tokenB), address(tokenC), address(usdc));
        stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, quotedViaB),
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, quotedViaC)
            ),
            _swaps(
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1),
                _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1)
            )
        );
    }

    /// @dev What `_diamondAToUsdc` pays for `amountIn` at the current reserves.
    function _diamondAToUsdcOut(uint256 amountIn, uint256 quotedViaB, uint256 quotedViaC)
        internal
        view
        returns (uint256)
    {
        uint256 viaB = (amountIn * quotedViaB) / (quotedViaB + quotedViaC);
        uint256 viaC = amountIn - viaB;
        return _v2QuoteOrZero(pairBUsdc, address(tokenB), _v2QuoteOrZero(pairAB, address(tokenA), viaB))
            + _v2QuoteOrZero(pairCUsdc, address(tokenC), _v2QuoteOrZero(pairAC, address(tokenA), viaC));
    }

    /// @dev A v2A pool's output for `amountIn` (zero for none: the router trades nothing for a zero share).
    function _v2QuoteOrZero(address pair, address tokenIn, uint256 amountIn) internal view returns (uint256) {
        return amountIn == 0 ? 0 : _v2Quote(pair, tokenIn, amountIn, V2_A_FEE_BPS);
    }
}
