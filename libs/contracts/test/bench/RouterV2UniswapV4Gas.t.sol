// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {V4Fixture} from "../router/V4Fixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IV4PoolManager, IV4UnlockCallback} from "../../src/sources/v4/interfaces/IV4PoolManager.sol";

/// @notice The cheapest direct exact-input swap on a V4 pool a contract can make: unlock the PoolManager, swap, pay
/// the input from its own balance (sync, transfer, settle) and take the output to the caller, trusting the callback's
/// caller and the deltas without any check (so the router's overhead over it is an upper bound).
contract DirectV4Swapper is IV4UnlockCallback {
    /// @notice Sells `amountIn` of the key's currency0 (`zeroForOne`) or currency1 for the caller.
    function swap(IV4PoolManager manager, IV4PoolManager.PoolKey calldata key, bool zeroForOne, uint256 amountIn)
        external
    {
        manager.unlock(abi.encode(msg.sender, key, zeroForOne, amountIn));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        (address to, IV4PoolManager.PoolKey memory key, bool zeroForOne, uint256 amountIn) =
            abi.decode(data, (address, IV4PoolManager.PoolKey, bool, uint256));
        IV4PoolManager manager = IV4PoolManager(msg.sender);
        uint160 limit = zeroForOne ? 4295128739 + 1 : 1461446703485210103287273052203988822378723970342 - 1;
        // forge-lint: disable-next-line(unsafe-typecast)
        int256 delta = manager.swap(key, IV4PoolManager.SwapParams(zeroForOne, -int256(amountIn), limit), "");
        (address tokenIn, address tokenOut) =
            zeroForOne ? (key.currency0, key.currency1) : (key.currency1, key.currency0);
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 out = uint256(uint128(zeroForOne ? int128(delta) : int128(delta >> 128)));
        manager.sync(tokenIn);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(tokenIn).transfer(msg.sender, amountIn);
        manager.settle();
        manager.take(tokenOut, to, out);
        return "";
    }
}

/// @notice Gas bench of RouterV2's `UniswapV4` kind against a direct swap on the same pool of v4-core's PoolManager,
/// as `RouterV2ConcentratedGas.t.sol` does for V3: each test is its own transaction after `setUp`, so everything the
/// trade touches starts cold; figures are execution gas logged with `log_named_uint` (read by
/// `bench/router-gas/run.mjs`). Both figures cross the same ticks (same pool state, same input). Nothing asserts on
/// gas.
contract RouterV2UniswapV4GasBench is V4Fixture {
    event log_named_uint(string key, uint256 val);

    uint256 internal constant AMOUNT = 1_000 ether;

    DirectV4Swapper internal direct;

    function setUp() public override {
        super.setUp();
        direct = new DirectV4Swapper();
        _fund(address(tokenA), address(direct), 10 * AMOUNT);
        // This contract is the router's trader: it holds the input and has approved the router without limit.
        _fund(address(tokenA), address(this), 10 * AMOUNT);
        tokenA.approve(address(router), type(uint256).max);
        vm.deal(address(this), 100 ether);
    }

    function test_bench_directV4Swap() public {
        DirectV4Swapper swapper = direct;
        IV4PoolManager.PoolKey memory key = keyAB;
        bool zeroForOne = key.currency0 == address(tokenA);
        IV4PoolManager poolManager = IV4PoolManager(address(manager));
        uint256 outBefore = tokenB.balanceOf(address(this));
        // The read above warms this contract's output balance; the router bench reads it before its call too.
        uint256 gasBefore = gasleft();
        swapper.swap(poolManager, key, zeroForOne, AMOUNT);
        uint256 gasUsed = gasBefore - gasleft();
        emit log_named_uint("direct_v4_single_hop", gasUsed);
        assertGt(tokenB.balanceOf(address(this)), outBefore, "no output");
    }

    function test_bench_routerV4SingleHop() public {
        _benchRouter(
            "router_v4_single_hop",
            _path(address(tokenA), address(tokenB)),
            _hops(_v4(keyAB, address(tokenA), address(tokenB), AMOUNT)),
            0
        );
    }

    /// @notice One stage split across two V4 pools (one unlock).
    function test_bench_routerV4SplitOneUnlock() public {
        _benchRouter(
            "router_v4_split_2way",
            _path(address(tokenA), address(tokenB)),
            _splitHop(
                _v4(keyAB, address(tokenA), address(tokenB), 1), _v4(keyAB500, address(tokenA), address(tokenB), 1)
            ),
            0
        );
    }

    /// @notice One stage split across a V4 pool and a V3 pool.
    function test_bench_routerV4V3Split() public {
        _benchRouter(
            "router_v4_v3_split",
            _path(address(tokenA), address(tokenB)),
            _splitHop(
                _v4(keyAB, address(tokenA), address(tokenB), 1), _swap(v3AB, address(tokenA), address(tokenB), V3, 1)
            ),
            0
        );
    }

    /// @notice The native coin into a native V4 pool.
    function test_bench_routerV4NativeIn() public {
        _benchRouter(
            "router_v4_native_in",
            _path(address(0), address(tokenA)),
            _hops(_v4(keyNativeA, address(wnative), address(tokenA), 1 ether)),
            1 ether
        );
    }

    /// @notice A native V4 pool's output paid out in the native coin.
    function test_bench_routerV4NativeOut() public {
        _benchRouter(
            "router_v4_native_out",
            _path(address(tokenA), address(0)),
            _hops(_v4(keyNativeA, address(tokenA), address(wnative), AMOUNT)),
            0
        );
    }

    function _benchRouter(string memory key, address[] memory path, IRouterV2.Swap[][] memory hops, uint256 value)
        internal
    {
        uint256 amountIn = value != 0 ? value : AMOUNT;
        bytes memory call_ = abi.encodeCall(IRouterV2.executeSwaps, (path, amountIn, 0, 0, hops, 0, address(0)));
        address target = address(router);
        uint256 gasBefore = gasleft();
        (bool success, bytes memory returned) = target.call{value: value}(call_);
        uint256 gasUsed = gasBefore - gasleft();
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
        emit log_named_uint(key, gasUsed);
        assertGt(abi.decode(returned, (uint256)), 0, "no output");
    }
}
