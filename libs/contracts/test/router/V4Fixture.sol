// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ConcentratedFixture} from "./ConcentratedFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IV4PoolManager} from "../../src/sources/v4/interfaces/IV4PoolManager.sol";
import {IV4PoolManagerAdmin, V4PositionMinter} from "../../src/devnet/V4PositionMinter.sol";
import {DynamicFeeHook, InputFeeHook, SwapLimitHook} from "../../src/devnet/V4Hooks.sol";

/// @dev V4Quoter (the real contract, npm uniswap/v4-periphery): quotes by running the swap and reverting.
interface IV4Quoter {
    struct QuoteExactSingleParams {
        IV4PoolManager.PoolKey poolKey;
        bool zeroForOne;
        uint128 exactAmount;
        bytes hookData;
    }

    function quoteExactInputSingle(QuoteExactSingleParams memory params)
        external
        returns (uint256 amountOut, uint256 gasEstimate);
}

/// @notice The concentrated fixture plus Uniswap V4 on its audited bytecode (npm uniswap/v4-core's PoolManager,
/// uniswap/v4-periphery's V4Quoter as the reference), registered in router slot 8. Pools priced like the fixture's
/// (1 A = 2 B = 2 C, 1 WHYPE = 100 A), each seeded with narrow, wide and one-sided positions so swaps cross ticks:
/// hookless A/B at 0.3% (spacing 60) and 0.05% (spacing 10), native/A at 0.3% (the native coin as a currency), and
/// pools with the devnet's hooks: a dynamic-fee A/B pool (DynamicFeeHook, 0.25% at first), an A/B pool whose hook
/// takes 0.1% of each input (InputFeeHook) and a B/C pool whose hook refuses swaps above 100 B (SwapLimitHook). The
/// hooks' code sits at addresses carrying their permission flags.
abstract contract V4Fixture is ConcentratedFixture {
    uint8 internal constant V4 = 8;
    uint24 internal constant DYNAMIC_FEE = 0x800000;
    uint128 internal constant V4_LIQUIDITY = 1e23;

    string internal constant POOL_MANAGER_ARTIFACT =
        "../../node_modules/@uniswap/v4-core/out/PoolManager.sol/PoolManager.json";
    string internal constant V4_QUOTER_ARTIFACT =
        "../../node_modules/@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json";

    IV4PoolManagerAdmin internal manager;
    IV4Quoter internal v4Quoter;
    V4PositionMinter internal v4Minter;
    DynamicFeeHook internal dynamicFeeHook;
    InputFeeHook internal inputFeeHook;
    SwapLimitHook internal swapLimitHook;

    IV4PoolManager.PoolKey internal keyAB;
    IV4PoolManager.PoolKey internal keyAB500;
    IV4PoolManager.PoolKey internal keyNativeA;
    IV4PoolManager.PoolKey internal keyDynamic;
    IV4PoolManager.PoolKey internal keyInputFee;
    IV4PoolManager.PoolKey internal keyLimitBC;

    function setUp() public virtual override {
        super.setUp();
        manager = IV4PoolManagerAdmin(_deploy(_foundryArtifactCode(POOL_MANAGER_ARTIFACT), abi.encode(owner)));
        v4Quoter = IV4Quoter(_deploy(_foundryArtifactCode(V4_QUOTER_ARTIFACT), abi.encode(address(manager))));
        v4Minter = new V4PositionMinter(manager);
        vm.label(address(manager), "PoolManager (v4-core)");
        vm.label(address(v4Quoter), "V4Quoter (v4-periphery)");

        dynamicFeeHook = DynamicFeeHook(_placeHook(address(new DynamicFeeHook(manager, owner, 2500)), 1 << 12, "dyn"));
        inputFeeHook =
            InputFeeHook(_placeHook(address(new InputFeeHook(manager, treasury, 1000)), (1 << 7) | (1 << 3), "fee"));
        swapLimitHook =
            SwapLimitHook(_placeHook(address(new SwapLimitHook(manager, owner, 100 ether)), 1 << 7, "limit"));

        keyAB = _v4Key(address(tokenA), address(tokenB), FEE_MEDIUM, 60, address(0));
        keyAB500 = _v4Key(address(tokenA), address(tokenB), FEE_LOW, 10, address(0));
        keyNativeA = _v4Key(address(0), address(tokenA), FEE_MEDIUM, 60, address(0));
        keyDynamic = _v4Key(address(tokenA), address(tokenB), DYNAMIC_FEE, 60, address(dynamicFeeHook));
        keyInputFee = _v4Key(address(tokenA), address(tokenB), FEE_MEDIUM, 60, address(inputFeeHook));
        keyLimitBC = _v4Key(address(tokenB), address(tokenC), FEE_MEDIUM, 60, address(swapLimitHook));

        _v4Pool(keyAB, address(tokenA), 2, 1, V4_LIQUIDITY);
        _v4Pool(keyAB500, address(tokenA), 2, 1, V4_LIQUIDITY);
        _v4Pool(keyNativeA, address(0), 100, 1, V4_LIQUIDITY / 10);
        _v4Pool(keyDynamic, address(tokenA), 2, 1, V4_LIQUIDITY);
        _v4Pool(keyInputFee, address(tokenA), 2, 1, V4_LIQUIDITY);
        _v4Pool(keyLimitBC, address(tokenB), 1, 1, V4_LIQUIDITY);

        vm.prank(owner);
        router.setSource(V4, IRouterV2.SourceKind.UniswapV4, address(manager), 0);
    }

    // ---------------------------------------------------------------- deployment

    /// @dev The creation bytecode in a Foundry artifact (`bytecode.object`).
    function _foundryArtifactCode(string memory path) internal view returns (bytes memory) {
        return vm.parseBytes(vm.parseJsonString(vm.readFile(path), ".bytecode.object"));
    }

    /// @dev Places a hook's runtime code (immutables included) at an address whose low 14 bits are `flags`.
    function _placeHook(address deployed, uint160 flags, string memory name) internal returns (address hook) {
        hook = address((uint160(uint256(keccak256(bytes(name)))) & ~uint160(0x3fff)) | flags);
        vm.etch(hook, deployed.code);
        vm.label(hook, name);
    }

    /// @dev The key of a pool of `a` and `b` (sorted; address(0) is the native coin).
    function _v4Key(address a, address b, uint24 fee, int24 tickSpacing, address hooks)
        internal
        pure
        returns (IV4PoolManager.PoolKey memory)
    {
        (address c0, address c1) = a < b ? (a, b) : (b, a);
        return IV4PoolManager.PoolKey({currency0: c0, currency1: c1, fee: fee, tickSpacing: tickSpacing, hooks: hooks});
    }

    /// @dev Initializes a V4 pool at `priceA / priceB` units of the other currency per unit of `a` and seeds it with
    /// narrow [c - 2s, c + 2s] (2L), wide [c - 200s, c + 200s] (L) and one-sided [c + 4s, c + 40s], [c - 40s, c - 4s]
    /// (L/2 each) positions around its tick.
    function _v4Pool(IV4PoolManager.PoolKey memory key, address a, uint256 priceA, uint256 priceB, uint128 liquidity)
        internal
    {
        (uint256 num, uint256 den) = key.currency0 == a ? (priceA, priceB) : (priceB, priceA);
        int24 tick = manager.initialize(key, uint160(Math.sqrt(Math.mulDiv(num, uint256(1) << 192, den))));
        int24 s = key.tickSpacing;
        // forge-lint: disable-next-line(divide-before-multiply)
        int24 c = (tick / s) * s - (tick < 0 && tick % s != 0 ? s : int24(0));
        V4PositionMinter.Position[] memory positions = new V4PositionMinter.Position[](4);
        positions[0] = V4PositionMinter.Position(c - 2 * s, c + 2 * s, 2 * liquidity);
        positions[1] = V4PositionMinter.Position(c - 200 * s, c + 200 * s, liquidity);
        positions[2] = V4PositionMinter.Position(c + 4 * s, c + 40 * s, liquidity / 2);
        positions[3] = V4PositionMinter.Position(c - 40 * s, c - 4 * s, liquidity / 2);
        uint256 value;
        if (key.currency0 == address(0)) {
            value = 1_000_000 ether;
            vm.deal(address(this), address(this).balance + value);
        } else {
            _fund(key.currency0, address(this), 10_000_000 ether);
            IERC20(key.currency0).approve(address(v4Minter), type(uint256).max);
        }
        _fund(key.currency1, address(this), 10_000_000 ether);
        IERC20(key.currency1).approve(address(v4Minter), type(uint256).max);
        v4Minter.addPositions{value: value}(key, 0, positions);
    }

    // ---------------------------------------------------------------- routes and references

    /// @dev A V4 swap of a route: the PoolManager as the pool, the key as data (the wrapped native token for the
    /// native coin on the route's side).
    function _v4Swap(IV4PoolManager.PoolKey memory key, address tokenIn, address tokenOut, uint256 quotedIn)
        internal
        pure
        returns (IRouterV2.Swap memory swap_)
    {
        swap_ = IRouterV2.Swap({
            pool: address(0), tokenIn: tokenIn, tokenOut: tokenOut, routerIndex: V4, amountIn: quotedIn, data: ""
        });
        swap_.data = abi.encode(key);
    }

    /// @dev `_v4Swap` on the fixture's manager.
    function _v4(IV4PoolManager.PoolKey memory key, address tokenIn, address tokenOut, uint256 quotedIn)
        internal
        view
        returns (IRouterV2.Swap memory swap_)
    {
        swap_ = _v4Swap(key, tokenIn, tokenOut, quotedIn);
        swap_.pool = address(manager);
    }

    /// @dev V4Quoter's output for an exact input of `tokenIn` (the wrapped native token names the native coin).
    function _quoteV4(IV4PoolManager.PoolKey memory key, address tokenIn, uint256 amountIn)
        internal
        returns (uint256 amountOut)
    {
        address currencyIn = tokenIn == address(wnative) && key.currency0 == address(0) ? address(0) : tokenIn;
        (amountOut,) = v4Quoter.quoteExactInputSingle(
            IV4Quoter.QuoteExactSingleParams({
                poolKey: key, zeroForOne: currencyIn == key.currency0, exactAmount: uint128(amountIn), hookData: ""
            })
        );
    }
}
