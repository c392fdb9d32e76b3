// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ConcentratedFixture} from "../router/ConcentratedFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IUniswapV3Pool} from "../../src/sources/v3/interfaces/IUniswapV3Pool.sol";
import {IAlgebraPool} from "../../src/sources/algebra/interfaces/IAlgebraPool.sol";

/// @notice The cheapest direct swap on a V3 or Algebra pool a contract can make: call `swap` with the output
/// going to the caller, and pay in the callback from its own balance, trusting the callback's caller without any
/// check (so the router's overhead over it is an upper bound).
contract DirectConcentratedSwapper {
    /// @notice Sells `amountIn` of `tokenIn` on `pool` for the caller (the token to pay travels in the callback's
    /// data).
    function swap(address pool, address tokenIn, address tokenOut, uint256 amountIn, bool algebra) external {
        bool zeroForOne = tokenIn < tokenOut;
        uint160 limit = zeroForOne ? 4295128739 + 1 : 1461446703485210103287273052203988822378723970342 - 1;
        bytes memory data = abi.encode(tokenIn);
        // forge-lint: disable-next-line(unsafe-typecast)
        if (algebra) IAlgebraPool(pool).swap(msg.sender, zeroForOne, int256(amountIn), limit, data);
        // forge-lint: disable-next-line(unsafe-typecast)
        else IUniswapV3Pool(pool).swap(msg.sender, zeroForOne, int256(amountIn), limit, data);
    }

    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata data) external {
        _pay(amount0, amount1, data);
    }

    function algebraSwapCallback(int256 amount0, int256 amount1, bytes calldata data) external {
        _pay(amount0, amount1, data);
    }

    function _pay(int256 amount0, int256 amount1, bytes calldata data) internal {
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 owed = uint256(amount0 > 0 ? amount0 : amount1);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(abi.decode(data, (address))).transfer(msg.sender, owed);
    }
}

/// @notice Gas bench of RouterV2's `UniswapV3` and `Algebra` kinds against a direct swap on the same real pools
/// (from the npm packages' bytecode), as `RouterV2Gas.t.sol` does for V2: each test is its own transaction after
/// `setUp`, so everything the trade touches starts cold; figures are execution gas logged with `log_named_uint`
/// (read by `bench/router-gas/run.mjs`). Every trade here crosses initialized ticks the same way in both figures
/// (the same pool state, the same input). Nothing asserts on gas.
contract RouterV2ConcentratedGasBench is ConcentratedFixture {
    event log_named_uint(string key, uint256 val);

    uint256 internal constant AMOUNT = 1_000 ether;

    DirectConcentratedSwapper internal direct;

    function setUp() public override {
        super.setUp();
        direct = new DirectConcentratedSwapper();
        _fund(address(tokenA), address(direct), 10 * AMOUNT);
        // This contract is the router's trader: it holds the input and has approved the router without limit.
        _fund(address(tokenA), address(this), 10 * AMOUNT);
        tokenA.approve(address(router), type(uint256).max);
    }

    function test_bench_directV3Swap() public {
        _benchDirect("direct_v3_single_hop", v3AB, false);
    }

    function test_bench_directAlgebraSwap() public {
        _benchDirect("direct_algebra_single_hop", algebraAB, true);
    }

    function test_bench_routerV3SingleHop() public {
        _benchRouter(
            "router_v3_single_hop",
            _path(address(tokenA), address(tokenB)),
            _hops(_swap(v3AB, address(tokenA), address(tokenB), V3, AMOUNT)),
            address(tokenB)
        );
    }

    function test_bench_routerAlgebraSingleHop() public {
        _benchRouter(
            "router_algebra_single_hop",
            _path(address(tokenA), address(tokenB)),
            _hops(_swap(algebraAB, address(tokenA), address(tokenB), ALGEBRA, AMOUNT)),
            address(tokenB)
        );
    }

    /// @notice One hop split across V3, Algebra and a V2 pair.
    function test_bench_routerSplitV3AlgebraV2() public {
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](3);
        hops[0][0] = _swap(v3AB, address(tokenA), address(tokenB), V3, 2);
        hops[0][1] = _swap(algebraAB, address(tokenA), address(tokenB), ALGEBRA, 2);
        hops[0][2] = _swap(realPairAB, address(tokenA), address(tokenB), V2_REAL, 1);
        _benchRouter("router_split_v3_algebra_v2", _path(address(tokenA), address(tokenB)), hops, address(tokenB));
    }

    /// @notice A -(V3)-> B -(Algebra)-> C.
    function test_bench_routerTwoHopsV3Algebra() public {
        _benchRouter(
            "router_two_hops_v3_algebra",
            _path(address(tokenA), address(tokenB), address(tokenC)),
            _hops(
                _swap(v3AB, address(tokenA), address(tokenB), V3, AMOUNT),
                _swap(algebraBC, address(tokenB), address(tokenC), ALGEBRA, 1)
            ),
            address(tokenC)
        );
    }

    // ---------------------------------------------------------------- helpers

    function _benchDirect(string memory key, address pool, bool algebra) internal {
        DirectConcentratedSwapper swapper = direct;
        address tokenIn = address(tokenA);
        address tokenOut = address(tokenB);
        uint256 outBefore = IERC20(tokenOut).balanceOf(address(this));
        // The read above warms this contract's output balance; the router bench reads it before its call too.
        uint256 gasBefore = gasleft();
        swapper.swap(pool, tokenIn, tokenOut, AMOUNT, algebra);
        uint256 gasUsed = gasBefore - gasleft();
        emit log_named_uint(key, gasUsed);
        assertGt(IERC20(tokenOut).balanceOf(address(this)), outBefore, "no output");
    }

    function _benchRouter(string memory key, address[] memory path, IRouterV2.Swap[][] memory hops, address tokenOut)
        internal
    {
        bytes memory call_ = abi.encodeCall(IRouterV2.executeSwaps, (path, AMOUNT, 0, 0, hops, 0, address(0)));
        address target = address(router);
        uint256 outBefore = IERC20(tokenOut).balanceOf(address(this));
        uint256 gasBefore = gasleft();
        (bool success, bytes memory returned) = target.call(call_);
        uint256 gasUsed = gasBefore - gasleft();
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
        emit log_named_uint(key, gasUsed);
        uint256 out = abi.decode(returned, (uint256));
        assertGt(out, 0, "no output");
        assertEq(IERC20(tokenOut).balanceOf(address(this)) - outBefore, out, "output not received");
    }
}
