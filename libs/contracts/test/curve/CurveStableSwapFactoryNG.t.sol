// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CurveNGFixture} from "./CurveNGFixture.sol";
import {ICurveStableSwapFactoryNG, ICurveStableSwapNG} from "./ICurveNG.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {
    CurveStableSwapFactoryNGStandIn,
    CurveStableSwapNGBlueprint
} from "../../src/devnet/curve/CurveStableSwapFactoryNGStandIn.sol";
import {CurveStableSwapNGStandIn} from "../../src/devnet/curve/CurveStableSwapNGStandIn.sol";

/// @notice The StableswapNG stand-in factory, called through NG's own interface (ICurveStableSwapFactoryNG, from the
/// Vyper): deployment from the blueprint, the registry and its getters, discovery, validation and admin.
contract CurveStableSwapFactoryNGTest is CurveNGFixture {
    ICurveStableSwapFactoryNG internal ng;

    function setUp() public override {
        super.setUp();
        ng = ICurveStableSwapFactoryNG(address(factory));
    }

    function test_setUp() public view {
        assertEq(ng.admin(), address(this));
        assertEq(ng.fee_receiver(), feeReceiver);
        assertEq(ng.pool_count(), 0);
        assertEq(ng.base_pool_count(), 0);
        assertEq(ng.pool_implementations(0), blueprint);
        assertEq(ng.asset_types(0), "Standard");
        assertEq(ng.asset_types(1), "Oracle");
        assertEq(ng.asset_types(2), "Rebasing");
        assertEq(ng.asset_types(3), "ERC4626");
        // The blueprint is EIP-5202: 0xFE7100 then the pool's initcode.
        assertEq(blueprint.code.length, type(CurveStableSwapNGStandIn).creationCode.length + 3);
        assertEq(uint8(blueprint.code[0]), 0xfe);
        assertEq(uint8(blueprint.code[1]), 0x71);
        assertEq(uint8(blueprint.code[2]), 0x00);
    }

    function test_plainPoolDeployed_isNGsEvent() public pure {
        assertEq(
            CurveStableSwapFactoryNGStandIn.PlainPoolDeployed.selector,
            keccak256("PlainPoolDeployed(address[],uint256,uint256,address)")
        );
    }

    function test_deployPlainPool_passesNGsArgumentsAndEmits() public {
        address[] memory coins = _coins(_u8s(18, 6, 8), 1e6);
        vm.expectEmit(true, true, true, true, address(factory));
        emit ICurveStableSwapFactoryNG.PlainPoolDeployed(coins, 150, 3000000, alice);
        vm.prank(alice);
        address pool = ng.deploy_plain_pool(
            "3pool NG",
            "3crvNG",
            coins,
            150,
            3000000,
            30000000000,
            600,
            0,
            new uint8[](3),
            new bytes4[](3),
            new address[](3)
        );

        ICurveStableSwapNG p = ICurveStableSwapNG(pool);
        assertEq(p.name(), "3pool NG");
        assertEq(p.symbol(), "3crvNG");
        assertEq(p.A(), 150);
        assertEq(p.fee(), 3000000);
        assertEq(p.offpeg_fee_multiplier(), 30000000000);
        assertEq(p.ma_exp_time(), 600);
        assertEq(p.N_COINS(), 3);
        for (uint256 k; k < 3; ++k) {
            assertEq(p.coins(k), coins[k]);
        }
        uint256[] memory rates = p.stored_rates();
        assertEq(rates[0], 1e18);
        assertEq(rates[1], 1e30);
        assertEq(rates[2], 1e28);
        assertEq(p.totalSupply(), 0);
    }

    function test_registry_getters() public {
        (address p, address[] memory coins) = _registeredPool();
        assertEq(ng.pool_count(), 1);
        assertEq(ng.pool_list(0), p);
        assertEq(ng.pool_list(1), address(0));
        assertEq(ng.get_n_coins(p), 3);
        address[] memory got = ng.get_coins(p);
        assertEq(got.length, 3);
        assertEq(got[2], coins[2]);
        uint256[] memory decimals = ng.get_decimals(p);
        assertEq(decimals[0], 6);
        assertEq(decimals[1], 18);
        uint256[] memory balances = ng.get_balances(p);
        assertEq(balances[0], 1000e6);
        assertEq(balances[1], 2000e18);
        assertEq(balances[2], 3000e6);
        assertEq(ng.get_A(p), 300);
        (uint256 fee, uint256 adminFee) = ng.get_fees(p);
        assertEq(fee, FEE);
        assertEq(adminFee, 5000000000);
        assertEq(ng.get_admin_balances(p).length, 3);
        assertEq(uint256(ng.get_pool_asset_types(p)[1]), 2);
        assertEq(ng.get_implementation_address(p), blueprint);
        assertFalse(ng.is_meta(p));
        assertEq(ng.get_base_pool(p), address(0));
        assertEq(ng.get_gauge(p), address(0));

        // An unknown pool has no coins.
        assertEq(ng.get_n_coins(alice), 0);
        assertEq(ng.get_coins(alice).length, 0);
    }

    function test_getCoinIndices() public {
        (address p, address[] memory coins) = _registeredPool();
        (int128 i, int128 j, bool underlying) = ng.get_coin_indices(p, coins[2], coins[0]);
        assertEq(int256(i), 2);
        assertEq(int256(j), 0);
        assertTrue(underlying); // as NG returns on its plain-pool path
        vm.expectRevert(CurveStableSwapFactoryNGStandIn.NoAvailableMarket.selector);
        ng.get_coin_indices(p, coins[0], makeAddr("stranger"));
    }

    /// @dev A 3-coin pool (6, 18, 6 decimals; the second flagged rebasing) with 1000, 2000 and 3000 coins in it.
    function _registeredPool() internal returns (address p, address[] memory coins) {
        coins = _coins(_u8s(6, 18, 6), 1e9);
        uint8[] memory assetTypes = new uint8[](3);
        assetTypes[1] = 2;
        CurveStableSwapNGStandIn pool = _pool(coins, assetTypes, new bytes4[](3), new address[](3), 300, FEE, OFFPEG);
        pool.add_liquidity(_amounts(1000e6, 2000e18, 3000e6), 0);
        p = address(pool);
    }

    function test_findPoolForCoins_everyPairEitherOrder_andByIndex() public {
        address[] memory coins = _coins(_u8s(18, 6, 6), 1e6);
        address first = address(_plainPool(coins, 100, FEE, OFFPEG));
        for (uint256 a; a < 3; ++a) {
            for (uint256 b; b < 3; ++b) {
                if (a == b) continue;
                assertEq(ng.find_pool_for_coins(coins[a], coins[b]), first);
            }
        }
        // A second pool of coins 0 and 2: index 1 of that pair.
        address[] memory pair = new address[](2);
        pair[0] = coins[2];
        pair[1] = coins[0];
        address second = address(_plainPool(pair, 500, FEE, OFFPEG));
        assertEq(ng.find_pool_for_coins(coins[0], coins[2], 0), first);
        assertEq(ng.find_pool_for_coins(coins[0], coins[2], 1), second);
        assertEq(ng.find_pool_for_coins(coins[2], coins[0], 1), second);
        assertEq(ng.find_pool_for_coins(coins[0], coins[2], 2), address(0));
        assertEq(ng.find_pool_for_coins(coins[0], coins[1], 1), address(0));
        assertEq(ng.find_pool_for_coins(coins[0], makeAddr("stranger")), address(0));
        assertEq(ng.pool_count(), 2);
        assertEq(ng.pool_list(1), second);
    }

    /// @notice A discovery written against NG's factory only (pool_count, pool_list, get_coins, get_coin_indices,
    /// the pool's get_dy / exchange) finds and trades the stand-in's pools.
    function test_discovery_againstNGsInterface() public {
        address[] memory coins = _coins(_u8s(6, 18), 1e9);
        _plainPool(coins, 200, FEE, OFFPEG).add_liquidity(_amounts(1_000_000e6, 1_000_000e18), 0);
        address[] memory coins4 = new address[](4);
        address[] memory extra = _coins(_u8s(18, 8), 1e9);
        coins4[0] = coins[1];
        coins4[1] = extra[0];
        coins4[2] = coins[0];
        coins4[3] = extra[1];
        uint256[] memory amounts = new uint256[](4);
        amounts[0] = 500_000e18;
        amounts[1] = 500_000e18;
        amounts[2] = 500_000e6;
        amounts[3] = 500_000e8;
        _plainPool(coins4, 1000, FEE, OFFPEG).add_liquidity(amounts, 0);

        // Best pool for selling 10,000 of coins[0] (6 decimals) for coins[1], over every pool holding both.
        (address best, int128 bi, int128 bj, uint256 bestOut) = _discover(coins[0], coins[1], 10_000e6);
        assertTrue(best != address(0));
        uint256 before = _balance(coins[1], address(this));
        assertEq(ICurveStableSwapNG(best).exchange(bi, bj, 10_000e6, bestOut), bestOut);
        assertEq(_balance(coins[1], address(this)) - before, bestOut);
    }

    function _discover(address from, address to, uint256 amount)
        internal
        view
        returns (address best, int128 bi, int128 bj, uint256 bestOut)
    {
        uint256 count = ng.pool_count();
        for (uint256 k; k < count; ++k) {
            address pool = ng.pool_list(k);
            if (!_holds(ng.get_coins(pool), from, to)) continue;
            (int128 i, int128 j,) = ng.get_coin_indices(pool, from, to);
            uint256 out = ICurveStableSwapNG(pool).get_dy(i, j, amount);
            if (out > bestOut) (best, bi, bj, bestOut) = (pool, i, j, out);
        }
    }

    function _holds(address[] memory coins, address a, address b) internal pure returns (bool) {
        bool hasA;
        bool hasB;
        for (uint256 c; c < coins.length; ++c) {
            hasA = hasA || coins[c] == a;
            hasB = hasB || coins[c] == b;
        }
        return hasA && hasB;
    }

    function test_deploy_8coins() public {
        uint8[] memory decimals = new uint8[](8);
        for (uint256 k; k < 8; ++k) {
            decimals[k] = k % 2 == 0 ? 18 : 6;
        }
        address[] memory coins = _coins(decimals, 1e6);
        CurveStableSwapNGStandIn pool = _plainPool(coins, 100, FEE, OFFPEG);
        assertEq(pool.N_COINS(), 8);
        assertEq(ng.get_n_coins(address(pool)), 8);
        assertEq(ng.find_pool_for_coins(coins[7], coins[0]), address(pool));
    }

    function test_deploy_validation() public {
        address[] memory coins = _coins(_u8s(18, 6), 1e6);
        uint8[] memory t2 = new uint8[](2);
        bytes4[] memory m2 = new bytes4[](2);
        address[] memory o2 = new address[](2);

        address[] memory one = new address[](1);
        one[0] = coins[0];
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.InvalidCoinCount.selector, 1));
        ng.deploy_plain_pool("n", "s", one, 100, FEE, OFFPEG, 866, 0, new uint8[](1), new bytes4[](1), new address[](1));

        address[] memory nine = new address[](9);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.InvalidCoinCount.selector, 9));
        ng.deploy_plain_pool(
            "n", "s", nine, 100, FEE, OFFPEG, 866, 0, new uint8[](9), new bytes4[](9), new address[](9)
        );

        vm.expectRevert(CurveStableSwapFactoryNGStandIn.ArrayLengthMismatch.selector);
        ng.deploy_plain_pool("n", "s", coins, 100, FEE, OFFPEG, 866, 0, new uint8[](3), m2, o2);

        vm.expectRevert(bytes("Invalid fee"));
        ng.deploy_plain_pool("n", "s", coins, 100, 100000001, 0, 866, 0, t2, m2, o2);

        vm.expectRevert(CurveStableSwapFactoryNGStandIn.OffpegFeeTooHigh.selector);
        ng.deploy_plain_pool("n", "s", coins, 100, 100000000, 500000000001, 866, 0, t2, m2, o2);

        vm.expectRevert(CurveStableSwapFactoryNGStandIn.StringTooLong.selector);
        ng.deploy_plain_pool("n", "symbol-11ch", coins, 100, FEE, OFFPEG, 866, 0, t2, m2, o2);

        vm.expectRevert(bytes("Invalid implementation index"));
        ng.deploy_plain_pool("n", "s", coins, 100, FEE, OFFPEG, 866, 1, t2, m2, o2);

        address[] memory dup = new address[](2);
        dup[0] = coins[0];
        dup[1] = coins[0];
        vm.expectRevert(bytes("Duplicate coins"));
        ng.deploy_plain_pool("n", "s", dup, 100, FEE, OFFPEG, 866, 0, t2, m2, o2);

        address[] memory wide = new address[](2);
        wide[0] = coins[0];
        wide[1] = address(new TestERC20("Wide", "W", 19));
        vm.expectRevert(bytes("Max 18 decimals for coins"));
        ng.deploy_plain_pool("n", "s", wide, 100, FEE, OFFPEG, 866, 0, t2, m2, o2);

        // The pool's own check, passed on from its constructor.
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidMaExpTime.selector);
        ng.deploy_plain_pool("n", "s", coins, 100, FEE, OFFPEG, 0, 0, t2, m2, o2);

        assertEq(ng.pool_count(), 0);
    }

    function test_admin() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.OnlyAdmin.selector, alice));
        ng.set_pool_implementations(1, alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.OnlyAdmin.selector, alice));
        ng.set_fee_receiver(address(0), alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.OnlyAdmin.selector, alice));
        ng.commit_transfer_ownership(alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapFactoryNGStandIn.OnlyFutureAdmin.selector, alice));
        ng.accept_transfer_ownership();
        vm.stopPrank();

        ng.set_fee_receiver(address(0), bob);
        assertEq(ng.fee_receiver(), bob);
        ng.set_pool_implementations(7, blueprint);
        assertEq(ng.pool_implementations(7), blueprint);

        ng.commit_transfer_ownership(alice);
        assertEq(ng.future_admin(), alice);
        vm.prank(alice);
        ng.accept_transfer_ownership();
        assertEq(ng.admin(), alice);
        assertEq(ng.future_admin(), address(0));
    }

    function test_blueprint_cannotBeCalled() public {
        (bool ok,) = blueprint.call{gas: 100_000}("");
        assertFalse(ok);
        address again = CurveStableSwapNGBlueprint.deployStandIn();
        assertEq(again.code.length, blueprint.code.length);
    }
}
