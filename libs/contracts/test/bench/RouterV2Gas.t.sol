// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {VM_ADDRESS} from "../base/Vm.sol";
import {SplitRouteFixture} from "../router/SplitRouteFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IUniswapV2Pair} from "../../src/sources/v2/interfaces/IUniswapV2Pair.sol";
import {deployPermit2} from "../base/Permit2.sol";
import {Permit2RouteSigning} from "../router/RouterV2Permit2Fixture.sol";
import {RouterV2Permit2} from "../../src/router/RouterV2Permit2.sol";
import {IRouterV2Permit2} from "../../src/router/interfaces/IRouterV2Permit2.sol";
import {IPermit2SignatureTransfer} from "../../src/router/interfaces/IPermit2SignatureTransfer.sol";

/// @dev The cheatcode the bench reads refunds with, beyond our `Vm` subset (same address).
interface GasVm {
    /// @notice Gas figures of the last call the test contract made.
    struct Gas {
        uint64 gasLimit;
        uint64 gasTotalUsed;
        uint64 gasMemoryUsed;
        int64 gasRefunded;
        uint64 gasRemaining;
    }

    function lastCallGas() external view returns (Gas memory gas);
}

/// @dev Permit2's owner-side nonce invalidation, which `IPermit2SignatureTransfer` leaves out.
interface IPermit2NonceInvalidation {
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external;
}

