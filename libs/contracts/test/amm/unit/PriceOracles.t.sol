// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Test} from "../../base/Test.sol";
import {PrecompileStub} from "../mocks/AmmMocks.sol";
import {SettablePriceOracle} from "../../../src/amm/oracles/SettablePriceOracle.sol";
import {HyperCorePriceOracle} from "../../../src/amm/oracles/HyperCorePriceOracle.sol";
import {IPriceOracle} from "../../../src/amm/interfaces/IPriceOracle.sol";
import {ISettablePriceOracle} from "../../../src/amm/interfaces/ISettablePriceOracle.sol";
import {IHyperCorePriceOracle} from "../../../src/amm/interfaces/IHyperCorePriceOracle.sol";
import {IAmmPool} from "../../../src/amm/interfaces/IAmmPool.sol";
import {AmmPool} from "../../../src/amm/AmmPool.sol";
import {RefCodeRegistry} from "../../../src/amm/RefCodeRegistry.sol";
import {TestERC20} from "../../../src/TestERC20.sol";

contract SettablePriceOracleTest is Test {
    SettablePriceOracle internal oracle;
    address internal owner;
    address internal keeper;
    address internal tokenA;
    address internal tokenB;

    function setUp() public {
        owner = makeAddr("owner");
        keeper = makeAddr("keeper");
        tokenA = makeAddr("tokenA");
        tokenB = makeAddr("tokenB");
        oracle = new SettablePriceOracle(owner);
        vm.warp(1_700_000_000);
    }

    function test_getPriceUsd_revertsWhenNeverSet() public {
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, tokenA));
        oracle.getPriceUsd(tokenA);
    }

    function test_setPrice_byOwner_storesWithTheBlockTime() public {
        vm.expectEmit(address(oracle));
        emit ISettablePriceOracle.PriceSet(tokenA, 25e18, block.timestamp);
        vm.prank(owner);
        oracle.setPrice(tokenA, 25e18);
        (uint256 price, uint256 updatedAt) = oracle.getPriceUsd(tokenA);
        assertEq(price, 25e18);
        assertEq(updatedAt, block.timestamp);
    }

    function test_setPrice_zeroReadsAsZero() public {
        vm.startPrank(owner);
        oracle.setPrice(tokenA, 25e18);
        oracle.setPrice(tokenA, 0);
        vm.stopPrank();
        (uint256 price,) = oracle.getPriceUsd(tokenA);
        assertEq(price, 0);
    }

    function test_setUpdater_allowsAndDisallows() public {
        vm.expectEmit(address(oracle));
        emit ISettablePriceOracle.UpdaterSet(keeper, true);
        vm.prank(owner);
        oracle.setUpdater(keeper, true);
        assertTrue(oracle.isUpdater(keeper));
        vm.prank(keeper);
        oracle.setPrice(tokenA, 1e18);

        vm.prank(owner);
        oracle.setUpdater(keeper, false);
        vm.prank(keeper);
        vm.expectRevert(abi.encodeWithSelector(ISettablePriceOracle.UnauthorizedUpdater.selector, keeper));
        oracle.setPrice(tokenA, 2e18);
    }

    function test_onlyOwnerOrUpdater() public {
        vm.startPrank(keeper);
        vm.expectRevert(abi.encodeWithSelector(ISettablePriceOracle.UnauthorizedUpdater.selector, keeper));
        oracle.setPrice(tokenA, 1e18);
        vm.expectRevert(abi.encodeWithSelector(ISettablePriceOracle.UnauthorizedUpdater.selector, keeper));
        oracle.setPrices(new address[](0), new uint256[](0));
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, keeper));
        oracle.setUpdater(keeper, true);
        vm.stopPrank();
    }

    function test_setPrices_setsAllAndEmitsEach() public {
        address[] memory tokens = new address[](2);
        tokens[0] = tokenA;
        tokens[1] = tokenB;
        uint256[] memory prices = new uint256[](2);
        prices[0] = 25e18;
        prices[1] = 1e18;
        vm.expectEmit(address(oracle));
        emit ISettablePriceOracle.PriceSet(tokenA, 25e18, block.timestamp);
        vm.expectEmit(address(oracle));
        emit ISettablePriceOracle.PriceSet(tokenB, 1e18, block.timestamp);
        vm.prank(owner);
        oracle.setPrices(tokens, prices);
        (uint256 price,) = oracle.getPriceUsd(tokenB);
        assertEq(price, 1e18);
    }

    function test_setPrices_rejectsLengthMismatch() public {
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(ISettablePriceOracle.LengthMismatch.selector, 1, 2));
        oracle.setPrices(new address[](1), new uint256[](2));
    }
}

