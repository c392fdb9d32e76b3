// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Base} from "../base/Base.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {RouterV2} from "../../src/router/RouterV2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";

/// @notice Drives RouterV2 for invariant runs: several actors run random routes (direct, split, multi-hop, across
/// source kinds, native in and out, and routes that split across paths) with random fees, expected amounts,
/// minimums and recipients. The handler
/// never reverts: every call is caught, and what it observed is kept in ghost counters the invariants read.
contract RouterV2Handler is Base {
    /// @notice The liquidity the handler trades against, as the fixture deployed it.
    struct Deployment {
        RouterV2 router;
        address wnative;
        TestERC20 tokenA;
        TestERC20 tokenB;
        TestERC20 tokenC;
        TestERC20 usdc;
        TestERC20 dai;
        address pairAB;
        address pairBC;
        address pairAW;
        address pairCUsdc;
        address pairAB2;
        address pairAW2;
        address stableUsdcDai;
        address pairAC;
        address pairBUsdc;
        address pairWB;
        address treasury;
    }

    /// @dev One random route: its path, stages, the pools that pay its output token (whose balances of it fall
    /// by the gross output) and a rough price (output per input, num/den) to draw expected and minimum amounts
    /// from.
    struct Route {
        address[] path;
        IRouterV2.Swap[][] hops;
        address[] payingPools;
        uint256 priceNum;
        uint256 priceDen;
        bool splitsAcrossPaths;
    }

    /// @dev Balances around one call.
    struct Observed {
        uint256 recipient;
        uint256 feeRecipient;
        uint256 treasury;
        uint256 pools;
    }

    uint8 internal constant V2_A = 0;
    uint8 internal constant V2_B = 1;
    uint8 internal constant STABLE = 2;
    uint256 internal constant ROUTES = 12;

    Deployment internal d;
    address[] internal _actors;
    address[] internal _integrators;

    /// @notice Calls that executed.
    uint256 public ghostSwaps;
    /// @notice Calls that executed a route splitting across paths.
    uint256 public ghostSplitPathSwaps;
    /// @notice Calls that reverted with InsufficientOutput for an amount really below the minimum.
    uint256 public ghostBelowMinimum;
    /// @notice Reverts of any other kind (must stay 0: every generated route is valid).
    uint256 public ghostUnexpectedReverts;
    /// @notice Executed calls that paid the recipient less than minAmountOut (must stay 0).
    uint256 public ghostMinimumViolations;
    /// @notice Executed calls whose payouts did not sum exactly to the gross output (must stay 0).
    uint256 public ghostSumMismatches;
    /// @notice Executed calls whose payouts differ from previewFees of the gross output (must stay 0).
    uint256 public ghostSplitMismatches;
    /// @notice Executed calls where fees or slippage were paid.
    uint256 public ghostFeeSwaps;
    uint256 public ghostSlippageSwaps;
    /// @notice The revert data of the last unexpected revert, for debugging.
    bytes public lastUnexpectedRevert;

    constructor(Deployment memory deployment, uint256 actorCount) {
        d = deployment;
        for (uint256 i; i < actorCount; ++i) {
            _actors.push(makeAddr(string.concat("router-actor", vm.toString(i))));
        }
        _integrators.push(makeAddr("integrator0"));
        _integrators.push(makeAddr("integrator1"));
    }

    /// @notice Everyone who may hold the router's tokens after a call (for the invariants' bookkeeping).
    function actors() external view returns (address[] memory) {
        return _actors;
    }

    /// @dev The settings of one call.
    struct Order {
        address actor;
        address recipient;
        uint256 amountIn;
        uint256 minOut;
        uint256 expected;
        uint256 feeBps;
        address feeRecipient;
        bool toOther;
    }

    /// @notice One random route by a random actor.
    function swap(
        uint256 actorSeed,
        uint256 routeSeed,
        uint256 amountSeed,
        uint256 feeSeed,
        uint256 expectedSeed,
        uint256 minSeed,
        bool toOther
    ) external {
        Order memory o;
        o.actor = _actors[actorSeed % _actors.length];
        o.recipient = toOther ? _actors[(actorSeed % _actors.length + 1) % _actors.length] : o.actor;
        o.toOther = toOther;
        // From 0.001 of a token: enough for every route to pay out something (C -> USDC drops 12 decimals).
        o.amountIn = bound(amountSeed, 1e15, 1_000 ether);
        Route memory route = _route(routeSeed, o.amountIn);

        o.feeRecipient = feeSeed % 3 == 0 ? address(0) : _integrators[feeSeed % 2];
        o.feeBps = o.feeRecipient == address(0) ? 0 : bound(feeSeed >> 8, 0, 100);
        uint256 estimate = (o.amountIn * route.priceNum) / route.priceDen;
        // Expected amounts from 0 to twice the rough quote: both sides of the slippage threshold are hit.
        o.expected = expectedSeed % 4 == 0 ? 0 : bound(expectedSeed >> 8, 0, 2 * estimate);
        // Minimums are mostly reachable, sometimes not.
        o.minOut = minSeed % 2 == 0 ? 0 : bound(minSeed >> 8, 0, (estimate * 11) / 10);

        _fundInput(o.actor, route.path[0], o.amountIn);
        address tokenOut = route.path[route.path.length - 1];
        Observed memory before = _observe(route, tokenOut, o.recipient, o.feeRecipient);

        uint256 value = route.path[0] == address(0) ? o.amountIn : 0;
        bytes memory data = _calldata(route, o);
        vm.prank(o.actor);
        (bool success, bytes memory returned) = address(d.router).call{value: value}(data);

        if (!success) {
            _classifyRevert(returned);
            return;
        }
        ++ghostSwaps;
        if (route.splitsAcrossPaths) ++ghostSplitPathSwaps;
        Observed memory after_ = _observe(route, tokenOut, o.recipient, o.feeRecipient);
        // A native round trip to oneself: the coin paid in left the same balance the output arrives in.
        if (tokenOut == address(0) && o.recipient == o.actor) after_.recipient += value;
        _check(before, after_, abi.decode(returned, (uint256)), o);
    }

    function _calldata(Route memory route, Order memory o) internal view returns (bytes memory) {
        if (!o.toOther) {
            return abi.encodeCall(
                IRouterV2.executeSwaps,
                (route.path, o.amountIn, o.minOut, o.expected, route.hops, o.feeBps, o.feeRecipient)
            );
        }
        return abi.encodeCall(
            IRouterV2.executeSwapsWithData,
            (
                route.path,
                o.amountIn,
                o.minOut,
                o.expected,
                route.hops,
                o.feeBps,
                o.feeRecipient,
                o.recipient,
                block.timestamp
            )
        );
    }

    // ---------------------------------------------------------------- checks

    function _check(Observed memory before, Observed memory after_, uint256 userAmountOut, Order memory o) internal {
        uint256 toRecipient = after_.recipient - before.recipient;
        uint256 toFeeRecipient = after_.feeRecipient - before.feeRecipient;
        uint256 toTreasury = after_.treasury - before.treasury;
        uint256 gross = before.pools - after_.pools;

        if (toRecipient != userAmountOut || toRecipient < o.minOut) ++ghostMinimumViolations;
        if (toRecipient + toFeeRecipient + toTreasury != gross) ++ghostSumMismatches;

        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            d.router.previewFees(gross, o.expected, o.feeBps, o.feeRecipient != address(0));
        if (user != toRecipient || integratorFee + recipientSlip != toFeeRecipient || protocolFee != toTreasury) {
            ++ghostSplitMismatches;
        }
        if (integratorFee > 0) ++ghostFeeSwaps;
        if (recipientSlip + protocolSlip > 0) ++ghostSlippageSwaps;
    }

    function _classifyRevert(bytes memory returned) internal {
        // The first four bytes are the error selector.
        // forge-lint: disable-next-line(unsafe-typecast)
        if (returned.length == 68 && bytes4(returned) == IRouterV2.InsufficientOutput.selector) {
            (uint256 amountOut, uint256 minOut) = abi.decode(_slice4(returned), (uint256, uint256));
            if (amountOut < minOut) {
                ++ghostBelowMinimum;
                return;
            }
        }
        ++ghostUnexpectedReverts;
        lastUnexpectedRevert = returned;
    }

    function _observe(Route memory route, address tokenOut, address recipient, address feeRecipient)
        internal
        view
        returns (Observed memory o)
    {
        o.recipient = _balanceOf(tokenOut, recipient);
        o.feeRecipient = feeRecipient == address(0) ? 0 : _balanceOf(tokenOut, feeRecipient);
        o.treasury = _balanceOf(tokenOut, d.treasury);
        address traded = tokenOut == address(0) ? d.wnative : tokenOut;
        for (uint256 i; i < route.payingPools.length; ++i) {
            o.pools += IERC20(traded).balanceOf(route.payingPools[i]);
        }
    }

    // ---------------------------------------------------------------- routes

    function _route(uint256 seed, uint256 amountIn) internal view returns (Route memory r) {
        uint256 kind = seed % ROUTES;
        r.splitsAcrossPaths = kind >= 8 && kind <= 11;
        uint256 split = bound(seed >> 8, 0, 100);
        address a = address(d.tokenA);
        address b = address(d.tokenB);
        address w = d.wnative;
        if (kind == 0) {
            // A -> B on one pool.
            r.path = _path2(a, b);
            r.hops = _oneHop(_swap(d.pairAB, a, b, V2_A, amountIn));
            r.payingPools = _pools1(d.pairAB);
            (r.priceNum, r.priceDen) = (2, 1);
        } else if (kind == 1) {
            // A -> B split across both V2 deployments.
            r.path = _path2(a, b);
            r.hops = _twoWay(_swap(d.pairAB, a, b, V2_A, split), _swap(d.pairAB2, a, b, V2_B, 100 - split));
            r.payingPools = _pools2(d.pairAB, d.pairAB2);
            (r.priceNum, r.priceDen) = (2, 1);
        } else if (kind == 2) {
            // A -> B -> C.
            address c = address(d.tokenC);
            r.path = _path3(a, b, c);
            r.hops = _twoHops(_swap(d.pairAB, a, b, V2_A, amountIn), _swap(d.pairBC, b, c, V2_A, 2 * amountIn));
            r.payingPools = _pools1(d.pairBC);
            (r.priceNum, r.priceDen) = (2, 1);
        } else if (kind == 3) {
            // native -> A split across both deployments.
            r.path = _path2(address(0), a);
            r.hops = _twoWay(_swap(d.pairAW, w, a, V2_A, split), _swap(d.pairAW2, w, a, V2_B, 100 - split));
            r.payingPools = _pools2(d.pairAW, d.pairAW2);
            (r.priceNum, r.priceDen) = (100, 1);
        } else if (kind == 4) {
            // A -> native.
            r.path = _path2(a, address(0));
            r.hops = _oneHop(_swap(d.pairAW2, a, w, V2_B, amountIn));
            r.payingPools = _pools1(d.pairAW2);
            (r.priceNum, r.priceDen) = (1, 100);
        } else if (kind == 5) {
            // C -> USDC (V2) -> DAI (stable).
            address c = address(d.tokenC);
            address u = address(d.usdc);
            r.path = _path3(c, u, address(d.dai));
            r.hops = _twoHops(
                _swap(d.pairCUsdc, c, u, V2_A, amountIn), _swap(d.stableUsdcDai, u, address(d.dai), STABLE, amountIn)
            );
            r.payingPools = _pools1(d.stableUsdcDai);
            (r.priceNum, r.priceDen) = (1, 1);
        } else if (kind == 6) {
            // B -> A split, the reverse direction.
            r.path = _path2(b, a);
            r.hops = _twoWay(_swap(d.pairAB, b, a, V2_A, split), _swap(d.pairAB2, b, a, V2_B, 100 - split));
            r.payingPools = _pools2(d.pairAB, d.pairAB2);
            (r.priceNum, r.priceDen) = (1, 2);
        } else if (kind == 8) {
            // A -> B beside A -> C -> B.
            address c = address(d.tokenC);
            r.path = _path3(a, c, b);
            r.hops = _stages2(
                _pair(_swap(d.pairAB, a, b, V2_A, split), _swap(d.pairAC, a, c, V2_A, 100 - split)),
                _single(_swap(d.pairBC, c, b, V2_A, 1))
            );
            r.payingPools = _pools2(d.pairAB, d.pairBC);
            (r.priceNum, r.priceDen) = (2, 1);
        } else if (kind == 9) {
            // The diamond A -> B -> USDC, A -> C -> USDC.
            address c = address(d.tokenC);
            address u = address(d.usdc);
            r.path = new address[](4);
            (r.path[0], r.path[1], r.path[2], r.path[3]) = (a, b, c, u);
            r.hops = _stages2(
                _pair(_swap(d.pairAB, a, b, V2_A, split), _swap(d.pairAC, a, c, V2_A, 100 - split)),
                _pair(_swap(d.pairBUsdc, b, u, V2_A, 1), _swap(d.pairCUsdc, c, u, V2_A, 1))
            );
            r.payingPools = _pools2(d.pairBUsdc, d.pairCUsdc);
            (r.priceNum, r.priceDen) = (2, 1e12);
        } else if (kind == 10) {
            // native -> A beside native -> B -> A.
            r.path = _path3(address(0), b, a);
            r.hops = _stages2(
                _pair(_swap(d.pairAW, w, a, V2_A, split), _swap(d.pairWB, w, b, V2_A, 100 - split)),
                _single(_swap(d.pairAB, b, a, V2_A, 1))
            );
            r.payingPools = _pools2(d.pairAW, d.pairAB);
            (r.priceNum, r.priceDen) = (100, 1);
        } else if (kind == 11) {
            // A -> native beside A -> B -> native, across deployments.
            r.path = _path3(a, b, address(0));
            r.hops = _stages2(
                _pair(_swap(d.pairAW2, a, w, V2_B, split), _swap(d.pairAB, a, b, V2_A, 100 - split)),
                _single(_swap(d.pairWB, b, w, V2_A, 1))
            );
            r.payingPools = _pools2(d.pairAW2, d.pairWB);
            (r.priceNum, r.priceDen) = (1, 100);
        } else {
            // native -> A -> native, across deployments.
            r.path = _path3(address(0), a, address(0));
            r.hops = _twoHops(_swap(d.pairAW, w, a, V2_A, amountIn), _swap(d.pairAW2, a, w, V2_B, 100 * amountIn));
            r.payingPools = _pools1(d.pairAW2);
            (r.priceNum, r.priceDen) = (1, 1);
        }
    }

    function _swap(address pool, address tokenIn, address tokenOut, uint8 routerIndex, uint256 quoted)
        internal
        pure
        returns (IRouterV2.Swap memory)
    {
        return IRouterV2.Swap(pool, tokenIn, tokenOut, routerIndex, quoted, "");
    }

    function _oneHop(IRouterV2.Swap memory s) internal pure returns (IRouterV2.Swap[][] memory hops) {
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = s;
    }

    function _twoWay(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory hops)
    {
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](2);
        (hops[0][0], hops[0][1]) = (s0, s1);
    }

    function _twoHops(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory hops)
    {
        hops = new IRouterV2.Swap[][](2);
        hops[0] = new IRouterV2.Swap[](1);
        hops[1] = new IRouterV2.Swap[](1);
        (hops[0][0], hops[1][0]) = (s0, s1);
    }

    function _single(IRouterV2.Swap memory s) internal pure returns (IRouterV2.Swap[] memory swaps) {
        swaps = new IRouterV2.Swap[](1);
        swaps[0] = s;
    }

    function _pair(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[] memory swaps)
    {
        swaps = new IRouterV2.Swap[](2);
        (swaps[0], swaps[1]) = (s0, s1);
    }

    function _stages2(IRouterV2.Swap[] memory s0, IRouterV2.Swap[] memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory stages)
    {
        stages = new IRouterV2.Swap[][](2);
        (stages[0], stages[1]) = (s0, s1);
    }

    function _path2(address x, address y) internal pure returns (address[] memory p) {
        p = new address[](2);
        (p[0], p[1]) = (x, y);
    }

    function _path3(address x, address y, address z) internal pure returns (address[] memory p) {
        p = new address[](3);
        (p[0], p[1], p[2]) = (x, y, z);
    }

    function _pools1(address x) internal pure returns (address[] memory p) {
        p = new address[](1);
        p[0] = x;
    }

    function _pools2(address x, address y) internal pure returns (address[] memory p) {
        p = new address[](2);
        (p[0], p[1]) = (x, y);
    }

    // ---------------------------------------------------------------- funds

    /// @dev Gives the actor the input (native coin, or minted tokens approved to the router).
    function _fundInput(address actor, address token, uint256 amount) internal {
        if (token == address(0)) {
            vm.deal(actor, actor.balance + amount);
            return;
        }
        TestERC20(token).mint(actor, amount);
        vm.prank(actor);
        IERC20(token).approve(address(d.router), amount);
    }

    function _balanceOf(address token, address account) internal view returns (uint256) {
        return token == address(0) ? account.balance : IERC20(token).balanceOf(account);
    }

    function _slice4(bytes memory data) internal pure returns (bytes memory rest) {
        rest = new bytes(data.length - 4);
        for (uint256 i; i < rest.length; ++i) {
            rest[i] = data[i + 4];
        }
    }
}
