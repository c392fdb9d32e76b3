// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SplitRouteFixture} from "./SplitRouteFixture.sol";
import {PositionMinter} from "../../src/devnet/PositionMinter.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IUniswapV3Pool} from "../../src/sources/v3/interfaces/IUniswapV3Pool.sol";
import {IUniswapV2Factory} from "../../src/sources/v2/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "../../src/sources/v2/interfaces/IUniswapV2Pair.sol";

/// @dev The Uniswap V3 factory's calls the fixture makes (the real contract, npm uniswap/v3-core).
interface IV3FactoryAdmin {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address pool);
    function enableFeeAmount(uint24 fee, int24 tickSpacing) external;
    function feeAmountTickSpacing(uint24 fee) external view returns (int24);
}

/// @dev The pool calls the fixture makes beyond RouterV2's interface (V3 and Algebra pools share them).
interface IConcentratedPoolAdmin {
    function initialize(uint160 sqrtPriceX96) external;
    function tickSpacing() external view returns (int24);
}

/// @dev The Algebra Integral factory's calls the fixture makes (the real contract, npm cryptoalgebra/integral-core).
interface IAlgebraFactoryAdmin {
    function createPool(address tokenA, address tokenB, bytes calldata data) external returns (address pool);
    function poolByPair(address tokenA, address tokenB) external view returns (address pool);
    function poolDeployer() external view returns (address);
    function defaultFee() external view returns (uint16);
}

/// @dev An Algebra pool's state read by the tests.
interface IAlgebraPoolState {
    function globalState()
        external
        view
        returns (uint160 price, int24 tick, uint16 lastFee, uint8 pluginConfig, uint16 communityFee, bool unlocked);
}

/// @dev Uniswap's QuoterV2 (the real contract, npm uniswap/v3-periphery).
interface IQuoterV2 {
    struct QuoteExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }

    struct QuoteExactOutputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amount;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }

    function quoteExactInputSingle(QuoteExactInputSingleParams memory params)
        external
        returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate);

    function quoteExactOutputSingle(QuoteExactOutputSingleParams memory params)
        external
        returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate);
}

/// @notice Quotes an exact-input swap on any V3-style pool (Uniswap V3 or Algebra Integral) with the pool's own
/// code: it starts the swap and reverts from the swap callback with the amounts the pool computed (QuoterV2's
/// method), so nothing changes; both pools' `swap` and callback have the same shape. Used as the reference for
/// Algebra pools, which have no QuoterV2 in the core package.
contract RevertingQuoter {
    /// @notice Carries the pool's answer out of the reverted swap.
    error Quoted(int256 amount0, int256 amount1);

    /// @notice The output of selling `amountIn` of `tokenIn` on `pool`, as the pool computes it, and the input it
    /// would take.
    function quote(address pool, address tokenIn, uint256 amountIn)
        external
        returns (uint256 amountOut, uint256 amountTaken)
    {
        // Amounts in tests are far below 2**255.
        // forge-lint: disable-next-line(unsafe-typecast)
        return _quote(pool, tokenIn, int256(amountIn));
    }

    /// @notice The input of `tokenIn` that buys exactly `amountOut` on `pool`, as the pool computes it.
    function quoteExactOutput(address pool, address tokenIn, uint256 amountOut) external returns (uint256 amountIn) {
        uint256 paid;
        // Amounts in tests are far below 2**255.
        // forge-lint: disable-next-line(unsafe-typecast)
        (paid, amountIn) = _quote(pool, tokenIn, -int256(amountOut));
        require(paid == amountOut, "the pool cannot pay that much");
    }

    function _quote(address pool, address tokenIn, int256 amountSpecified)
        internal
        returns (uint256 amountOut, uint256 amountTaken)
    {
        bool zeroForOne = tokenIn == IUniswapV3Pool(pool).token0();
        uint160 limit = zeroForOne ? 4295128739 + 1 : 1461446703485210103287273052203988822378723970342 - 1;
        // Both pools' swap has this signature.
        bytes memory call_ =
            abi.encodeCall(IUniswapV3Pool.swap, (address(this), zeroForOne, amountSpecified, limit, ""));
        (bool success, bytes memory returned) = pool.call(call_);
        // forge-lint: disable-next-line(unsafe-typecast)
        require(!success && returned.length == 68 && bytes4(returned) == Quoted.selector, "not a quote");
        int256 amount0;
        int256 amount1;
        assembly ("memory-safe") {
            amount0 := mload(add(returned, 36))
            amount1 := mload(add(returned, 68))
        }
        (int256 taken, int256 out) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        // forge-lint: disable-next-line(unsafe-typecast)
        amountOut = uint256(-out);
        // forge-lint: disable-next-line(unsafe-typecast)
        amountTaken = uint256(taken);
    }

    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external pure {
        revert Quoted(amount0, amount1);
    }

    function algebraSwapCallback(int256 amount0, int256 amount1, bytes calldata) external pure {
        revert Quoted(amount0, amount1);
    }
}

