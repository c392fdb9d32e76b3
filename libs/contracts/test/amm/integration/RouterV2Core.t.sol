// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AmmFixture} from "../fixtures/AmmFixture.sol";
import {AmmPool} from "../../../src/amm/AmmPool.sol";
import {RouterV2} from "../../../src/router/RouterV2.sol";
import {IRouterV2} from "../../../src/router/interfaces/IRouterV2.sol";
import {WrappedNative} from "../../../src/WrappedNative.sol";
import {TestERC20} from "../../../src/TestERC20.sol";

/// @notice RouterV2's `core` kind: routes through oracle-priced AMM pools vouched for by the AMM router.
contract RouterV2CoreTest is AmmFixture {
    uint8 internal constant CORE = 0;

    RouterV2 internal aggregator;
    address internal integrator;

    function setUp() public override {
        super.setUp();
        integrator = makeAddr("integrator");
        WrappedNative wrapped = new WrappedNative("Wrapped HYPE", "WHYPE");
        aggregator = new RouterV2(owner, address(wrapped), treasury);
        vm.prank(owner);
        aggregator.setSource(CORE, IRouterV2.SourceKind.Core, address(router), 0);
        vm.startPrank(alice);
        usdc.approve(address(aggregator), type(uint256).max);
        whype.approve(address(aggregator), type(uint256).max);
        vm.stopPrank();
    }

    function _route(address pool_, TestERC20 tokenIn, TestERC20 tokenOut, uint256 amountIn, bytes memory data)
        internal
        pure
        returns (address[] memory tokens, IRouterV2.Swap[][] memory hops)
    {
        tokens = new address[](2);
        tokens[0] = address(tokenIn);
        tokens[1] = address(tokenOut);
        hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = IRouterV2.Swap({
            pool: pool_,
            tokenIn: address(tokenIn),
            tokenOut: address(tokenOut),
            routerIndex: CORE,
            amountIn: amountIn,
            data: data
        });
    }

    function test_coreHop_paysThePoolsEstimate_andLeavesNothingBehind() public {
        uint256 amountIn = 10_000e6;
        uint256 quoted = pool.estimateSwap(address(usdc), address(whype), amountIn);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) = _route(address(pool), usdc, whype, amountIn, "");
        uint256 before = whype.balanceOf(alice);

        vm.prank(alice);
        uint256 out = aggregator.executeSwaps(tokens, amountIn, quoted, quoted, hops, 0, address(0));

        assertEq(out, quoted);
        assertEq(whype.balanceOf(alice) - before, quoted);
        assertEq(usdc.balanceOf(address(aggregator)), 0);
        assertEq(whype.balanceOf(address(aggregator)), 0);
        assertEq(usdc.allowance(address(aggregator), address(pool)), 0);
    }

    function test_coreHop_passesTheReferralCode() public {
        uint256 amountIn = 50_000e6;
        (uint256 before0, uint256 before1) = pool.getRefClaimable(REF);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(pool), usdc, whype, amountIn, abi.encode(REF));

        vm.prank(alice);
        aggregator.executeSwaps(tokens, amountIn, 0, 0, hops, 0, address(0));

        (uint256 after0, uint256 after1) = pool.getRefClaimable(REF);
        (uint256 gainedUsdc, uint256 gainedWhype) =
            address(usdc) == pool.token0() ? (after0 - before0, after1 - before1) : (after1 - before1, after0 - before0);
        assertGt(gainedUsdc, 0);
        assertEq(gainedWhype, 0);
    }

    function test_coreHop_takesTheIntegratorFeeAsPreviewed() public {
        uint256 amountIn = 10_000e6;
        uint256 gross = pool.estimateSwap(address(usdc), address(whype), amountIn);
        (uint256 userAmount, uint256 integratorFee, uint256 protocolFee,,) =
            aggregator.previewFees(gross, gross, 100, true);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) = _route(address(pool), usdc, whype, amountIn, "");

        vm.prank(alice);
        uint256 out = aggregator.executeSwaps(tokens, amountIn, userAmount, gross, hops, 100, integrator);

        assertEq(out, userAmount);
        assertEq(whype.balanceOf(integrator), integratorFee);
        assertEq(whype.balanceOf(treasury), protocolFee);
        assertEq(whype.balanceOf(address(aggregator)), 0);
    }

    function test_revert_coreHop_poolNotVouchedByTheAmmRouter() public {
        AmmPool stray = new AmmPool(
            address(whype), address(usdc), address(oracle), address(registry), _defaultParams(), MAX_PRICE_AGE, owner
        );
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) = _route(address(stray), usdc, whype, 1e6, "");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, CORE, address(stray)));
        aggregator.executeSwaps(tokens, 1e6, 0, 0, hops, 0, address(0));
    }

    function test_revert_coreHop_dataThatIsNotAReferralCode() public {
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(pool), usdc, whype, 1e6, abi.encodeWithSignature("transfer(address,uint256)", alice, 1));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, address(pool)));
        aggregator.executeSwaps(tokens, 1e6, 0, 0, hops, 0, address(0));
    }

    function test_revert_coreHop_stalePriceBlocksTheRoute() public {
        vm.warp(block.timestamp + MAX_PRICE_AGE + 1);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) = _route(address(pool), usdc, whype, 1e6, "");
        uint256 before = usdc.balanceOf(alice);
        vm.prank(alice);
        vm.expectRevert();
        aggregator.executeSwaps(tokens, 1e6, 0, 0, hops, 0, address(0));
        assertEq(usdc.balanceOf(alice), before);
    }

    function test_revert_coreHop_minAmountOutOnTheWholeRoute() public {
        uint256 amountIn = 1_000e6;
        uint256 quoted = pool.estimateSwap(address(usdc), address(whype), amountIn);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) = _route(address(pool), usdc, whype, amountIn, "");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, quoted, quoted + 1));
        aggregator.executeSwaps(tokens, amountIn, quoted + 1, 0, hops, 0, address(0));
    }

    function testFuzz_coreHop_equalsTheEstimate(uint256 amountIn, bool usdcIn) public {
        (TestERC20 tokenIn, TestERC20 tokenOut) = usdcIn ? (usdc, whype) : (whype, usdc);
        amountIn = usdcIn ? bound(amountIn, 1e6, 500_000e6) : bound(amountIn, 1e16, 20_000e18);
        uint256 quoted = pool.estimateSwap(address(tokenIn), address(tokenOut), amountIn);
        (address[] memory tokens, IRouterV2.Swap[][] memory hops) =
            _route(address(pool), tokenIn, tokenOut, amountIn, "");
        vm.prank(alice);
        uint256 out = aggregator.executeSwaps(tokens, amountIn, 0, 0, hops, 0, address(0));
        assertEq(out, quoted);
        assertEq(tokenIn.balanceOf(address(aggregator)), 0);
        assertEq(tokenOut.balanceOf(address(aggregator)), 0);
    }
}
