// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TwocryptoNGFixture} from "./TwocryptoNGFixture.sol";
import {ICurveTwocryptoFactoryNG, ICurveTwocryptoNG} from "./ICurveTwocryptoNG.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {
    CurveTwocryptoFactoryNGStandIn,
    CurveTwocryptoNGBlueprint
} from "../../src/devnet/curve/CurveTwocryptoFactoryNGStandIn.sol";
import {CurveTwocryptoNGStandIn} from "../../src/devnet/curve/CurveTwocryptoNGStandIn.sol";

/// @notice The TwocryptoNG stand-in factory, called through the Vyper's own interface (ICurveTwocryptoFactoryNG):
/// ownership initialisation, the implementation registry (blueprints), deployment and its event, the registry getters
/// and discovery, validation and admin.
contract TwocryptoNGFactoryTest is TwocryptoNGFixture {
    function test_setUp() public view {
        assertEq(ng.admin(), address(this));
        assertEq(ng.fee_receiver(), feeReceiver);
        assertEq(ng.future_admin(), address(0));
        assertEq(ng.pool_count(), 0);
        assertEq(ng.pool_implementations(0), blueprint);
        assertEq(ng.math_implementation(), address(math));
        assertEq(ng.views_implementation(), address(views));
        assertEq(ng.gauge_implementation(), address(0));
        // The blueprint is EIP-5202: 0xFE7100 then the pool's initcode.
        assertEq(blueprint.code.length, type(CurveTwocryptoNGStandIn).creationCode.length + 3);
        assertEq(uint8(blueprint.code[0]), 0xfe);
        assertEq(uint8(blueprint.code[1]), 0x71);
        assertEq(uint8(blueprint.code[2]), 0x00);
    }

    function test_twocryptoPoolDeployed_isTheVypersEvent() public pure {
        assertEq(
            CurveTwocryptoFactoryNGStandIn.TwocryptoPoolDeployed.selector,
            keccak256(
                "TwocryptoPoolDeployed(address,string,string,address[2],address,bytes32,uint256[2],uint256,uint256,uint256,uint256,address)"
            )
        );
        assertEq(
            CurveTwocryptoFactoryNGStandIn.UpdatePoolImplementation.selector,
            keccak256("UpdatePoolImplementation(uint256,address,address)")
        );
        assertEq(
            CurveTwocryptoFactoryNGStandIn.TransferOwnership.selector, keccak256("TransferOwnership(address,address)")
        );
    }

    function test_initialiseOwnership_onceByTheDeployer() public {
        vm.prank(deployer);
        vm.expectRevert("already initialised");
        ng.initialise_ownership(alice, alice);

        vm.prank(alice, alice);
        CurveTwocryptoFactoryNGStandIn f = new CurveTwocryptoFactoryNGStandIn();
        vm.expectRevert("deployer only");
        ICurveTwocryptoFactoryNG(address(f)).initialise_ownership(bob, bob);
        vm.expectEmit(address(f));
        emit ICurveTwocryptoFactoryNG.UpdateFeeReceiver(address(0), bob);
        vm.expectEmit(address(f));
        emit ICurveTwocryptoFactoryNG.TransferOwnership(address(0), alice);
        vm.prank(alice);
        ICurveTwocryptoFactoryNG(address(f)).initialise_ownership(bob, alice);
        assertEq(ICurveTwocryptoFactoryNG(address(f)).admin(), alice);
        assertEq(ICurveTwocryptoFactoryNG(address(f)).fee_receiver(), bob);
    }

    function test_deployPool_passesTheArgumentsAndEmits() public {
        address[2] memory c = _coins(8, 18, 1e6);
        vm.roll(100);
        bytes32 salt = blockhash(99);
        uint256 packedGammaA = 2e16 | (uint256(2_000_000) << 128);
        uint256 packedFees = (uint256(5e6) << 128) | (uint256(8e7) << 64) | 1e16;
        uint256 packedRebalancing = (uint256(1e12) << 128) | (uint256(1e14) << 64) | 600;

        address expected = _nextPoolAddress();
        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.TwocryptoPoolDeployed(
            expected,
            "BTC/ETH",
            "btceth",
            c,
            address(math),
            salt,
            [uint256(1e10), 1],
            packedGammaA,
            packedFees,
            packedRebalancing,
            20e18,
            alice
        );
        vm.prank(alice);
        address pool =
            ng.deploy_pool("BTC/ETH", "btceth", c, 0, 2_000_000, 2e16, 5e6, 8e7, 1e16, 1e12, 1e14, 600, 20e18);

        assertEq(pool, expected);
        ICurveTwocryptoNG p = ICurveTwocryptoNG(pool);
        assertEq(p.name(), "BTC/ETH");
        assertEq(p.symbol(), "btceth");
        assertEq(p.coins(0), c[0]);
        assertEq(p.coins(1), c[1]);
        assertEq(p.factory(), address(factory));
        assertEq(p.MATH(), address(math));
        assertEq(p.A(), 2_000_000);
        assertEq(p.gamma(), 2e16);
        assertEq(p.packed_fee_params(), packedFees);
        assertEq(p.packed_rebalancing_params(), packedRebalancing);
        assertEq(p.price_scale(), 20e18);
        uint256[2] memory precisions = p.precisions();
        assertEq(precisions[0], 1e10);
        assertEq(precisions[1], 1);

        // The registry.
        assertEq(ng.pool_count(), 1);
        assertEq(ng.pool_list(0), pool);
        address[2] memory coins_ = ng.get_coins(pool);
        assertEq(coins_[0], c[0]);
        assertEq(coins_[1], c[1]);
        uint256[2] memory decimals = ng.get_decimals(pool);
        assertEq(decimals[0], 8);
        assertEq(decimals[1], 18);
        assertEq(ng.get_gauge(pool), address(0));
    }

    function test_registry_findsAndIndexesPools() public {
        address[2] memory c = _coins(6, 18, 1e9);
        address[2] memory d = _coins(18, 18, 1e9);
        ICurveTwocryptoNG p1 = _cryptoPool(c, 2000e18);
        ICurveTwocryptoNG p2 = _cryptoPool(d, 1e18);
        ICurveTwocryptoNG p3 = _cryptoPool([c[1], c[0]], 1e15); // the same pair, the other way round

        assertEq(ng.pool_count(), 3);
        assertEq(ng.pool_list(0), address(p1));
        assertEq(ng.pool_list(1), address(p2));
        assertEq(ng.pool_list(2), address(p3));
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoFactoryNGStandIn.IndexOutOfRange.selector, 3));
        ng.pool_list(3);

        // Either order of the coins finds the pair's pools, in deployment order.
        assertEq(ng.find_pool_for_coins(c[0], c[1]), address(p1));
        assertEq(ng.find_pool_for_coins(c[1], c[0]), address(p1));
        assertEq(ng.find_pool_for_coins(c[0], c[1], 1), address(p3));
        assertEq(ng.find_pool_for_coins(d[0], d[1], 0), address(p2));
        assertEq(ng.get_market_counts(c[1], c[0]), 2);
        assertEq(ng.get_market_counts(c[0], d[0]), 0);
        // No i-th pool: a revert, not the zero address.
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoFactoryNGStandIn.IndexOutOfRange.selector, 2));
        ng.find_pool_for_coins(c[0], c[1], 2);
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoFactoryNGStandIn.IndexOutOfRange.selector, 0));
        ng.find_pool_for_coins(c[0], d[0]);

        (uint256 i, uint256 j) = ng.get_coin_indices(address(p3), c[0], c[1]);
        assertEq(i, 1);
        assertEq(j, 0);
        (i, j) = ng.get_coin_indices(address(p1), c[0], c[1]);
        assertEq(i, 0);
        assertEq(j, 1);
        vm.expectRevert("Coins not found");
        ng.get_coin_indices(address(p1), c[0], d[0]);

        p1.add_liquidity([uint256(2_000_000e6), 1000e18], 0);
        p1.exchange(0, 1, 1000e6, 0);
        uint256[2] memory b = ng.get_balances(address(p1));
        assertEq(b[0], p1.balances(0));
        assertEq(b[1], p1.balances(1));
    }

    function test_deployPool_validation() public {
        address[2] memory c = _coins(18, 18, 1);
        uint256[11] memory ok = [
            A_CRYPTO,
            GAMMA_CRYPTO,
            MID_FEE,
            OUT_FEE,
            FEE_GAMMA,
            ALLOWED_EXTRA_PROFIT,
            ADJUSTMENT_STEP,
            MA_EXP_TIME,
            1e18,
            0,
            0
        ];

        _expectDeployRevert(c, ok, 2, 1e10 - 1, "fee mid>max");
        _expectDeployRevert(c, ok, 3, MID_FEE - 1, "fee out<mid");
        _expectDeployRevert(c, ok, 3, 1e10 - 1, "fee out>max");
        _expectDeployRevert(c, ok, 4, 1e18 + 1, "fee_gamma>max");
        _expectDeployRevert(c, ok, 4, 0, "fee_gamma==0");
        _expectDeployRevert(c, ok, 5, 1e18 + 1, "allowed_extra_profit>max");
        _expectDeployRevert(c, ok, 6, 1e18 + 1, "adjustment_step>max");
        _expectDeployRevert(c, ok, 6, 0, "adjustment_step==0");
        _expectDeployRevert(c, ok, 7, 872542, "ma_exp_time>max");
        _expectDeployRevert(c, ok, 7, 86, "ma_exp_time<min");
        _expectDeployRevert(c, ok, 8, 1e6, "initial price out of bound");
        _expectDeployRevert(c, ok, 8, 1e30, "initial price out of bound");
        // A and gamma are checked by the pool's constructor.
        _expectDeployRevert(c, ok, 0, 3999, "A<MIN");
        _expectDeployRevert(c, ok, 0, 40_000_001, "A>MAX");
        _expectDeployRevert(c, ok, 1, 1e10 - 1, "gamma<MIN");
        _expectDeployRevert(c, ok, 1, 199e15 + 1, "gamma>MAX");

        vm.expectRevert("same coins");
        ng.deploy_pool("x", "x", [c[0], c[0]], 0, A_CRYPTO, GAMMA_CRYPTO, 0, 0, 1, 0, 1, 600, 1e18);

        TestERC20 d19 = new TestERC20("D", "D", 19);
        vm.expectRevert("max 18 decimals for coins");
        ng.deploy_pool("x", "x", [c[0], address(d19)], 0, A_CRYPTO, GAMMA_CRYPTO, 0, 0, 1, 0, 1, 600, 1e18);

        vm.expectRevert("pool implementation not set");
        ng.deploy_pool("x", "x", c, 1, A_CRYPTO, GAMMA_CRYPTO, 0, 0, 1, 0, 1, 600, 1e18);

        vm.expectRevert(CurveTwocryptoFactoryNGStandIn.StringTooLong.selector);
        ng.deploy_pool(
            "12345678901234567890123456789012345678901234567890123456789012345",
            "x",
            c,
            0,
            A_CRYPTO,
            GAMMA_CRYPTO,
            0,
            0,
            1,
            0,
            1,
            600,
            1e18
        );

        // The bounds themselves are accepted (mid_fee may be zero).
        ng.deploy_pool("x", "x", c, 0, A_CRYPTO, GAMMA_CRYPTO, 0, 1e10 - 2, 1e18, 1e18, 1e18, 872541, 1e6 + 1);
        ng.deploy_pool("x", "x", c, 0, 4000, 1e10, 0, 0, 1, 0, 1, 87, 1e30 - 1);
    }

    function test_admin_setters() public {
        address other = makeAddr("other");
        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.UpdatePoolImplementation(3, address(0), other);
        ng.set_pool_implementation(other, 3);
        assertEq(ng.pool_implementations(3), other);

        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.UpdateFeeReceiver(feeReceiver, other);
        ng.set_fee_receiver(other);
        assertEq(ng.fee_receiver(), other);

        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.UpdateGaugeImplementation(address(0), other);
        ng.set_gauge_implementation(other);

        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.UpdateViewsImplementation(address(views), other);
        ng.set_views_implementation(other);

        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.UpdateMathImplementation(address(math), address(0));
        ng.set_math_implementation(address(0));
        address[2] memory c = _coins(18, 18, 1);
        vm.expectRevert("math implementation not set");
        ng.deploy_pool("x", "x", c, 0, A_CRYPTO, GAMMA_CRYPTO, 0, 0, 1, 0, 1, 600, 1e18);

        vm.startPrank(alice);
        vm.expectRevert("admin only");
        ng.set_pool_implementation(other, 0);
        vm.expectRevert("admin only");
        ng.set_fee_receiver(other);
        vm.expectRevert("admin only");
        ng.set_gauge_implementation(other);
        vm.expectRevert("admin only");
        ng.set_views_implementation(other);
        vm.expectRevert("admin only");
        ng.set_math_implementation(other);
        vm.expectRevert("admin only");
        ng.commit_transfer_ownership(alice);
        vm.stopPrank();
    }

    /// @notice The pools read the factory's admin, fee receiver and views contract live.
    function test_poolsFollowTheFactory() public {
        address[2] memory c = _coins(18, 18, 1e9);
        ICurveTwocryptoNG p = _cryptoPool(c, 1e18);
        p.add_liquidity([uint256(1e24), 1e24], 0);
        uint256 quoted = p.get_dy(0, 1, 1e21);

        ng.commit_transfer_ownership(alice);
        assertEq(ng.future_admin(), alice);
        vm.expectRevert("future admin only");
        ng.accept_transfer_ownership();
        vm.expectEmit(address(factory));
        emit ICurveTwocryptoFactoryNG.TransferOwnership(address(this), alice);
        vm.prank(alice);
        ng.accept_transfer_ownership();
        assertEq(ng.admin(), alice);
        assertEq(p.admin(), alice);
        vm.expectRevert("only owner");
        p.stop_ramp_A_gamma();

        vm.startPrank(alice);
        ng.set_fee_receiver(bob);
        ng.set_views_implementation(address(0));
        vm.stopPrank();
        assertEq(p.fee_receiver(), bob);
        vm.expectRevert();
        p.get_dy(0, 1, 1e21); // no views contract: the quote reverts
        vm.prank(alice);
        ng.set_views_implementation(address(views));
        assertEq(p.get_dy(0, 1, 1e21), quoted);
    }

    function test_unknownSelector_reverts() public {
        (bool ok, bytes memory ret) = address(factory).call(abi.encodeWithSignature("deploy_gauge(address)", alice));
        assertFalse(ok);
        assertEq(ret.length, 0);
    }

    // ---------------------------------------------------------------- helpers

    function _expectDeployRevert(
        address[2] memory c,
        uint256[11] memory valid,
        uint256 index,
        uint256 value,
        string memory reason
    ) internal {
        uint256[11] memory args; // a copy: memory arrays are passed by reference
        for (uint256 k; k < 11; ++k) {
            args[k] = valid[k];
        }
        args[index] = value;
        vm.expectRevert(bytes(reason));
        ng.deploy_pool("x", "x", c, 0, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8]);
    }

    function _nextPoolAddress() internal view returns (address) {
        return vm.computeCreateAddress(address(factory), vm.getNonce(address(factory)));
    }
}