/// @notice The router fixture plus concentrated liquidity on the protocols' audited bytecode, deployed from their
/// npm packages' artifacts: a Uniswap V3 factory (npm uniswap/v3-core) with QuoterV2 (uniswap/v3-periphery), an
/// Algebra Integral factory and pool deployer (cryptoalgebra/integral-core), and a Uniswap V2 factory
/// (uniswap/v2-core), registered in router slots 5 (V2), 6 (V3) and 7 (Algebra). Pools priced like the router
/// fixture's (1 A = 2 B = 2 C, 1 WHYPE = 100 A): V3 A/B (0.3%), B/C (0.05%), A/WHYPE (0.3%); Algebra A/B, B/C; a
/// real V2 A/B pair. Each concentrated pool holds positions in several ranges: narrow around the price, wide, and
/// one-sided above and below it, so ordinary swaps cross initialized ticks.
abstract contract ConcentratedFixture is SplitRouteFixture {
    uint8 internal constant V2_REAL = 5;
    uint8 internal constant V3 = 6;
    uint8 internal constant ALGEBRA = 7;
    uint24 internal constant FEE_MEDIUM = 3000;
    uint24 internal constant FEE_LOW = 500;

    string internal constant V3_FACTORY_ARTIFACT =
        "../../node_modules/@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";
    string internal constant QUOTER_V2_ARTIFACT =
        "../../node_modules/@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json";
    string internal constant ALGEBRA_FACTORY_ARTIFACT =
        "../../node_modules/@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json";
    string internal constant ALGEBRA_DEPLOYER_ARTIFACT =
        "../../node_modules/@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json";
    string internal constant V2_FACTORY_ARTIFACT = "../../node_modules/@uniswap/v2-core/build/UniswapV2Factory.json";

    address internal v3Factory;
    address internal algebraFactory;
    address internal v2Real;
    IQuoterV2 internal quoter;
    RevertingQuoter internal poolQuoter;
    PositionMinter internal minter;

    address internal v3AB;
    address internal v3BC;
    address internal v3AW;
    address internal algebraAB;
    address internal algebraBC;
    address internal realPairAB;

    function setUp() public virtual override {
        super.setUp();
        minter = new PositionMinter();
        poolQuoter = new RevertingQuoter();

        v3Factory = _deploy(_artifactCode(V3_FACTORY_ARTIFACT), "");
        quoter = IQuoterV2(_deploy(_artifactCode(QUOTER_V2_ARTIFACT), abi.encode(v3Factory, address(wnative))));
        algebraFactory = _deployAlgebra();
        v2Real = _deploy(_artifactCode(V2_FACTORY_ARTIFACT), abi.encode(address(this)));
        vm.label(v3Factory, "UniswapV3Factory");
        vm.label(algebraFactory, "AlgebraFactory");
        vm.label(v2Real, "UniswapV2Factory (v2-core)");

        // Narrow, wide and one-sided positions; liquidity in the pools' units (sqrt of token0 x token1 wei).
        v3AB = _v3Pool(address(tokenA), address(tokenB), FEE_MEDIUM, 2, 1, 1e23);
        v3BC = _v3Pool(address(tokenB), address(tokenC), FEE_LOW, 1, 1, 1e23);
        v3AW = _v3Pool(address(wnative), address(tokenA), FEE_MEDIUM, 100, 1, 1e22);
        algebraAB = _algebraPool(address(tokenA), address(tokenB), 2, 1, 1e23);
        algebraBC = _algebraPool(address(tokenB), address(tokenC), 1, 1, 1e23);
        realPairAB = IUniswapV2Factory(v2Real).createPair(address(tokenA), address(tokenB));
        _fund(address(tokenA), realPairAB, 100_000 ether);
        _fund(address(tokenB), realPairAB, 200_000 ether);
        IUniswapV2Pair(realPairAB).mint(address(this));

        vm.startPrank(owner);
        router.setSource(V2_REAL, IRouterV2.SourceKind.UniswapV2, v2Real, 30);
        router.setSource(V3, IRouterV2.SourceKind.UniswapV3, v3Factory, 0);
        router.setSource(ALGEBRA, IRouterV2.SourceKind.Algebra, algebraFactory, 0);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- deployment

    /// @dev The creation bytecode in a Hardhat or Waffle artifact (its top-level `bytecode`, with or without 0x).
    function _artifactCode(string memory path) internal view returns (bytes memory) {
        string memory hexCode = vm.parseJsonString(vm.readFile(path), ".bytecode");
        bytes memory raw = bytes(hexCode);
        if (raw.length < 2 || raw[0] != "0" || raw[1] != "x") hexCode = string.concat("0x", hexCode);
        return vm.parseBytes(hexCode);
    }

    /// @dev CREATE of `creationCode` with `args` appended; reverts when the constructor fails.
    function _deploy(bytes memory creationCode, bytes memory args) internal returns (address deployed) {
        bytes memory code = bytes.concat(creationCode, args);
        assembly ("memory-safe") {
            deployed := create(0, add(code, 32), mload(code))
        }
        require(deployed != address(0) && deployed.code.length > 0, "deployment failed");
    }

    /// @dev The Algebra factory and its pool deployer each take the other's address: the factory is deployed first
    /// with the deployer's address computed from this contract's next nonce.
    function _deployAlgebra() internal returns (address factory) {
        uint256 nonce = vm.getNonce(address(this));
        address deployer = vm.computeCreateAddress(address(this), nonce + 1);
        factory = _deploy(_artifactCode(ALGEBRA_FACTORY_ARTIFACT), abi.encode(deployer));
        address deployed = _deploy(_artifactCode(ALGEBRA_DEPLOYER_ARTIFACT), abi.encode(factory));
        require(deployed == deployer && IAlgebraFactoryAdmin(factory).poolDeployer() == deployer, "deployer address");
    }

    /// @dev A V3 pool of `a` and `b` at the price `priceA / priceB` (b per a), seeded with `_seedPositions`.
    function _v3Pool(address a, address b, uint24 fee, uint256 priceA, uint256 priceB, uint128 liquidity)
        internal
        returns (address pool)
    {
        pool = IV3FactoryAdmin(v3Factory).createPool(a, b, fee);
        IConcentratedPoolAdmin(pool).initialize(_sqrtPriceX96(pool, a, priceA, priceB));
        _seedPositions(pool, liquidity, false);
    }

    /// @dev An Algebra pool of `a` and `b` at the price `priceA / priceB` (b per a), seeded with `_seedPositions`.
    /// It has no plugin (no plugin factory is set) and the factory's default fee (0.05%, static).
    function _algebraPool(address a, address b, uint256 priceA, uint256 priceB, uint128 liquidity)
        internal
        returns (address pool)
    {
        pool = IAlgebraFactoryAdmin(algebraFactory).createPool(a, b, "");
        IConcentratedPoolAdmin(pool).initialize(_sqrtPriceX96(pool, a, priceA, priceB));
        _seedPositions(pool, liquidity, true);
    }

    /// @dev The pool's sqrt price (Q64.96) for `priceA / priceB` units of b per unit of a.
    function _sqrtPriceX96(address pool, address a, uint256 priceA, uint256 priceB) internal view returns (uint160) {
        (uint256 num, uint256 den) = IUniswapV3Pool(pool).token0() == a ? (priceA, priceB) : (priceB, priceA);
        return uint160(Math.sqrt(Math.mulDiv(num, uint256(1) << 192, den)));
    }

    /// @dev Four positions around the pool's current tick `t` (spacing `s`, `c` = t rounded down to a multiple
    /// of s): narrow [c - 2s, c + 2s] with 2L, wide [c - 200s, c + 200s] with L, one-sided above
    /// [c + 4s, c + 40s] and below [c - 40s, c - 4s] with L/2 each.
    function _seedPositions(address pool, uint128 liquidity, bool algebra) internal {
        int24 s = IConcentratedPoolAdmin(pool).tickSpacing();
        int24 c = _currentTick(pool, algebra);
        // forge-lint: disable-next-line(divide-before-multiply)
        c = (c / s) * s - (c < 0 && c % s != 0 ? s : int24(0));
        _mint(pool, c - 2 * s, c + 2 * s, 2 * liquidity, algebra);
        _mint(pool, c - 200 * s, c + 200 * s, liquidity, algebra);
        _mint(pool, c + 4 * s, c + 40 * s, liquidity / 2, algebra);
        _mint(pool, c - 40 * s, c - 4 * s, liquidity / 2, algebra);
    }

    function _currentTick(address pool, bool algebra) internal view returns (int24 tick) {
        if (algebra) {
            (, tick,,,,) = IAlgebraPoolState(pool).globalState();
        } else {
            // forge-lint: disable-next-line(unchecked-call)
            (, bytes memory slot0) = pool.staticcall(abi.encodeWithSignature("slot0()"));
            (, tick) = abi.decode(slot0, (uint160, int24));
        }
    }

    /// @dev Mints a position through the PositionMinter, this contract paying.
    function _mint(address pool, int24 lower, int24 upper, uint128 liquidity, bool algebra) internal {
        address token0 = IUniswapV3Pool(pool).token0();
        address token1 = IUniswapV3Pool(pool).token1();
        _fund(token0, address(this), 10_000_000 ether);
        _fund(token1, address(this), 10_000_000 ether);
        IERC20(token0).approve(address(minter), type(uint256).max);
        IERC20(token1).approve(address(minter), type(uint256).max);
        if (algebra) minter.mintAlgebra(pool, address(this), lower, upper, liquidity);
        else minter.mint(pool, address(this), lower, upper, liquidity);
    }

    // ---------------------------------------------------------------- references

    /// @dev QuoterV2's quote for a V3 pool of the fixture's factory.
    function _quoteV3(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn)
        internal
        returns (uint256 amountOut, uint32 ticksCrossed)
    {
        (amountOut,, ticksCrossed,) = quoter.quoteExactInputSingle(
            IQuoterV2.QuoteExactInputSingleParams({
                tokenIn: tokenIn, tokenOut: tokenOut, amountIn: amountIn, fee: fee, sqrtPriceLimitX96: 0
            })
        );
    }

    /// @dev QuoterV2's input for an exact output on a V3 pool of the fixture's factory.
    function _quoteV3ExactOutput(address tokenIn, address tokenOut, uint24 fee, uint256 amountOut)
        internal
        returns (uint256 amountIn, uint32 ticksCrossed)
    {
        (amountIn,, ticksCrossed,) = quoter.quoteExactOutputSingle(
            IQuoterV2.QuoteExactOutputSingleParams({
                tokenIn: tokenIn, tokenOut: tokenOut, amount: amountOut, fee: fee, sqrtPriceLimitX96: 0
            })
        );
    }

    /// @dev The Algebra pool's own answer for an exact-input swap.
    function _quoteAlgebra(address pool, address tokenIn, uint256 amountIn) internal returns (uint256 amountOut) {
        (amountOut,) = poolQuoter.quote(pool, tokenIn, amountIn);
    }

    /// @dev The real V2 pair's output (0.3% fee).
    function _quoteRealV2(address tokenIn, uint256 amountIn) internal view returns (uint256) {
        return _v2Quote(realPairAB, tokenIn, amountIn, 30);
    }

    function _currentTickOf(address pool, bool algebra) internal view returns (int24) {
        return _currentTick(pool, algebra);
    }
}
