// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {RouterFixture} from "../router/RouterFixture.sol";
import {FeeOnTransferToken} from "../mocks/BadTokens.sol";
import {ICurveStableSwapNG, ICurveStableSwapFactoryNG} from "../curve/ICurveNG.sol";
import {ICurveTwocryptoNG, ICurveTwocryptoFactoryNG} from "../curve/ICurveTwocryptoNG.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {RebasingToken} from "../../src/devnet/WildTokens.sol";
import {CurveStableSwapNGStandIn} from "../../src/devnet/curve/CurveStableSwapNGStandIn.sol";
import {
    CurveStableSwapFactoryNGStandIn,
    CurveStableSwapNGBlueprint
} from "../../src/devnet/curve/CurveStableSwapFactoryNGStandIn.sol";
import {
    CurveTwocryptoFactoryNGStandIn,
    CurveTwocryptoNGBlueprint
} from "../../src/devnet/curve/CurveTwocryptoFactoryNGStandIn.sol";
import {CurveTwocryptoMathNGStandIn} from "../../src/devnet/curve/CurveTwocryptoMathNGStandIn.sol";
import {CurveTwocryptoViewNGStandIn} from "../../src/devnet/curve/CurveTwocryptoViewNGStandIn.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IStablePool} from "../../src/sources/stable/interfaces/IStablePool.sol";

/// @notice A contract posing as a Curve pool (and answering `get_coin_indices` as a factory would): it pays whatever
/// it is asked to from its own balance. Its factory never deployed it.
contract FakeCurvePool {
    address public immutable coinIn;
    address public immutable coinOut;

    constructor(address coinIn_, address coinOut_) {
        coinIn = coinIn_;
        coinOut = coinOut_;
    }

    function coins(uint256 i) external view returns (address) {
        return i == 0 ? coinIn : coinOut;
    }

    function get_coin_indices(address, address, address) external pure returns (int128, int128, bool) {
        return (0, 1, false);
    }

    function exchange_received(int128, int128, uint256 dx, uint256, address receiver) external returns (uint256) {
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(coinOut).transfer(receiver, dx);
        return dx;
    }

    function exchange(int128, int128, uint256 dx, uint256, address receiver) external returns (uint256) {
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(coinIn).transferFrom(msg.sender, address(this), dx);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(coinOut).transfer(receiver, dx);
        return dx;
    }
}

/// @notice A StableswapNG factory in front of the real one (the stand-in) that answers `get_coin_indices` with the
/// real indices but its own `isUnderlying` flag and `is_meta`, or too short: how a metapool's answers look, which the
/// stand-in factory (plain pools only) never gives.
contract MockNGFactory {
    ICurveStableSwapFactoryNG public immutable real;
    bool public underlying;
    bool public meta;
    bool public shortAnswer;

    constructor(address real_) {
        real = ICurveStableSwapFactoryNG(real_);
    }

    function set(bool underlying_, bool meta_, bool shortAnswer_) external {
        (underlying, meta, shortAnswer) = (underlying_, meta_, shortAnswer_);
    }

    function get_coin_indices(address pool, address from, address to) external view returns (int128, int128, bool) {
        (int128 i, int128 j,) = real.get_coin_indices(pool, from, to);
        if (shortAnswer) {
            assembly ("memory-safe") {
                mstore(0x00, i)
                mstore(0x20, j)
                return(0x00, 0x40)
            }
        }
        return (i, j, underlying);
    }

    function is_meta(address) external view returns (bool) {
        return meta;
    }
}

