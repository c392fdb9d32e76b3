// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ConcentratedFixture, IAlgebraFactoryAdmin, IAlgebraPoolState} from "../router/ConcentratedFixture.sol";
import {PositionMinter} from "../../src/devnet/PositionMinter.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IUniswapV3Pool} from "../../src/sources/v3/interfaces/IUniswapV3Pool.sol";

/// @dev Algebra Integral's plugin calls the test makes: the pool's (administrator) and the plugin's.
interface IAlgebraPluginAdmin {
    function setPluginConfig(uint8 newConfig) external;
    function pluginsForPools(address pool) external view returns (address plugin);
    function setPluginFees(uint24 overrideFee, uint24 pluginFee) external;
}

/// @notice RouterV2's `UniswapV3` and `Algebra` kinds on the protocols' real bytecode: exact-input swaps across
/// several initialized ticks, equal to the wei to QuoterV2 (V3) and to the Algebra pool's own computation; splits
/// with a V2 pair in one hop, multi-hop routes mixing kinds, native in and out, fees and slippage capture, and the
/// router holding nothing after each call.
contract RouterV2ConcentratedTest is ConcentratedFixture {
    uint256 internal constant AMOUNT = 5_000 ether;

    function setUp() public override {
        super.setUp();
        _fundAndApprove(alice, address(tokenA), 1_000_000 ether);
        _fundAndApprove(alice, address(tokenB), 1_000_000 ether);
        _fundAndApprove(alice, address(tokenC), 1_000_000 ether);
        vm.deal(alice, 1_000 ether);
    }

    // ---------------------------------------------------------------- helpers

    function _v3Swap(address pool, address tokenIn, address tokenOut, uint256 quotedIn)
        internal
        pure
        returns (IRouterV2.Swap memory)
    {
        return _swap(pool, tokenIn, tokenOut, V3, quotedIn);
    }

    function _algebraSwap(address pool, address tokenIn, address tokenOut, uint256 quotedIn)
        internal
        pure
        returns (IRouterV2.Swap memory)
    {
        return _swap(pool, tokenIn, tokenOut, ALGEBRA, quotedIn);
    }

    function _execute(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        returns (uint256 out)
    {
        vm.prank(alice);
        out = router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0));
    }

    function _assertRouterEmpty() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), 0, "router holds A");
        assertEq(tokenB.balanceOf(r), 0, "router holds B");
        assertEq(tokenC.balanceOf(r), 0, "router holds C");
        assertEq(usdc.balanceOf(r), 0, "router holds USDC");
        assertEq(wnative.balanceOf(r), 0, "router holds WHYPE");
        assertEq(r.balance, 0, "router holds native coin");
    }

    function _tickDistance(int24 a, int24 b) internal pure returns (uint256) {
        // forge-lint: disable-next-line(unsafe-typecast)
        return a > b ? uint256(int256(a) - int256(b)) : uint256(int256(b) - int256(a));
    }

    // ---------------------------------------------------------------- registry

    function test_sourceKindsKeepTheirNumbers() public view {
        assertEq(uint8(IRouterV2.SourceKind.UniswapV2), 1);
        assertEq(uint8(IRouterV2.SourceKind.Stable), 2);
        assertEq(uint8(IRouterV2.SourceKind.Core), 3);
        assertEq(uint8(IRouterV2.SourceKind.Launchpad), 4);
        assertEq(uint8(IRouterV2.SourceKind.UniswapV3), 5);
        assertEq(uint8(IRouterV2.SourceKind.Algebra), 6);
        IRouterV2.Source memory v3 = router.getSource(V3);
        assertEq(uint8(v3.kind), uint8(IRouterV2.SourceKind.UniswapV3));
        assertEq(v3.factory, v3Factory);
        IRouterV2.Source memory algebra = router.getSource(ALGEBRA);
        assertEq(uint8(algebra.kind), uint8(IRouterV2.SourceKind.Algebra));
        assertEq(algebra.factory, algebraFactory);
    }

    // ---------------------------------------------------------------- single hop

    function test_v3SingleHopEqualsQuoterV2AcrossSeveralTicks() public {
        (uint256 quoted, uint32 crossed) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, AMOUNT);
        assertGe(crossed, 2, "the swap should cross several initialized ticks");
        uint256 bBefore = tokenB.balanceOf(alice);
        uint256 poolABefore = tokenA.balanceOf(v3AB);

        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), AMOUNT))
        );

        assertEq(out, quoted, "output differs from QuoterV2");
        assertEq(tokenB.balanceOf(alice) - bBefore, quoted, "alice did not receive the output");
        assertEq(tokenA.balanceOf(v3AB) - poolABefore, AMOUNT, "the pool was not paid exactly the input");
        _assertRouterEmpty();
    }

    function test_v3SingleHopOtherDirectionEqualsQuoterV2() public {
        uint256 amountIn = 2 * AMOUNT;
        (uint256 quoted, uint32 crossed) = _quoteV3(address(tokenB), address(tokenA), FEE_MEDIUM, amountIn);
        assertGe(crossed, 2, "the swap should cross several initialized ticks");
        uint256 out = _execute(
            _path(address(tokenB), address(tokenA)),
            amountIn,
            _hops(_v3Swap(v3AB, address(tokenB), address(tokenA), amountIn))
        );
        assertEq(out, quoted, "output differs from QuoterV2");
        _assertRouterEmpty();
    }

    function test_algebraSingleHopEqualsThePoolsOwnQuoteAcrossSeveralTicks() public {
        uint256 quoted = _quoteAlgebra(algebraAB, address(tokenA), AMOUNT);
        (, int24 tickBefore,,,,) = IAlgebraPoolState(algebraAB).globalState();
        uint256 bBefore = tokenB.balanceOf(alice);

        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_algebraSwap(algebraAB, address(tokenA), address(tokenB), AMOUNT))
        );

        (, int24 tickAfter,,,,) = IAlgebraPoolState(algebraAB).globalState();
        // The narrow position spans 4 tick spacings (60 each) around the price: leaving it crosses its ticks.
        assertGt(_tickDistance(tickBefore, tickAfter), 2 * 60, "the swap should leave the narrow range");
        assertEq(out, quoted, "output differs from the pool's own quote");
        assertEq(tokenB.balanceOf(alice) - bBefore, quoted, "alice did not receive the output");
        _assertRouterEmpty();
    }

    /// @notice An Algebra pool whose plugin overrides the fee and takes a plugin fee from the input, as dynamic-fee
    /// plugins do. The plugin is Algebra's own test plugin from the integral-core package (with its plugin factory):
    /// the production plugins ship in another package; what matters here is the pool's real handling of a plugin's
    /// fees, which the router must not second-guess.
    function test_algebraPoolWithAPluginThatOverridesTheFeeAndTakesAPluginFee() public {
        address pluginFactory = _deploy(
            _artifactCode(
                "../../node_modules/@cryptoalgebra/integral-core/artifacts/contracts/test/MockDefaultPluginFactory.sol/MockDefaultPluginFactory.json"
            ),
            ""
        );
        (bool ok,) = algebraFactory.call(abi.encodeWithSignature("setDefaultPluginFactory(address)", pluginFactory));
        assertTrue(ok, "setDefaultPluginFactory");
        address pool = _algebraPool(address(tokenA), address(tokenC), 2, 1, 1e23);
        assertEq(IAlgebraFactoryAdmin(algebraFactory).poolByPair(address(tokenA), address(tokenC)), pool);
        address plugin = IAlgebraPluginAdmin(pluginFactory).pluginsForPools(pool);
        // The factory's owner (this contract) turns the plugin's beforeSwap hook and dynamic fee on (1.2.10 refuses
        // a fee override without DYNAMIC_FEE).
        IAlgebraPluginAdmin(pool).setPluginConfig(1 | 128);
        uint256 baseQuote = _quoteAlgebra(pool, address(tokenA), AMOUNT);
        // 0.3% instead of the pool's 0.05%, plus a 0.2% plugin fee.
        IAlgebraPluginAdmin(plugin).setPluginFees(3000, 2000);
        uint256 quoted = _quoteAlgebra(pool, address(tokenA), AMOUNT);
        assertLt(quoted, baseQuote, "the plugin's fees should lower the output");

        uint256 poolABefore = tokenA.balanceOf(pool);
        uint256 out = _execute(
            _path(address(tokenA), address(tokenC)),
            AMOUNT,
            _hops(_algebraSwap(pool, address(tokenA), address(tokenC), AMOUNT))
        );
        assertEq(out, quoted, "output differs from the pool's own quote");
        assertEq(
            tokenA.balanceOf(pool) + tokenA.balanceOf(plugin) - poolABefore, AMOUNT, "the pool was not paid the input"
        );
        _assertRouterEmpty();
    }

    function test_algebraSingleHopOtherDirection() public {
        uint256 amountIn = 2 * AMOUNT;
        uint256 quoted = _quoteAlgebra(algebraAB, address(tokenB), amountIn);
        uint256 out = _execute(
            _path(address(tokenB), address(tokenA)),
            amountIn,
            _hops(_algebraSwap(algebraAB, address(tokenB), address(tokenA), amountIn))
        );
        assertEq(out, quoted, "output differs from the pool's own quote");
        _assertRouterEmpty();
    }

    function test_v3WithRecipientDeadlineFeeAndSlippageCapture() public {
        (uint256 quoted,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, AMOUNT);
        uint256 expected = quoted - quoted / 100;
        (uint256 userAmount, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlippage,) =
            _referenceSplit(quoted, expected, 30, true);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            userAmount,
            expected,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), AMOUNT)),
            30,
            integrator,
            bob,
            block.timestamp
        );
        assertEq(out, userAmount, "user amount");
        assertEq(tokenB.balanceOf(bob), userAmount, "bob's output");
        assertEq(tokenB.balanceOf(integrator), integratorFee + recipientSlippage, "integrator's share");
        assertEq(tokenB.balanceOf(treasury), protocolFee, "treasury's share");
        _assertRouterEmpty();
    }

    function test_algebraWithExpectedAmountGoesThroughTheRouterAndCapturesSlippage() public {
        uint256 quoted = _quoteAlgebra(algebraAB, address(tokenA), AMOUNT);
        uint256 expected = quoted - 1_000;
        (uint256 userAmount,, uint256 protocolFee,,) = _referenceSplit(quoted, expected, 0, false);
        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            0,
            expected,
            _hops(_algebraSwap(algebraAB, address(tokenA), address(tokenB), AMOUNT)),
            0,
            address(0)
        );
        assertEq(out, userAmount, "user amount");
        assertEq(tokenB.balanceOf(treasury), protocolFee, "captured slippage");
        _assertRouterEmpty();
    }

    function test_minAmountOutIsEnforcedOnAConcentratedOutput() public {
        (uint256 quoted,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, quoted, quoted + 1));
        vm.prank(alice);
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            quoted + 1,
            0,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), AMOUNT)),
            0,
            address(0)
        );
    }

    /// @notice A fork of a known kind is one more registry slot: a second V3 factory (another deployment of the same
    /// bytecode, so other pool addresses) under its own slot routes its pools, and each slot refuses the other's.
    function test_aSecondV3DeploymentIsAnotherSlot() public {
        uint8 fork = 8;
        address saved = v3Factory;
        v3Factory = _deploy(_artifactCode(V3_FACTORY_ARTIFACT), "");
        address forkPool = _v3Pool(address(tokenA), address(tokenB), FEE_LOW, 2, 1, 1e23);
        address forkFactory = v3Factory;
        v3Factory = saved;
        vm.prank(owner);
        router.setSource(fork, IRouterV2.SourceKind.UniswapV3, forkFactory, 0);

        (uint256 reference_,) = poolQuoter.quote(forkPool, address(tokenA), AMOUNT);
        uint256 out = _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(forkPool, address(tokenA), address(tokenB), fork, AMOUNT))
        );
        assertEq(out, reference_, "output differs from the pool's own quote");

        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, forkPool));
        _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_v3Swap(forkPool, address(tokenA), address(tokenB), AMOUNT))
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, fork, v3AB));
        _execute(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(v3AB, address(tokenA), address(tokenB), fork, AMOUNT))
        );
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- exact output

    /// @dev An exact-output route executes as the exact input its quote needs, with the wanted output as the
    /// minimum: it pays at least that, and at most a rounding above.
    function _assertPaysTheWantedOutput(uint256 out, uint256 wanted) internal pure {
        assertGe(out, wanted, "below the wanted output");
        assertLe(out - wanted, wanted / 1e12, "far above the wanted output");
    }

    function test_v3ExactOutputQuoteAcrossTicksPaysTheWantedOutput() public {
        uint256 wanted = 9_000 ether;
        (uint256 amountIn, uint32 crossed) = _quoteV3ExactOutput(address(tokenA), address(tokenB), FEE_MEDIUM, wanted);
        assertGe(crossed, 2, "the swap should cross several initialized ticks");
        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            amountIn,
            wanted,
            wanted,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), amountIn)),
            0,
            address(0)
        );
        _assertPaysTheWantedOutput(out, wanted);
        _assertRouterEmpty();
    }

    function test_algebraExactOutputQuoteAcrossTicksPaysTheWantedOutput() public {
        uint256 wanted = 9_000 ether;
        uint256 amountIn = poolQuoter.quoteExactOutput(algebraAB, address(tokenA), wanted);
        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            amountIn,
            wanted,
            wanted,
            _hops(_algebraSwap(algebraAB, address(tokenA), address(tokenB), amountIn)),
            0,
            address(0)
        );
        _assertPaysTheWantedOutput(out, wanted);
        _assertRouterEmpty();
    }

    function test_exactOutputRouteRevertsAfterAnotherTradeMovedThePool() public {
        uint256 wanted = 9_000 ether;
        (uint256 amountIn,) = _quoteV3ExactOutput(address(tokenA), address(tokenB), FEE_MEDIUM, wanted);
        // Someone sells A into the pool first, so the same input now buys less.
        _execute(
            _path(address(tokenA), address(tokenB)),
            1_000 ether,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), 1))
        );
        (uint256 nowOut,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, amountIn);
        assertLt(nowOut, wanted);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, nowOut, wanted));
        vm.prank(alice);
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            amountIn,
            wanted,
            wanted,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), amountIn)),
            0,
            address(0)
        );
    }

    // ---------------------------------------------------------------- splits and multi-hop

    function test_oneHopSplitAcrossV3AlgebraAndARealV2Pair() public {
        uint256 v3Share = 2_000 ether;
        uint256 algebraShare = 2_000 ether;
        uint256 v2Share = 1_000 ether;
        uint256 amountIn = v3Share + algebraShare + v2Share;
        (uint256 v3Out,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, v3Share);
        uint256 expected =
            v3Out + _quoteAlgebra(algebraAB, address(tokenA), algebraShare) + _quoteRealV2(address(tokenA), v2Share);

        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](3);
        hops[0][0] = _v3Swap(v3AB, address(tokenA), address(tokenB), v3Share);
        hops[0][1] = _algebraSwap(algebraAB, address(tokenA), address(tokenB), algebraShare);
        hops[0][2] = _swap(realPairAB, address(tokenA), address(tokenB), V2_REAL, v2Share);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), amountIn, hops);

        assertEq(out, expected, "split output differs from the pools' quotes");
        _assertRouterEmpty();
    }

    function test_multiHopMixingAlgebraV3AndV2() public {
        // A -(Algebra)-> B -(V3 0.05%)-> C -(V2)-> USDC
        uint256 b = _quoteAlgebra(algebraAB, address(tokenA), AMOUNT);
        (uint256 c,) = _quoteV3(address(tokenB), address(tokenC), FEE_LOW, b);
        uint256 expected = _v2Quote(pairCUsdc, address(tokenC), c, V2_A_FEE_BPS);

        address[] memory path = _path(address(tokenA), address(tokenB), address(tokenC), address(usdc));
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](3);
        hops[0] = _swaps(_algebraSwap(algebraAB, address(tokenA), address(tokenB), AMOUNT));
        hops[1] = _swaps(_v3Swap(v3BC, address(tokenB), address(tokenC), b));
        hops[2] = _swaps(_swap(pairCUsdc, address(tokenC), address(usdc), V2_A, c));
        uint256 out = _execute(path, AMOUNT, hops);

        assertEq(out, expected, "multi-hop output differs from the chained quotes");
        _assertRouterEmpty();
    }

    function test_secondHopSplitAcrossV3AndAlgebraPaidByTheRouter() public {
        // A -(V2)-> B, then B -> C split across V3 and Algebra.
        uint256 b = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        uint256 v3Share = (b * 3) / 5;
        (uint256 v3Out,) = _quoteV3(address(tokenB), address(tokenC), FEE_LOW, v3Share);
        uint256 expected = v3Out + _quoteAlgebra(algebraBC, address(tokenB), b - v3Share);

        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](2);
        hops[0] = _swaps(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT));
        hops[1] = _swaps(
            _v3Swap(v3BC, address(tokenB), address(tokenC), 3 ether),
            _algebraSwap(algebraBC, address(tokenB), address(tokenC), 2 ether)
        );
        uint256 out = _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, hops);

        assertEq(out, expected, "output differs from the pools' quotes");
        _assertRouterEmpty();
    }

    function test_routeSplitAcrossPathsWithConcentratedPools() public {
        // Stage 0 splits A -> B across V3 and Algebra; stage 1 sells all the B for C on Algebra.
        uint256 half = AMOUNT / 2;
        (uint256 viaV3,) = _quoteV3(address(tokenA), address(tokenB), FEE_MEDIUM, half);
        uint256 b = viaV3 + _quoteAlgebra(algebraAB, address(tokenA), AMOUNT - half);
        uint256 expected = _quoteAlgebra(algebraBC, address(tokenB), b);

        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](2);
        hops[0] = _swaps(
            _v3Swap(v3AB, address(tokenA), address(tokenB), half),
            _algebraSwap(algebraAB, address(tokenA), address(tokenB), half)
        );
        hops[1] = _swaps(_algebraSwap(algebraBC, address(tokenB), address(tokenC), b));
        uint256 out = _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, hops);

        assertEq(out, expected, "output differs from the pools' quotes");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- native coin

    function test_nativeInThroughV3() public {
        uint256 amountIn = 20 ether;
        (uint256 quoted,) = _quoteV3(address(wnative), address(tokenA), FEE_MEDIUM, amountIn);
        uint256 aBefore = tokenA.balanceOf(alice);
        vm.prank(alice);
        uint256 out = router.executeSwaps{value: amountIn}(
            _path(address(0), address(tokenA)),
            amountIn,
            0,
            0,
            _hops(_v3Swap(v3AW, address(wnative), address(tokenA), amountIn)),
            0,
            address(0)
        );
        assertEq(out, quoted, "output differs from QuoterV2");
        assertEq(tokenA.balanceOf(alice) - aBefore, quoted, "alice's output");
        _assertRouterEmpty();
    }

    function test_nativeOutThroughV3() public {
        uint256 amountIn = 2_000 ether;
        (uint256 quoted,) = _quoteV3(address(tokenA), address(wnative), FEE_MEDIUM, amountIn);
        uint256 nativeBefore = alice.balance;
        uint256 out = _execute(
            _path(address(tokenA), address(0)),
            amountIn,
            _hops(_v3Swap(v3AW, address(tokenA), address(wnative), amountIn))
        );
        assertEq(out, quoted, "output differs from QuoterV2");
        assertEq(alice.balance - nativeBefore, quoted, "alice's native output");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- refusals

    function test_dataIsNotAllowedForConcentratedKinds() public {
        IRouterV2.Swap memory s = _v3Swap(v3AB, address(tokenA), address(tokenB), AMOUNT);
        s.data = hex"01";
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, v3AB));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, _hops(s));

        s = _algebraSwap(algebraAB, address(tokenA), address(tokenB), AMOUNT);
        s.data = hex"01";
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, algebraAB));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, _hops(s));
    }

    function test_aPoolThatRunsOutOfLiquidityRevertsInsteadOfLeavingTheRest() public {
        // The positions end 200 tick spacings from the price; beyond them the pool has no liquidity to sell.
        uint256 amountIn = 900_000 ether;
        (, uint256 taken) = poolQuoter.quote(v3AB, address(tokenA), amountIn);
        assertLt(taken, amountIn, "the pool should take less than the input");
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapInputNotSpent.selector, v3AB, amountIn, taken));
        _execute(
            _path(address(tokenA), address(tokenB)),
            amountIn,
            _hops(_v3Swap(v3AB, address(tokenA), address(tokenB), amountIn))
        );
    }

    function test_zeroShareOfAConcentratedPoolIsValidatedNotTraded() public {
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](2);
        hops[0][0] = _v3Swap(v3AB, address(tokenA), address(tokenB), 0);
        hops[0][1] = _algebraSwap(algebraAB, address(tokenA), address(tokenB), AMOUNT);
        uint256 quoted = _quoteAlgebra(algebraAB, address(tokenA), AMOUNT);
        uint256 v3Before = tokenA.balanceOf(v3AB);
        uint256 out = _execute(_path(address(tokenA), address(tokenB)), AMOUNT, hops);
        assertEq(out, quoted, "all of the input goes to the Algebra pool");
        assertEq(tokenA.balanceOf(v3AB), v3Before, "the V3 pool traded nothing");

        // A zero share is still checked against the factory.
        hops[0][0] = _v3Swap(algebraAB, address(tokenA), address(tokenB), 0);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, algebraAB));
        _execute(_path(address(tokenA), address(tokenB)), AMOUNT, hops);
    }

    // ---------------------------------------------------------------- position minter

    function test_positionMinterAddsLiquidityInEveryRange() public {
        // Each pool holds all four positions: the current price sits in the narrow and wide ones.
        (bool ok, bytes memory liquidity) = v3AB.staticcall(abi.encodeWithSignature("liquidity()"));
        assertTrue(ok);
        assertEq(abi.decode(liquidity, (uint128)), 3e23, "active liquidity: narrow 2L + wide L");
        (ok, liquidity) = algebraAB.staticcall(abi.encodeWithSignature("liquidity()"));
        assertTrue(ok);
        assertEq(abi.decode(liquidity, (uint128)), 3e23, "active liquidity: narrow 2L + wide L");
        assertEq(tokenA.balanceOf(address(minter)), 0, "the minter keeps nothing");
        assertEq(tokenB.balanceOf(address(minter)), 0, "the minter keeps nothing");
    }

    function test_positionMinterCallbackPaysOnlyThePoolBeingMinted() public {
        vm.expectRevert(abi.encodeWithSelector(PositionMinter.NotActivePool.selector, address(this)));
        minter.uniswapV3MintCallback(1 ether, 1 ether, "");
        vm.expectRevert(abi.encodeWithSelector(PositionMinter.NotActivePool.selector, v3AB));
        vm.prank(v3AB);
        minter.algebraMintCallback(1 ether, 1 ether, "");
    }

    function test_positionMinterRejectsZeroLiquidity() public {
        vm.expectRevert(PositionMinter.ZeroLiquidity.selector);
        minter.mint(v3AB, address(this), -60, 60, 0);
    }
}
