// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Test} from "../base/Test.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {WrappedNative} from "../../src/WrappedNative.sol";
import {UniswapV2Factory} from "../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {StablePoolFactory} from "../../src/sources/stable/StablePoolFactory.sol";
import {StablePool} from "../../src/sources/stable/StablePool.sol";
import {RouterV2} from "../../src/router/RouterV2.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";

/// @notice Liquidity for router tests: a wrapped native token, two V2 deployments with different fees (slots 0
/// and 1), a stable factory (slot 2), pools with liquidity between them, the router with those three sources,
/// and the reference math the tests compute expected amounts with.
/// @dev The V2 and stable fixtures each own one pool under fixed names, so this fixture builds the same pieces
/// (the same factories, tokens and the same V2 reference formula) for several pools at once.
abstract contract RouterFixture is Test {
    uint8 internal constant V2_A = 0;
    uint8 internal constant V2_B = 1;
    uint8 internal constant STABLE = 2;
    uint16 internal constant V2_A_FEE_BPS = 30;
    uint16 internal constant V2_B_FEE_BPS = 10;
    uint16 internal constant STABLE_FEE_BPS = 4;

    RouterV2 internal router;
    WrappedNative internal wnative;
    UniswapV2Factory internal v2A;
    UniswapV2Factory internal v2B;
    StablePoolFactory internal stableFactory;

    TestERC20 internal tokenA;
    TestERC20 internal tokenB;
    TestERC20 internal tokenC;
    TestERC20 internal usdc;
    TestERC20 internal dai;

    /// @dev v2A pools.
    address internal pairAB;
    address internal pairBC;
    address internal pairAW;
    address internal pairCUsdc;
    /// @dev v2B pools.
    address internal pairAB2;
    address internal pairAW2;
    /// @dev The stable pool.
    address internal stableUsdcDai;

    address internal owner;
    address internal treasury;
    address internal integrator;
    address internal alice;
    address internal bob;

    function setUp() public virtual {
        owner = makeAddr("owner");
        treasury = makeAddr("treasury");
        integrator = makeAddr("integrator");
        alice = makeAddr("alice");
        bob = makeAddr("bob");

        wnative = new WrappedNative("Wrapped HYPE", "WHYPE");
        v2A = new UniswapV2Factory(address(this), V2_A_FEE_BPS);
        v2B = new UniswapV2Factory(address(this), V2_B_FEE_BPS);
        stableFactory = new StablePoolFactory(STABLE_FEE_BPS);
        tokenA = new TestERC20("Token A", "TKA", 18);
        tokenB = new TestERC20("Token B", "TKB", 18);
        tokenC = new TestERC20("Token C", "TKC", 18);
        usdc = new TestERC20("USD Coin", "USDC", 6);
        dai = new TestERC20("Dai Stablecoin", "DAI", 18);

        pairAB = _addV2Liquidity(v2A, address(tokenA), 1_000_000 ether, address(tokenB), 2_000_000 ether);
        pairBC = _addV2Liquidity(v2A, address(tokenB), 1_000_000 ether, address(tokenC), 1_000_000 ether);
        pairAW = _addV2Liquidity(v2A, address(tokenA), 1_000_000 ether, address(wnative), 10_000 ether);
        pairCUsdc = _addV2Liquidity(v2A, address(tokenC), 1_000_000 ether, address(usdc), 1_000_000e6);
        pairAB2 = _addV2Liquidity(v2B, address(tokenA), 500_000 ether, address(tokenB), 1_010_000 ether);
        pairAW2 = _addV2Liquidity(v2B, address(tokenA), 500_000 ether, address(wnative), 5_050 ether);
        stableUsdcDai = stableFactory.createPool(address(usdc), address(dai), true);
        _fund(address(usdc), stableUsdcDai, 1_000_000e6);
        _fund(address(dai), stableUsdcDai, 1_000_000 ether);
        StablePool(stableUsdcDai).mint(address(this));

        router = new RouterV2(owner, address(wnative), treasury);
        vm.startPrank(owner);
        router.setSource(V2_A, IRouterV2.SourceKind.UniswapV2, address(v2A), V2_A_FEE_BPS);
        router.setSource(V2_B, IRouterV2.SourceKind.UniswapV2, address(v2B), V2_B_FEE_BPS);
        router.setSource(STABLE, IRouterV2.SourceKind.Stable, address(stableFactory), STABLE_FEE_BPS);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- liquidity

    /// @dev Gives `to` `amount` of `token`: mints a test token, or wraps dealt native coin.
    function _fund(address token, address to, uint256 amount) internal {
        if (token == address(wnative)) {
            vm.deal(address(this), address(this).balance + amount);
            wnative.deposit{value: amount}();
            // forge-lint: disable-next-line(erc20-unchecked-transfer)
            wnative.transfer(to, amount);
        } else {
            TestERC20(token).mint(to, amount);
        }
    }

    /// @dev Creates the pair of `factory` if needed and deposits both amounts.
    function _addV2Liquidity(UniswapV2Factory factory, address a, uint256 amountA, address b, uint256 amountB)
        internal
        returns (address pair)
    {
        pair = factory.getPair(a, b);
        if (pair == address(0)) pair = factory.createPair(a, b);
        _fund(a, pair, amountA);
        _fund(b, pair, amountB);
        UniswapV2Pair(pair).mint(address(this));
    }

    // ---------------------------------------------------------------- reference math

    /// @dev Uniswap V2's getAmountOut with the fee in basis points.
    function _v2AmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut, uint256 feeBps)
        internal
        pure
        returns (uint256)
    {
        uint256 amountInWithFee = amountIn * (10_000 - feeBps);
        return (amountInWithFee * reserveOut) / (reserveIn * 10_000 + amountInWithFee);
    }

    /// @dev The output of `pair` for `amountIn` of `tokenIn` at its current reserves.
    function _v2Quote(address pair, address tokenIn, uint256 amountIn, uint256 feeBps) internal view returns (uint256) {
        (uint256 reserveIn, uint256 reserveOut) = _v2Reserves(pair, tokenIn);
        return _v2AmountOut(amountIn, reserveIn, reserveOut, feeBps);
    }

    function _v2Reserves(address pair, address tokenIn) internal view returns (uint256 reserveIn, uint256 reserveOut) {
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pair).getReserves();
        (reserveIn, reserveOut) =
            UniswapV2Pair(pair).token0() == tokenIn ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    /// @dev floor(amount * bps / 10000) without an intermediate overflow, written independently of the router.
    function _bpsOf(uint256 amount, uint256 bps) internal pure returns (uint256) {
        // Exact: amount = q * 10000 + r, so amount * bps / 10000 = q * bps + r * bps / 10000 (bps <= 10000).
        // forge-lint: disable-next-line(divide-before-multiply)
        return (amount / 10_000) * bps + ((amount % 10_000) * bps) / 10_000;
    }

    /// @dev The fee split of `splitOutput`, transcribed line by line from the TypeScript twin.
    function _referenceSplit(uint256 gross, uint256 expected, uint256 feeBps, bool hasFeeRecipient)
        internal
        pure
        returns (
            uint256 userAmount,
            uint256 integratorFee,
            uint256 protocolFee,
            uint256 recipientSlippage,
            uint256 protocolSlippage
        )
    {
        uint256 fee = _bpsOf(gross, feeBps);
        integratorFee = _bpsOf(fee, 9_750);
        protocolFee = fee - integratorFee;
        uint256 afterFee = gross - fee;
        uint256 expectedAfterFee = expected - _bpsOf(expected, feeBps);
        uint256 positiveSlippage = expected > 0 && afterFee > expectedAfterFee ? afterFee - expectedAfterFee : 0;
        uint256 captured = _bpsOf(positiveSlippage, 5_000);
        recipientSlippage = hasFeeRecipient ? captured / 2 : 0;
        protocolSlippage = captured - recipientSlippage;
        protocolFee += protocolSlippage;
        userAmount = afterFee - captured;
    }

    // ---------------------------------------------------------------- route builders

    function _swap(address pool, address tokenIn, address tokenOut, uint8 routerIndex, uint256 quotedIn)
        internal
        pure
        returns (IRouterV2.Swap memory)
    {
        return IRouterV2.Swap({
            pool: pool, tokenIn: tokenIn, tokenOut: tokenOut, routerIndex: routerIndex, amountIn: quotedIn, data: ""
        });
    }

    function _path(address a, address b) internal pure returns (address[] memory path) {
        path = new address[](2);
        (path[0], path[1]) = (a, b);
    }

    function _path(address a, address b, address c) internal pure returns (address[] memory path) {
        path = new address[](3);
        (path[0], path[1], path[2]) = (a, b, c);
    }

    /// @dev One hop of one swap.
    function _hops(IRouterV2.Swap memory s) internal pure returns (IRouterV2.Swap[][] memory hops) {
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = s;
    }

    /// @dev Two hops of one swap each.
    function _hops(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory hops)
    {
        hops = new IRouterV2.Swap[][](2);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = s0;
        hops[1] = new IRouterV2.Swap[](1);
        hops[1][0] = s1;
    }

    /// @dev One hop split across two swaps.
    function _splitHop(IRouterV2.Swap memory s0, IRouterV2.Swap memory s1)
        internal
        pure
        returns (IRouterV2.Swap[][] memory hops)
    {
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](2);
        hops[0][0] = s0;
        hops[0][1] = s1;
    }

    /// @dev Mints `amount` of a test token to `user` and approves the router for it.
    function _fundAndApprove(address user, address token, uint256 amount) internal {
        _fund(token, user, amount);
        vm.prank(user);
        IERC20(token).approve(address(router), amount);
    }

    receive() external payable {}
}