/// @notice RouterV2's `CurveStableswapNG` and `CurveTwocryptoNG` kinds on the devnet stand-ins of Curve's pools and
/// factories (pools deployed through the factories): outputs equal to the pools' own `get_dy` to the wei, both ways
/// of paying a pool (`exchange_received` after a transfer, `exchange` on an allowance), a split with a Solidly-style
/// stable pool, multi-hop routes through two Curve pools, direct payment of the recipient, fees and slippage capture,
/// the router holding nothing (neither tokens nor allowances) after each call, and the attacks the kinds refuse.
contract RouterV2CurveTest is RouterFixture {
    event log_named_uint(string key, uint256 val);

    uint8 internal constant NG = 10;
    uint8 internal constant TWO = 11;
    uint8 internal constant NG_MOCK = 12;

    uint256 internal constant T0 = 1_700_000_000;
    uint256 internal constant NG_FEE = 4000000;
    uint256 internal constant NG_OFFPEG = 20000000000;

    uint256 internal constant AMOUNT = 1_000e6; // USDC
    uint256 internal constant DAI_AMOUNT = 1_000 ether;

    CurveStableSwapFactoryNGStandIn internal ngFactory;
    ICurveTwocryptoFactoryNG internal twoFactory;

    TestERC20 internal usdt;
    TestERC20 internal frax;
    RebasingToken internal reb;
    FeeOnTransferToken internal fot;

    /// @dev StableswapNG: USDC/DAI, USDC/DAI/USDT/FRAX, a rebasing coin/DAI (asset type 2), a fee-on-transfer coin/DAI.
    address internal ng2;
    address internal ng4;
    address internal ngReb;
    address internal ngFot;
    /// @dev TwocryptoNG: DAI/A at 1 A = 2 DAI.
    address internal two;

    function setUp() public override {
        vm.warp(T0);
        super.setUp();

        ngFactory = new CurveStableSwapFactoryNGStandIn(makeAddr("curveFeeReceiver"), address(this));
        ngFactory.set_pool_implementations(0, CurveStableSwapNGBlueprint.deployStandIn());

        address deployer = makeAddr("twocryptoDeployer");
        vm.prank(deployer, deployer);
        twoFactory = ICurveTwocryptoFactoryNG(address(new CurveTwocryptoFactoryNGStandIn()));
        vm.prank(deployer);
        twoFactory.initialise_ownership(makeAddr("curveFeeReceiver"), address(this));
        twoFactory.set_pool_implementation(CurveTwocryptoNGBlueprint.deployStandIn(), 0);
        twoFactory.set_math_implementation(address(new CurveTwocryptoMathNGStandIn()));
        twoFactory.set_views_implementation(address(new CurveTwocryptoViewNGStandIn()));

        usdt = new TestERC20("Tether USD", "USDT", 6);
        frax = new TestERC20("Frax", "FRAX", 18);
        reb = new RebasingToken("Rebasing ETH", "rETH", 0);
        fot = new FeeOnTransferToken(100);

        ng2 = _ngPool(_list(address(usdc), address(dai)), new uint8[](2), _amounts(1_000_000e6, 1_000_000 ether));
        address[] memory four = new address[](4);
        (four[0], four[1], four[2], four[3]) = (address(usdc), address(dai), address(usdt), address(frax));
        uint256[] memory fourAmounts = new uint256[](4);
        (fourAmounts[0], fourAmounts[1], fourAmounts[2], fourAmounts[3]) =
        (1_000_000e6, 1_000_000 ether, 1_000_000e6, 1_000_000 ether);
        ng4 = _ngPool(four, new uint8[](4), fourAmounts);
        uint8[] memory rebasingTypes = new uint8[](2);
        rebasingTypes[0] = 2;
        ngReb = _ngPool(_list(address(reb), address(dai)), rebasingTypes, _amounts(1_000_000 ether, 1_000_000 ether));
        ngFot = _ngPool(_list(address(fot), address(dai)), new uint8[](2), _amounts(1_000_000 ether, 1_000_000 ether));

        two = twoFactory.deploy_pool(
            "Curve DAI/A",
            "crvDA",
            [address(dai), address(tokenA)],
            0,
            400000,
            145000000000000,
            26000000,
            45000000,
            230000000000000,
            2000000000000,
            146000000000000,
            866,
            2e18
        );
        _mintAndApprove(address(dai), two, 2_000_000 ether);
        _mintAndApprove(address(tokenA), two, 1_000_000 ether);
        ICurveTwocryptoNG(two).add_liquidity([uint256(2_000_000 ether), 1_000_000 ether], 0);

        vm.startPrank(owner);
        router.setSource(NG, IRouterV2.SourceKind.CurveStableswapNG, address(ngFactory), 4);
        router.setSource(TWO, IRouterV2.SourceKind.CurveTwocryptoNG, address(twoFactory), 26);
        vm.stopPrank();

        _fundAndApprove(alice, address(usdc), 1_000_000e6);
        _fundAndApprove(alice, address(dai), 1_000_000 ether);
        _fundAndApprove(alice, address(usdt), 1_000_000e6);
        _fundAndApprove(alice, address(tokenA), 1_000_000 ether);
        reb.mint(alice, 1_000_000 ether);
        fot.mint(alice, 1_000_000 ether);
        vm.startPrank(alice);
        reb.approve(address(router), type(uint256).max);
        fot.approve(address(router), type(uint256).max);
        vm.stopPrank();

        // The gas tests' trader is this contract: it holds what is left of the liquidity it minted (USDC, DAI) and
        // some A, and has approved the router without limit, all before the measured transaction.
        _fund(address(tokenA), address(this), 10_000 ether);
        usdc.approve(address(router), type(uint256).max);
        dai.approve(address(router), type(uint256).max);
        tokenA.approve(address(router), type(uint256).max);
    }

    // ---------------------------------------------------------------- helpers

    function _mintAndApprove(address token, address pool, uint256 amount) internal {
        if (token == address(reb)) reb.mint(address(this), amount);
        else if (token == address(fot)) fot.mint(address(this), amount);
        else _fund(token, address(this), amount);
        IERC20(token).approve(pool, type(uint256).max);
    }

    /// @dev A StableswapNG pool through the factory (A 200, 4 bps), seeded with `amounts` by the test.
    function _ngPool(address[] memory coins, uint8[] memory assetTypes, uint256[] memory amounts)
        internal
        returns (address pool)
    {
        uint256 n = coins.length;
        pool = ngFactory.deploy_plain_pool(
            "Curve NG", "crvNG", coins, 200, NG_FEE, NG_OFFPEG, 866, 0, assetTypes, new bytes4[](n), new address[](n)
        );
        for (uint256 k; k < n; ++k) {
            _mintAndApprove(coins[k], pool, amounts[k] * 2);
        }
        ICurveStableSwapNG(pool).add_liquidity(amounts, 0);
    }

    function _list(address a, address b) internal pure returns (address[] memory r) {
        r = new address[](2);
        (r[0], r[1]) = (a, b);
    }

    function _amounts(uint256 a, uint256 b) internal pure returns (uint256[] memory r) {
        r = new uint256[](2);
        (r[0], r[1]) = (a, b);
    }

    function _curveSwap(
        address pool,
        address tokenIn,
        address tokenOut,
        uint8 index,
        uint256 quotedIn,
        bytes memory data
    ) internal pure returns (IRouterV2.Swap memory s) {
        s = _swap(pool, tokenIn, tokenOut, index, quotedIn);
        s.data = data;
    }

    /// @dev The allowance path's `data`.
    function _pull() internal pure returns (bytes memory) {
        return abi.encode(uint256(1));
    }

    /// @dev A StableswapNG pool's own quote, by coin addresses (the factory's indices).
    function _ngDy(address pool, address tokenIn, address tokenOut, uint256 dx) internal view returns (uint256) {
        (int128 i, int128 j,) = ngFactory.get_coin_indices(pool, tokenIn, tokenOut);
        return ICurveStableSwapNG(pool).get_dy(i, j, dx);
    }

    /// @dev The TwocryptoNG pool's own quote.
    function _twoDy(address tokenIn, uint256 dx) internal view returns (uint256) {
        return
            tokenIn == address(dai) ? ICurveTwocryptoNG(two).get_dy(0, 1, dx) : ICurveTwocryptoNG(two).get_dy(1, 0, dx);
    }

    function _execute(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        returns (uint256)
    {
        vm.prank(alice);
        return router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0));
    }

    /// @dev The router holds no token of the fixture and no allowance to any Curve pool.
    function _assertRouterEmpty() internal view {
        address r = address(router);
        address[10] memory tokens = [
            address(tokenA),
            address(tokenB),
            address(tokenC),
            address(usdc),
            address(dai),
            address(usdt),
            address(frax),
            address(reb),
            address(fot),
            address(wnative)
        ];
        address[5] memory pools = [ng2, ng4, ngReb, ngFot, two];
        for (uint256 t; t < tokens.length; ++t) {
            assertEq(IERC20(tokens[t]).balanceOf(r), 0, "router holds a token");
            for (uint256 p; p < pools.length; ++p) {
                assertEq(IERC20(tokens[t]).allowance(r, pools[p]), 0, "router left an allowance");
            }
        }
        assertEq(r.balance, 0, "router holds native coin");
    }

    // ---------------------------------------------------------------- registry

    function test_sourceKindsKeepTheirNumbers() public view {
        assertEq(uint8(IRouterV2.SourceKind.UniswapV4), 7);
        assertEq(uint8(IRouterV2.SourceKind.CurveStableswapNG), 8);
        assertEq(uint8(IRouterV2.SourceKind.CurveTwocryptoNG), 9);
        IRouterV2.Source memory ng = router.getSource(NG);
        assertEq(uint8(ng.kind), 8);
        assertEq(ng.factory, address(ngFactory));
        IRouterV2.Source memory tc = router.getSource(TWO);
        assertEq(uint8(tc.kind), 9);
        assertEq(tc.factory, address(twoFactory));
    }

    // ---------------------------------------------------------------- single hop: StableswapNG

    function test_ng2_exchangeReceived_equalsGetDy() public {
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        uint256 poolUsdcBefore = usdc.balanceOf(ng2);
        uint256 daiBefore = dai.balanceOf(alice);

        // The pool is paid straight from alice, and pays alice directly.
        vm.expectEmit(address(usdc));
        emit IERC20.Transfer(alice, ng2, AMOUNT);
        vm.expectEmit(address(dai));
        emit IERC20.Transfer(ng2, alice, quoted);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(usdc), address(dai), AMOUNT, quoted, quoted);
        uint256 out = _execute(
            _path(address(usdc), address(dai)),
            AMOUNT,
            _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, ""))
        );

        assertEq(out, quoted, "output differs from get_dy");
        assertEq(dai.balanceOf(alice) - daiBefore, quoted, "alice did not receive the output");
        assertEq(usdc.balanceOf(ng2) - poolUsdcBefore, AMOUNT, "the pool was not paid the input");
        _assertRouterEmpty();
    }

    function test_ng2_otherDirection_equalsGetDy() public {
        uint256 quoted = _ngDy(ng2, address(dai), address(usdc), DAI_AMOUNT);
        uint256 out = _execute(
            _path(address(dai), address(usdc)),
            DAI_AMOUNT,
            _hops(_curveSwap(ng2, address(dai), address(usdc), NG, DAI_AMOUNT, ""))
        );
        assertEq(out, quoted, "output differs from get_dy");
        _assertRouterEmpty();
    }

    function test_ng4_everyIndexPair_equalsGetDy() public {
        // USDT (2) -> FRAX (3), FRAX (3) -> USDC (0), DAI (1) -> USDT (2): indices other than 0 and 1.
        uint256 quoted = _ngDy(ng4, address(usdt), address(frax), AMOUNT);
        uint256 out = _execute(
            _path(address(usdt), address(frax)),
            AMOUNT,
            _hops(_curveSwap(ng4, address(usdt), address(frax), NG, AMOUNT, ""))
        );
        assertEq(out, quoted, "USDT -> FRAX differs from get_dy");
        assertEq(frax.balanceOf(alice), quoted);

        quoted = _ngDy(ng4, address(frax), address(usdc), out);
        vm.prank(alice);
        frax.approve(address(router), out);
        uint256 back = _execute(
            _path(address(frax), address(usdc)), out, _hops(_curveSwap(ng4, address(frax), address(usdc), NG, out, ""))
        );
        assertEq(back, quoted, "FRAX -> USDC differs from get_dy");

        quoted = _ngDy(ng4, address(dai), address(usdt), DAI_AMOUNT);
        out = _execute(
            _path(address(dai), address(usdt)),
            DAI_AMOUNT,
            _hops(_curveSwap(ng4, address(dai), address(usdt), NG, DAI_AMOUNT, _pull()))
        );
        assertEq(out, quoted, "DAI -> USDT (allowance path) differs from get_dy");
        _assertRouterEmpty();
    }

    function test_ng2_allowancePath_equalsGetDy() public {
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        // The router takes the input, approves exactly it, and the pool pulls it.
        vm.expectEmit(address(usdc));
        emit IERC20.Transfer(alice, address(router), AMOUNT);
        vm.expectEmit(address(usdc));
        emit IERC20.Approval(address(router), ng2, AMOUNT);
        vm.expectEmit(address(usdc));
        emit IERC20.Transfer(address(router), ng2, AMOUNT);
        uint256 out = _execute(
            _path(address(usdc), address(dai)),
            AMOUNT,
            _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, _pull()))
        );
        assertEq(out, quoted, "output differs from get_dy");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- a pool holding a rebasing coin

    function test_ngRebasing_exchangeReceivedRefused_allowancePathTrades() public {
        // NG refuses exchange_received on a pool holding a rebasing coin; the pool's error is passed on.
        IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ngReb, address(reb), address(dai), NG, DAI_AMOUNT, ""));
        vm.expectRevert(CurveStableSwapNGStandIn.RebasingPool.selector);
        _execute(_path(address(reb), address(dai)), DAI_AMOUNT, hops);

        uint256 quoted = _ngDy(ngReb, address(reb), address(dai), DAI_AMOUNT);
        uint256 out = _execute(
            _path(address(reb), address(dai)),
            DAI_AMOUNT,
            _hops(_curveSwap(ngReb, address(reb), address(dai), NG, DAI_AMOUNT, _pull()))
        );
        assertEq(out, quoted, "output differs from get_dy");
        _assertRouterEmpty();
    }

    function test_ngRebasing_afterARebase_bothDirections() public {
        // Every balance doubles (an index of 2 keeps the transfers exact).
        reb.rebase(2e18);
        uint256 quoted = _ngDy(ngReb, address(reb), address(dai), DAI_AMOUNT);
        uint256 out = _execute(
            _path(address(reb), address(dai)),
            DAI_AMOUNT,
            _hops(_curveSwap(ngReb, address(reb), address(dai), NG, DAI_AMOUNT, _pull()))
        );
        assertEq(out, quoted, "rebasing -> DAI differs from get_dy");

        quoted = _ngDy(ngReb, address(dai), address(reb), DAI_AMOUNT);
        uint256 rebBefore = reb.balanceOf(alice);
        out = _execute(
            _path(address(dai), address(reb)),
            DAI_AMOUNT,
            _hops(_curveSwap(ngReb, address(dai), address(reb), NG, DAI_AMOUNT, _pull()))
        );
        // The pool sends `quoted`; the rebasing coin moves the shares it is worth (rounded down).
        assertApproxEqAbs(out, quoted, 2, "DAI -> rebasing differs from get_dy");
        assertEq(reb.balanceOf(alice) - rebBefore, out, "alice did not receive the output");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- single hop: TwocryptoNG

    function test_twocrypto_exchangeReceived_equalsGetDy() public {
        uint256 quoted = _twoDy(address(dai), DAI_AMOUNT);
        uint256 aBefore = tokenA.balanceOf(alice);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(two, alice, quoted);
        uint256 out = _execute(
            _path(address(dai), address(tokenA)),
            DAI_AMOUNT,
            _hops(_curveSwap(two, address(dai), address(tokenA), TWO, DAI_AMOUNT, ""))
        );
        assertEq(out, quoted, "output differs from get_dy");
        assertEq(tokenA.balanceOf(alice) - aBefore, quoted);

        quoted = _twoDy(address(tokenA), 100 ether);
        out = _execute(
            _path(address(tokenA), address(dai)),
            100 ether,
            _hops(_curveSwap(two, address(tokenA), address(dai), TWO, 100 ether, ""))
        );
        assertEq(out, quoted, "the other direction differs from get_dy");
        _assertRouterEmpty();
    }

    function test_twocrypto_allowancePath_equalsGetDy() public {
        uint256 quoted = _twoDy(address(tokenA), 100 ether);
        uint256 out = _execute(
            _path(address(tokenA), address(dai)),
            100 ether,
            _hops(_curveSwap(two, address(tokenA), address(dai), TWO, 100 ether, _pull()))
        );
        assertEq(out, quoted, "output differs from get_dy");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- splits and multi-hop routes

    function test_split_curveBesideStablePool() public {
        uint256 toCurve = AMOUNT * 600 / 1_000;
        uint256 toStable = AMOUNT - toCurve;
        uint256 expected = _ngDy(ng2, address(usdc), address(dai), toCurve)
            + IStablePool(stableUsdcDai).getAmountOut(toStable, address(usdc));
        uint256 daiBefore = dai.balanceOf(alice);

        uint256 out = _execute(
            _path(address(usdc), address(dai)),
            AMOUNT,
            _splitHop(
                _curveSwap(ng2, address(usdc), address(dai), NG, 600, ""),
                _swap(stableUsdcDai, address(usdc), address(dai), STABLE, 400)
            )
        );
        assertEq(out, expected, "the split differs from the pools' quotes");
        assertEq(dai.balanceOf(alice) - daiBefore, expected);
        _assertRouterEmpty();
    }

    function test_split_twocryptoBesideAV2Pair_withFee() public {
        // DAI -> A split evenly between the TwocryptoNG pool (allowance path) and a V2 DAI/A pair, with an integrator
        // fee: both pay the router, which splits the output.
        address pairDaiA = _addV2Liquidity(v2A, address(dai), 2_000_000 ether, address(tokenA), 1_000_000 ether);
        uint256 toCurve = DAI_AMOUNT / 2;
        uint256 expected =
            _twoDy(address(dai), toCurve) + _v2Quote(pairDaiA, address(dai), DAI_AMOUNT - toCurve, V2_A_FEE_BPS);
        (uint256 userAmount, uint256 integratorFee,,,) = _referenceSplit(expected, 0, 30, true);

        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(dai), address(tokenA)),
            DAI_AMOUNT,
            0,
            0,
            _splitHop(
                _curveSwap(two, address(dai), address(tokenA), TWO, 1, _pull()),
                _swap(pairDaiA, address(dai), address(tokenA), V2_A, 1)
            ),
            30,
            integrator
        );
        assertEq(out, userAmount, "user amount");
        assertEq(tokenA.balanceOf(integrator), integratorFee, "integrator fee");
        _assertRouterEmpty();
    }

    function test_multiHop_throughTwoCurvePools() public {
        // USDT -> DAI on the 4-coin NG pool, then DAI -> A on the TwocryptoNG pool (the router pays it by transfer).
        uint256 mid = _ngDy(ng4, address(usdt), address(dai), AMOUNT);
        uint256 expected = _twoDy(address(dai), mid);
        uint256 aBefore = tokenA.balanceOf(alice);

        vm.expectEmit(address(dai));
        emit IERC20.Transfer(ng4, address(router), mid);
        vm.expectEmit(address(dai));
        emit IERC20.Transfer(address(router), two, mid);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(two, alice, expected);
        uint256 out = _execute(
            _path(address(usdt), address(dai), address(tokenA)),
            AMOUNT,
            _hops(
                _curveSwap(ng4, address(usdt), address(dai), NG, AMOUNT, ""),
                _curveSwap(two, address(dai), address(tokenA), TWO, mid, "")
            )
        );
        assertEq(out, expected, "the route differs from the pools' quotes");
        assertEq(tokenA.balanceOf(alice) - aBefore, expected);
        _assertRouterEmpty();
    }

    function test_multiHop_routerPaysThroughAnAllowance_intoARebasingCoin() public {
        // USDC -> DAI (NG, exchange_received), then DAI -> rebasing coin (NG, the router's allowance).
        uint256 mid = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        uint256 expected = _ngDy(ngReb, address(dai), address(reb), mid);
        uint256 out = _execute(
            _path(address(usdc), address(dai), address(reb)),
            AMOUNT,
            _hops(
                _curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, ""),
                _curveSwap(ngReb, address(dai), address(reb), NG, mid, _pull())
            )
        );
        assertEq(out, expected, "the route differs from the pools' quotes");
        _assertRouterEmpty();
    }

    function test_multiHop_v2ThenCurve() public {
        // B -> A on v2A's pair, then A -> DAI on the TwocryptoNG pool.
        _fundAndApprove(alice, address(tokenB), 1_000 ether);
        uint256 mid = _v2Quote(pairAB, address(tokenB), 1_000 ether, V2_A_FEE_BPS);
        uint256 expected = _twoDy(address(tokenA), mid);
        uint256 out = _execute(
            _path(address(tokenB), address(tokenA), address(dai)),
            1_000 ether,
            _hops(
                _swap(pairAB, address(tokenB), address(tokenA), V2_A, 1_000 ether),
                _curveSwap(two, address(tokenA), address(dai), TWO, mid, "")
            )
        );
        assertEq(out, expected);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- the recipient, fees and slippage

    function test_recipientIsPaidDirectly() public {
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        vm.expectEmit(address(dai));
        emit IERC20.Transfer(ng2, bob, quoted);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(usdc), address(dai)),
            AMOUNT,
            quoted,
            0,
            _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, "")),
            0,
            address(0),
            bob,
            block.timestamp
        );
        assertEq(out, quoted);
        assertEq(dai.balanceOf(bob), quoted, "bob was not paid");
        _assertRouterEmpty();
    }

    function test_expectedAmount_outputAboveItIsSplitByTheRouter() public {
        uint256 quoted = _twoDy(address(dai), DAI_AMOUNT);
        uint256 expectedOut = quoted - 1e15;
        (uint256 userAmount,, uint256 protocolFee,,) = _referenceSplit(quoted, expectedOut, 0, false);
        // The output can exceed the expected amount, so the pool pays the router, which captures half the excess.
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(two, address(router), quoted);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(dai), address(tokenA)),
            DAI_AMOUNT,
            0,
            expectedOut,
            _hops(_curveSwap(two, address(dai), address(tokenA), TWO, DAI_AMOUNT, "")),
            0,
            address(0),
            bob,
            block.timestamp
        );
        assertEq(out, userAmount, "user amount");
        assertEq(tokenA.balanceOf(bob), userAmount, "bob");
        assertEq(tokenA.balanceOf(treasury), protocolFee, "treasury");
        assertGt(protocolFee, 0, "no slippage captured");
        _assertRouterEmpty();
    }

    function test_expectedAmount_outputBelowItReachesTheRecipientWhole() public {
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        vm.prank(alice);
        uint256 out = router.executeSwapsWithData(
            _path(address(usdc), address(dai)),
            AMOUNT,
            quoted,
            quoted + 1,
            _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, "")),
            0,
            address(0),
            bob,
            block.timestamp
        );
        assertEq(out, quoted);
        assertEq(dai.balanceOf(bob), quoted);
        assertEq(dai.balanceOf(treasury), 0);
        _assertRouterEmpty();
    }

    function test_minAmountOut_isEnforcedOnTheRoute() public {
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, quoted, quoted + 1));
        vm.prank(alice);
        router.executeSwaps(_path(address(usdc), address(dai)), AMOUNT, quoted + 1, 0, hops, 0, address(0));
    }

    // ---------------------------------------------------------------- fee-on-transfer input

    function test_feeOnTransferInput_exchangeReceived_tradesWhatArrived() public {
        uint256 arrived = DAI_AMOUNT - DAI_AMOUNT / 100;
        uint256 quoted = _ngDy(ngFot, address(fot), address(dai), arrived);
        uint256 poolBefore = fot.balanceOf(ngFot);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(fot), address(dai), arrived, quoted, quoted);
        uint256 out = _execute(
            _path(address(fot), address(dai)),
            DAI_AMOUNT,
            _hops(_curveSwap(ngFot, address(fot), address(dai), NG, DAI_AMOUNT, ""))
        );
        assertEq(out, quoted, "output differs from get_dy of what arrived");
        assertEq(fot.balanceOf(ngFot) - poolBefore, arrived);
        _assertRouterEmpty();
    }

    function test_feeOnTransferInput_allowancePath_tradesWhatArrived() public {
        // Alice -> router takes 1%, router -> pool another 1%; NG's exchange swaps what it received.
        uint256 atRouter = DAI_AMOUNT - DAI_AMOUNT / 100;
        uint256 arrived = atRouter - atRouter / 100;
        uint256 quoted = _ngDy(ngFot, address(fot), address(dai), arrived);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(fot), address(dai), atRouter, quoted, quoted);
        uint256 out = _execute(
            _path(address(fot), address(dai)),
            DAI_AMOUNT,
            _hops(_curveSwap(ngFot, address(fot), address(dai), NG, DAI_AMOUNT, _pull()))
        );
        assertEq(out, quoted, "output differs from get_dy of what arrived");
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- zero shares

    function test_zeroShare_isValidatedButNotTraded() public {
        uint256 poolUsdcBefore = usdc.balanceOf(ng2);
        uint256 poolDaiBefore = dai.balanceOf(ng2);
        uint256 expected = IStablePool(stableUsdcDai).getAmountOut(AMOUNT, address(usdc));
        // The Curve swap is the last on USDC and gets the remainder: nothing.
        uint256 out = _execute(
            _path(address(usdc), address(dai)),
            AMOUNT,
            _splitHop(
                _swap(stableUsdcDai, address(usdc), address(dai), STABLE, 1),
                _curveSwap(ng2, address(usdc), address(dai), NG, 0, "")
            )
        );
        assertEq(out, expected);
        assertEq(usdc.balanceOf(ng2), poolUsdcBefore, "the Curve pool was paid");
        assertEq(dai.balanceOf(ng2), poolDaiBefore, "the Curve pool paid");

        FakeCurvePool fake = new FakeCurvePool(address(usdc), address(dai));
        IRouterV2.Swap[][] memory hops = _splitHop(
            _swap(stableUsdcDai, address(usdc), address(dai), STABLE, 1),
            _curveSwap(address(fake), address(usdc), address(dai), NG, 0, "")
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, address(fake)));
        _execute(_path(address(usdc), address(dai)), AMOUNT, hops);
    }

    // ---------------------------------------------------------------- attacks

    function test_poolNotDeployedByTheFactory_isRefused() public {
        FakeCurvePool fake = new FakeCurvePool(address(usdc), address(dai));
        dai.mint(address(fake), 1_000_000 ether);
        bytes[2] memory datas = [bytes(""), _pull()];
        for (uint256 d; d < 2; ++d) {
            IRouterV2.Swap[][] memory hops =
                _hops(_curveSwap(address(fake), address(usdc), address(dai), NG, AMOUNT, datas[d]));
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, address(fake)));
            _execute(_path(address(usdc), address(dai)), AMOUNT, hops);

            hops = _hops(_curveSwap(address(fake), address(dai), address(tokenA), TWO, DAI_AMOUNT, datas[d]));
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, TWO, address(fake)));
            _execute(_path(address(dai), address(tokenA)), DAI_AMOUNT, hops);
        }
        // Nor is the factory itself, nor no pool at all.
        IRouterV2.Swap[][] memory factoryHops =
            _hops(_curveSwap(address(ngFactory), address(usdc), address(dai), NG, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, address(ngFactory)));
        _execute(_path(address(usdc), address(dai)), AMOUNT, factoryHops);
        IRouterV2.Swap[][] memory zeroHops = _hops(_curveSwap(address(0), address(usdc), address(dai), NG, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, address(0)));
        _execute(_path(address(usdc), address(dai)), AMOUNT, zeroHops);
    }

    function test_realPoolUnderTheOtherCurveKind_isRefused() public {
        // The StableswapNG pool through the TwocryptoNG source, and the other way round.
        IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ng2, address(usdc), address(dai), TWO, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, TWO, ng2));
        _execute(_path(address(usdc), address(dai)), AMOUNT, hops);

        hops = _hops(_curveSwap(two, address(dai), address(tokenA), NG, DAI_AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, two));
        _execute(_path(address(dai), address(tokenA)), DAI_AMOUNT, hops);
    }

    function test_pairNotInThePool_isRefused() public {
        // USDT is not a coin of the 2-coin pool; A is not a coin of any NG pool; USDC not of the Twocrypto pool.
        IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ng2, address(usdt), address(dai), NG, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, ng2));
        _execute(_path(address(usdt), address(dai)), AMOUNT, hops);

        hops = _hops(_curveSwap(ng4, address(usdc), address(tokenA), NG, AMOUNT, _pull()));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG, ng4));
        _execute(_path(address(usdc), address(tokenA)), AMOUNT, hops);

        hops = _hops(_curveSwap(two, address(usdc), address(tokenA), TWO, AMOUNT, ""));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, TWO, two));
        _execute(_path(address(usdc), address(tokenA)), AMOUNT, hops);
    }

    function test_wrongData_isRefused() public {
        bytes[5] memory bad = [
            abi.encode(uint256(0)),
            abi.encode(uint256(2)),
            abi.encodePacked(uint8(1)),
            abi.encode(uint256(1), uint256(0)),
            abi.encodePacked(uint256(1), uint8(0))
        ];
        for (uint256 k; k < bad.length; ++k) {
            IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, bad[k]));
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, ng2));
            _execute(_path(address(usdc), address(dai)), AMOUNT, hops);

            hops = _hops(_curveSwap(two, address(dai), address(tokenA), TWO, DAI_AMOUNT, bad[k]));
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, two));
            _execute(_path(address(dai), address(tokenA)), DAI_AMOUNT, hops);
        }
    }

    function test_metapoolUnderlyingPair_isRefused_ownPairTrades() public {
        MockNGFactory mock = new MockNGFactory(address(ngFactory));
        vm.prank(owner);
        router.setSource(NG_MOCK, IRouterV2.SourceKind.CurveStableswapNG, address(mock), 4);
        IRouterV2.Swap[][] memory hops = _hops(_curveSwap(ng2, address(usdc), address(dai), NG_MOCK, AMOUNT, ""));

        // A metapool's underlying pair: the flag set and the pool a metapool.
        mock.set(true, true, false);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG_MOCK, ng2));
        _execute(_path(address(usdc), address(dai)), AMOUNT, hops);

        // An answer too short for NG's three words.
        mock.set(false, false, true);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, NG_MOCK, ng2));
        _execute(_path(address(usdc), address(dai)), AMOUNT, hops);

        // A metapool's own two coins (flag false): traded.
        mock.set(false, true, false);
        uint256 quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        assertEq(_execute(_path(address(usdc), address(dai)), AMOUNT, hops), quoted);

        // A plain pool (NG's flag is true on its plain-pool path, is_meta false): traded, as through the real factory.
        mock.set(true, false, false);
        quoted = _ngDy(ng2, address(usdc), address(dai), AMOUNT);
        assertEq(_execute(_path(address(usdc), address(dai)), AMOUNT, hops), quoted);
        _assertRouterEmpty();
    }

    function test_realFactoryAnswersTrueOnPlainPools() public view {
        // Why the flag alone cannot tell an underlying pair: the plain-pool path answers true.
        (,, bool isUnderlying) = ngFactory.get_coin_indices(ng2, address(usdc), address(dai));
        assertTrue(isUnderlying);
        assertFalse(ngFactory.is_meta(ng2));
    }

    // ---------------------------------------------------------------- gas

    /// @dev Sends `call_` from this contract (which holds the input and approved the router) and logs its gas.
    function _measure(string memory key, bytes memory call_) internal {
        address target = address(router);
        uint256 gasBefore = gasleft();
        (bool success, bytes memory returned) = target.call(call_);
        uint256 gasUsed = gasBefore - gasleft();
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returned, 32), mload(returned))
            }
        }
        emit log_named_uint(key, gasUsed);
        assertGt(abi.decode(returned, (uint256)), 0);
    }

    /// @dev The `executeSwaps` call of this contract, encoded without touching any state (so nothing is warmed).
    function _selfCall(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops)
        internal
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IRouterV2.executeSwaps, (path, amountIn, 0, 0, hops, 0, address(0)));
    }

    function test_gas_v2SingleHop() public {
        _measure(
            "router_v2_single_hop",
            _selfCall(
                _path(address(tokenA), address(tokenB)),
                1_000 ether,
                _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, 1_000 ether))
            )
        );
    }

    function test_gas_stableswapNGSingleHop() public {
        _measure(
            "router_curve_ng_single_hop",
            _selfCall(
                _path(address(usdc), address(dai)),
                AMOUNT,
                _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, ""))
            )
        );
    }

    function test_gas_stableswapNGSingleHopAllowancePath() public {
        _measure(
            "router_curve_ng_single_hop_allowance",
            _selfCall(
                _path(address(usdc), address(dai)),
                AMOUNT,
                _hops(_curveSwap(ng2, address(usdc), address(dai), NG, AMOUNT, _pull()))
            )
        );
    }

    function test_gas_twocryptoNGSingleHop() public {
        _measure(
            "router_curve_twocrypto_single_hop",
            _selfCall(
                _path(address(dai), address(tokenA)),
                DAI_AMOUNT,
                _hops(_curveSwap(two, address(dai), address(tokenA), TWO, DAI_AMOUNT, ""))
            )
        );
    }

    /// @dev The same trade straight on the pool (transfer, then `exchange_received`), no router: the floor.
    function test_gas_stableswapNGDirect() public {
        address pool = ng2;
        uint256 gasBefore = gasleft();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        usdc.transfer(pool, AMOUNT);
        uint256 out = ICurveStableSwapNG(pool).exchange_received(0, 1, AMOUNT, 0, address(this));
        uint256 gasUsed = gasBefore - gasleft();
        emit log_named_uint("direct_curve_ng_single_hop", gasUsed);
        assertGt(out, 0);
    }

    function test_gas_twocryptoNGDirect() public {
        address pool = two;
        uint256 gasBefore = gasleft();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        dai.transfer(pool, DAI_AMOUNT);
        uint256 out = ICurveTwocryptoNG(pool).exchange_received(0, 1, DAI_AMOUNT, 0, address(this));
        uint256 gasUsed = gasBefore - gasleft();
        emit log_named_uint("direct_curve_twocrypto_single_hop", gasUsed);
        assertGt(out, 0);
    }
}