contract HyperCorePriceOracleTest is Test {
    address internal constant ORACLE_PX = 0x0000000000000000000000000000000000000807;
    address internal constant SPOT_PX = 0x0000000000000000000000000000000000000808;

    HyperCorePriceOracle internal oracle;
    address internal owner;
    address internal hype;
    address internal btc;
    address internal usdc;

    function setUp() public {
        owner = makeAddr("owner");
        hype = makeAddr("hype");
        btc = makeAddr("btc");
        usdc = makeAddr("usdc");
        oracle = new HyperCorePriceOracle(owner);
        bytes memory stub = address(new PrecompileStub()).code;
        vm.etch(ORACLE_PX, stub);
        vm.etch(SPOT_PX, stub);
        vm.warp(1_700_000_000);
    }

    function _config(IHyperCorePriceOracle.PriceSource source, uint32 index, uint8 decimals, uint128 fixedPrice)
        internal
        pure
        returns (IHyperCorePriceOracle.TokenConfig memory)
    {
        return IHyperCorePriceOracle.TokenConfig({
            source: source, index: index, priceDecimals: decimals, fixedPriceE18: fixedPrice
        });
    }

    function test_constants() public view {
        assertEq(oracle.ORACLE_PX_PRECOMPILE(), ORACLE_PX);
        assertEq(oracle.SPOT_PX_PRECOMPILE(), SPOT_PX);
        assertEq(oracle.owner(), owner);
    }

    function test_perpOracle_scalesByPriceDecimals() public {
        // HYPE perp: szDecimals 2 -> 6 - 2 = 4 price decimals; raw 253_456 = $25.3456.
        PrecompileStub(ORACLE_PX).setPrice(159, 253_456);
        vm.prank(owner);
        oracle.setTokenConfig(hype, _config(IHyperCorePriceOracle.PriceSource.PerpOracle, 159, 4, 0));
        (uint256 price, uint256 updatedAt) = oracle.getPriceUsd(hype);
        assertEq(price, 25.3456e18);
        assertEq(updatedAt, block.timestamp);
    }

    function test_spot_readsTheSpotPrecompile() public {
        // A spot pair with szDecimals 5 -> 8 - 5 = 3 decimals; raw 97_123_456 = $97,123.456.
        PrecompileStub(SPOT_PX).setPrice(140, 97_123_456);
        PrecompileStub(ORACLE_PX).setPrice(140, 1); // a different value on the other precompile
        vm.prank(owner);
        oracle.setTokenConfig(btc, _config(IHyperCorePriceOracle.PriceSource.Spot, 140, 3, 0));
        (uint256 price,) = oracle.getPriceUsd(btc);
        assertEq(price, 97_123.456e18);
    }

    function test_fixedUsd_needsNoPrecompile() public {
        vm.prank(owner);
        oracle.setTokenConfig(usdc, _config(IHyperCorePriceOracle.PriceSource.FixedUsd, 0, 0, 1e18));
        (uint256 price, uint256 updatedAt) = oracle.getPriceUsd(usdc);
        assertEq(price, 1e18);
        assertEq(updatedAt, block.timestamp);
    }

    function test_updatedAt_isAlwaysNow() public {
        PrecompileStub(ORACLE_PX).setPrice(1, 10_000);
        vm.prank(owner);
        oracle.setTokenConfig(hype, _config(IHyperCorePriceOracle.PriceSource.PerpOracle, 1, 4, 0));
        vm.warp(block.timestamp + 30 days);
        (, uint256 updatedAt) = oracle.getPriceUsd(hype);
        assertEq(updatedAt, block.timestamp);
    }

    function test_unavailable_unconfiguredZeroOrFailing() public {
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, hype));
        oracle.getPriceUsd(hype);

        vm.prank(owner);
        oracle.setTokenConfig(hype, _config(IHyperCorePriceOracle.PriceSource.PerpOracle, 7, 4, 0));
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, hype));
        oracle.getPriceUsd(hype); // zero price

        PrecompileStub(ORACLE_PX).setPrice(7, 10_000);
        PrecompileStub(ORACLE_PX).setFailing(true);
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, hype));
        oracle.getPriceUsd(hype); // failing call

        PrecompileStub(ORACLE_PX).setFailing(false);
        (uint256 price,) = oracle.getPriceUsd(hype);
        assertEq(price, 1e18);
    }

    function test_unavailable_withoutAPrecompile() public {
        vm.etch(SPOT_PX, "");
        vm.prank(owner);
        oracle.setTokenConfig(btc, _config(IHyperCorePriceOracle.PriceSource.Spot, 1, 3, 0));
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, btc));
        oracle.getPriceUsd(btc);
    }

    function test_setTokenConfig_emitsValidatesAndRemoves() public {
        IHyperCorePriceOracle.TokenConfig memory config =
            _config(IHyperCorePriceOracle.PriceSource.PerpOracle, 159, 4, 0);
        vm.expectEmit(address(oracle));
        emit IHyperCorePriceOracle.TokenConfigSet(hype, IHyperCorePriceOracle.PriceSource.PerpOracle, 159, 4, 0);
        vm.prank(owner);
        oracle.setTokenConfig(hype, config);
        IHyperCorePriceOracle.TokenConfig memory stored = oracle.tokenConfig(hype);
        assertEq(uint256(stored.index), 159);
        assertEq(uint256(stored.priceDecimals), 4);
        assertTrue(stored.source == IHyperCorePriceOracle.PriceSource.PerpOracle);

        vm.startPrank(owner);
        vm.expectRevert(IHyperCorePriceOracle.InvalidTokenConfig.selector);
        oracle.setTokenConfig(hype, _config(IHyperCorePriceOracle.PriceSource.Spot, 1, 19, 0));
        vm.expectRevert(IHyperCorePriceOracle.InvalidTokenConfig.selector);
        oracle.setTokenConfig(usdc, _config(IHyperCorePriceOracle.PriceSource.FixedUsd, 0, 0, 0));
        oracle.setTokenConfig(hype, _config(IHyperCorePriceOracle.PriceSource.None, 0, 0, 0));
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(IPriceOracle.PriceUnavailable.selector, hype));
        oracle.getPriceUsd(hype);

        vm.prank(hype);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, hype));
        oracle.setTokenConfig(hype, config);
    }
}