/// @notice Gas bench of RouterV2 against the cheapest direct trade on a V2 pair. Each test measures one trade
/// with `gasleft()` around it, from the same fixture state: forge runs every test function as its own
/// transaction after `setUp`, so every account and slot the trade touches starts cold in each of them, as in a
/// real transaction. The figures are execution gas before the end-of-transaction refund (the router's refund is
/// logged beside it; the direct trade earns none, as it resets no slot to its starting value) and without the transaction's intrinsic and calldata costs (the router's calldata cost is
/// logged too). They are printed as `log_named_uint` events (`forge test -vv`); `bench/router-gas/run.mjs` turns
/// them into a report. Nothing here asserts on gas, only that each trade succeeds.
contract RouterV2GasBench is SplitRouteFixture {
    event log_named_uint(string key, uint256 val);

    GasVm private constant gasVm = GasVm(VM_ADDRESS);

    uint256 internal constant AMOUNT = 1_000 ether;
    uint256 internal constant NATIVE_AMOUNT = 10 ether;
    /// @dev A nonce in a Permit2 nonce word the signer has used before (`setUp` spends nonce 256, word 1).
    uint256 internal constant USED_WORD_NONCE = 257;

    /// @dev The signed-route entry, its Permit2 (the published bytecode, at its canonical address), and the wallet
    /// that signs: it holds the input and has approved Permit2 (not the router) without limit.
    RouterV2Permit2 internal permitRouter;
    address internal permit2;
    bytes32 internal permit2DomainSeparator;
    uint256 internal signerKey;
    address internal signer;

    function setUp() public override {
        super.setUp();
        // This contract is the trader in every bench: it holds the input and has approved the router without
        // limit (an unlimited allowance is never written back, as with most users).
        _fund(address(tokenA), address(this), 10 * AMOUNT);
        tokenA.approve(address(router), type(uint256).max);
        vm.deal(address(this), NATIVE_AMOUNT);

        // The signed routes (`executeSwapsWithPermit2`): this contract relays them for the signer and receives the
        // output, as it does its own routes. The chain stays 31337, where the artifact's Permit2 returns its
        // cached domain separator, the path a deployed Permit2 takes on its own chain.
        permit2 = deployPermit2();
        permitRouter = new RouterV2Permit2(address(router), permit2);
        permit2DomainSeparator = IPermit2SignatureTransfer(permit2).DOMAIN_SEPARATOR();
        signerKey = uint256(keccak256("bench signer"));
        signer = vm.addr(signerKey);
        _fund(address(tokenA), signer, 10 * AMOUNT);
        vm.prank(signer);
        tokenA.approve(permit2, type(uint256).max);
        // RouterV2Permit2's standing allowance to the router for the input, which its first route with that token
        // ever sets (the steady state of a deployed contract).
        vm.prank(address(permitRouter));
        tokenA.approve(address(router), type(uint256).max);
        // A nonce word the signer has used before, for the bench that spends a nonce from it.
        vm.prank(signer);
        IPermit2NonceInvalidation(permit2).invalidateUnorderedNonces(USED_WORD_NONCE >> 8, 1);
    }

    // ---------------------------------------------------------------- the baseline

    /// @notice The cheapest direct trade a contract can make: read the reserves, price the input with the pair's
    /// fee, pay the pair, take the output.
    function test_bench_directPairSwap() public {
        address pair = pairAB;
        address tokenIn = address(tokenA);
        address tokenOut = address(tokenB);
        uint256 feeBps = V2_A_FEE_BPS;

        uint256 gasBefore = gasleft();
        bool zeroForOne = tokenIn < tokenOut;
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 amountInWithFee = AMOUNT * (10_000 - feeBps);
        uint256 amountOut = (amountInWithFee * reserveOut) / (reserveIn * 10_000 + amountInWithFee);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(tokenIn).transfer(pair, AMOUNT);
        if (zeroForOne) IUniswapV2Pair(pair).swap(0, amountOut, address(this), "");
        else IUniswapV2Pair(pair).swap(amountOut, 0, address(this), "");
        uint256 gasUsed = gasBefore - gasleft();

        emit log_named_uint("direct_single_hop", gasUsed);
        // This contract held none of the output before (setUp gives it the input only).
        assertGt(amountOut, 0, "no output");
        assertEq(IERC20(tokenOut).balanceOf(address(this)), amountOut, "output not received");
    }

    // ---------------------------------------------------------------- through the router

    /// @notice The same trade as the baseline through `executeSwaps`: one hop, one pool, no fee.
    function test_bench_routerSingleHop() public {
        bytes memory call_ = _executeSwapsCall(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
        _benchRouter("router_single_hop", call_, 0, address(tokenB));
        emit log_named_uint("router_single_hop_calldata", _calldataGas(call_));
    }

    /// @notice One hop split evenly across the two V2 deployments' A/B pairs.
    function test_bench_routerSplit2Way() public {
        bytes memory call_ = _executeSwapsCall(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _splitHop(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT / 2),
                _swap(pairAB2, address(tokenA), address(tokenB), V2_B, AMOUNT / 2)
            )
        );
        _benchRouter("router_split_2way", call_, 0, address(tokenB));
    }

    /// @notice A -> B -> C over two V2 pairs.
    function test_bench_routerTwoHops() public {
        uint256 midQuote = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        bytes memory call_ = _executeSwapsCall(
            _path(address(tokenA), address(tokenB), address(tokenC)),
            AMOUNT,
            _hops(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                _swap(pairBC, address(tokenB), address(tokenC), V2_A, midQuote)
            )
        );
        _benchRouter("router_two_hops", call_, 0, address(tokenC));
    }

    /// @notice A -> B -> C -> USDC over three V2 pairs.
    function test_bench_routerThreeHops() public {
        uint256 quoteB = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 quoteC = _v2Quote(pairBC, address(tokenB), quoteB, V2_A_FEE_BPS);
        address[] memory path = new address[](4);
        (path[0], path[1], path[2], path[3]) = (address(tokenA), address(tokenB), address(tokenC), address(usdc));
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](3);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT);
        hops[1] = new IRouterV2.Swap[](1);
        hops[1][0] = _swap(pairBC, address(tokenB), address(tokenC), V2_A, quoteB);
        hops[2] = new IRouterV2.Swap[](1);
        hops[2][0] = _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, quoteC);
        _benchRouter("router_three_hops", _executeSwapsCall(path, AMOUNT, hops), 0, address(usdc));
    }

    /// @notice A -> B beside A -> C -> B, the input split evenly: a route that splits across paths (two stages,
    /// three pools, the output from both stages).
    function test_bench_routerSplitPaths() public {
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(AMOUNT / 2, AMOUNT / 2);
        _benchRouter("router_split_paths", _executeSwapsCall(tokens, AMOUNT, stages), 0, address(tokenB));
    }

    /// @notice The diamond A -> B -> USDC beside A -> C -> USDC, the input split evenly (two stages, four pools).
    function test_bench_routerDiamond() public {
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(AMOUNT / 2, AMOUNT / 2);
        _benchRouter("router_diamond", _executeSwapsCall(tokens, AMOUNT, stages), 0, address(usdc));
    }

    /// @notice Native coin in (wrapped by the router), token out.
    function test_bench_routerNativeIn() public {
        bytes memory call_ = _executeSwapsCall(
            _path(address(0), address(tokenA)),
            NATIVE_AMOUNT,
            _hops(_swap(pairAW, address(wnative), address(tokenA), V2_A, NATIVE_AMOUNT))
        );
        _benchRouter("router_native_in", call_, NATIVE_AMOUNT, address(tokenA));
    }

    /// @notice Token in, native coin out (unwrapped by the router).
    function test_bench_routerNativeOut() public {
        bytes memory call_ = _executeSwapsCall(
            _path(address(tokenA), address(0)),
            AMOUNT,
            _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT))
        );
        _benchRouter("router_native_out", call_, 0, address(0));
    }

    // ---------------------------------------------------------------- signed routes (RouterV2Permit2)

    /// @notice `test_bench_routerSingleHop`'s route through `executeSwapsWithPermit2`, relayed for a signer that
    /// approved only Permit2, spending the first nonce of a word the signer never used (a zero word written).
    function test_bench_permit2SingleHop() public {
        bytes memory call_ = _permit2Call(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)),
            0
        );
        _benchCall(address(permitRouter), "permit2_single_hop", call_, 0, address(tokenB));
        emit log_named_uint("permit2_single_hop_calldata", _calldataGas(call_));
    }

    /// @notice The same, spending a nonce from a word the signer has used before (a non-zero word rewritten).
    function test_bench_permit2SingleHopUsedNonceWord() public {
        bytes memory call_ = _permit2Call(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)),
            USED_WORD_NONCE
        );
        _benchCall(address(permitRouter), "permit2_single_hop_used_word", call_, 0, address(tokenB));
    }

    /// @notice `test_bench_routerTwoHops`'s route (quoted the same way) through `executeSwapsWithPermit2`.
    function test_bench_permit2TwoHops() public {
        uint256 midQuote = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        bytes memory call_ = _permit2Call(
            _path(address(tokenA), address(tokenB), address(tokenC)),
            AMOUNT,
            _hops(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                _swap(pairBC, address(tokenB), address(tokenC), V2_A, midQuote)
            ),
            0
        );
        _benchCall(address(permitRouter), "permit2_two_hops", call_, 0, address(tokenC));
    }

    // ---------------------------------------------------------------- helpers

    /// @dev `executeSwapsWithPermit2` of a route with no minimum, expected amount or fee, paid to this contract,
    /// signed by `signer` with `nonce`. Signing reads nothing the call touches (the domain separator was read in
    /// `setUp`).
    function _permit2Call(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops, uint256 nonce)
        internal
        view
        returns (bytes memory)
    {
        uint256 deadline = block.timestamp + 60;
        bytes32 witness = Permit2RouteSigning.witness(address(router), path, 0, 0, hops, 0, address(0), address(this));
        bytes32 digest = Permit2RouteSigning.digest(
            permit2DomainSeparator, path[0], amountIn, address(permitRouter), nonce, deadline, witness
        );
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(signerKey, digest);
        IRouterV2Permit2.Permit2Signature memory permit =
            IRouterV2Permit2.Permit2Signature({signer: signer, nonce: nonce, signature: abi.encodePacked(r, s, v)});
        return abi.encodeCall(
            IRouterV2Permit2.executeSwapsWithPermit2,
            (path, amountIn, 0, 0, hops, 0, address(0), address(this), deadline, permit)
        );
    }

    function _executeSwapsCall(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IRouterV2.executeSwaps, (path, amountIn, 0, 0, hops, 0, address(0)));
    }

    /// @dev Sends the pre-encoded `call_` to the router and logs its gas under `key`; the encoding is done
    /// beforehand so that only the call is measured, and nothing the call touches is read before it (that would
    /// warm it). Reverts with the router's error if the trade fails.
    function _benchRouter(string memory key, bytes memory call_, uint256 value, address tokenOut) internal {
        _benchCall(address(router), key, call_, value, tokenOut);
    }

    /// @dev `_benchRouter` for any `target` (the router, or RouterV2Permit2).
    function _benchCall(address target, string memory key, bytes memory call_, uint256 value, address tokenOut)
        internal
    {
        uint256 gasBefore = gasleft();
        (bool success, bytes memory returned) = target.call{value: value}(call_);
        uint256 gasUsed = gasBefore - gasleft();
        uint256 refund = _lastRefund();

        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
        emit log_named_uint(key, gasUsed);
        emit log_named_uint(string.concat(key, "_refund"), refund);
        uint256 userAmountOut = abi.decode(returned, (uint256));
        assertGt(userAmountOut, 0, "no output");
        assertGe(_balanceOf(tokenOut), userAmountOut, "output not received");
    }

    function _balanceOf(address token) internal view returns (uint256) {
        return token == address(0) ? address(this).balance : IERC20(token).balanceOf(address(this));
    }

    /// @dev The refund the last call earned (storage reset to its value at the start of the transaction); the
    /// chain grants it at the end of the transaction, capped at a fifth of the transaction's gas.
    function _lastRefund() internal view returns (uint256) {
        int64 refunded = gasVm.lastCallGas().gasRefunded;
        return refunded > 0 ? uint256(uint64(refunded)) : 0;
    }

    /// @dev What `data` costs as transaction calldata: 4 gas a zero byte, 16 a non-zero byte.
    function _calldataGas(bytes memory data) internal pure returns (uint256 cost) {
        for (uint256 i; i < data.length; ++i) {
            cost += data[i] == 0 ? 4 : 16;
        }
    }
}