/// @notice A pool priced by HyperCore: HYPE from the perp oracle precompile, USDC at a fixed $1.
contract HyperCorePricedPoolTest is Test {
    address internal constant ORACLE_PX = 0x0000000000000000000000000000000000000807;

    function test_poolSwapsAtThePrecompilePrice_andStopsWhenItFails() public {
        address owner = makeAddr("owner");
        address alice = makeAddr("alice");
        vm.etch(ORACLE_PX, address(new PrecompileStub()).code);
        PrecompileStub(ORACLE_PX).setPrice(159, 250_000); // $25.0000 with 4 decimals

        TestERC20 whype = new TestERC20("Wrapped HYPE", "WHYPE", 18);
        TestERC20 usdc = new TestERC20("USD Coin", "USDC", 6);
        HyperCorePriceOracle oracle = new HyperCorePriceOracle(owner);
        RefCodeRegistry registry = new RefCodeRegistry(owner, 1 days);
        vm.startPrank(owner);
        oracle.setTokenConfig(
            address(whype),
            IHyperCorePriceOracle.TokenConfig({
                source: IHyperCorePriceOracle.PriceSource.PerpOracle, index: 159, priceDecimals: 4, fixedPriceE18: 0
            })
        );
        oracle.setTokenConfig(
            address(usdc),
            IHyperCorePriceOracle.TokenConfig({
                source: IHyperCorePriceOracle.PriceSource.FixedUsd, index: 0, priceDecimals: 0, fixedPriceE18: 1e18
            })
        );
        vm.stopPrank();
        IAmmPool.FeeParams memory params = IAmmPool.FeeParams({
            minFeeBps: 5,
            baseFeeBps: 30,
            maxFeeBps: 100,
            slopeBps: 200,
            protocolShareBps: 2_000,
            refShareBps: 3_000,
            targetWeight0: 0.5e18
        });
        AmmPool pool = new AmmPool(address(whype), address(usdc), address(oracle), address(registry), params, 60, owner);
        whype.mint(owner, 40_000e18);
        usdc.mint(owner, 1_000_000e6);
        vm.startPrank(owner);
        whype.approve(address(pool), type(uint256).max);
        usdc.approve(address(pool), type(uint256).max);
        (uint256 a0, uint256 a1) = address(whype) < address(usdc)
            ? (uint256(40_000e18), uint256(1_000_000e6))
            : (uint256(1_000_000e6), uint256(40_000e18));
        pool.addLiquidity(a0, a1);
        vm.stopPrank();

        usdc.mint(alice, 10_000e6);
        vm.startPrank(alice);
        usdc.approve(address(pool), type(uint256).max);
        uint256 out = pool.swap(address(usdc), address(whype), 10_000e6, 0);
        assertEq(out, 398.78e18, "priced at $25 with a 30.5 bps fee");

        // Hours later the price is still fresh: the precompile reflects the current HyperCore state.
        vm.warp(block.timestamp + 3 hours);
        assertGt(pool.estimateSwap(address(usdc), address(whype), 1e6), 0);

        PrecompileStub(ORACLE_PX).setFailing(true);
        vm.expectRevert(abi.encodeWithSelector(IAmmPool.PriceUnavailable.selector, address(whype)));
        pool.estimateSwap(address(usdc), address(whype), 1e6);
        vm.stopPrank();
    }
}
