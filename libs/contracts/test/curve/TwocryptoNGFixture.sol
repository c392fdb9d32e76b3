// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {ICurveTwocryptoFactoryNG, ICurveTwocryptoNG} from "./ICurveTwocryptoNG.sol";
import {
    CurveTwocryptoFactoryNGStandIn,
    CurveTwocryptoNGBlueprint
} from "../../src/devnet/curve/CurveTwocryptoFactoryNGStandIn.sol";
import {CurveTwocryptoMathNGStandIn} from "../../src/devnet/curve/CurveTwocryptoMathNGStandIn.sol";
import {CurveTwocryptoViewNGStandIn} from "../../src/devnet/curve/CurveTwocryptoViewNGStandIn.sol";

/// @notice Shared set-up of the TwocryptoNG stand-in tests: a factory deployed and initialised as the Vyper's is (its
/// deployer, tx.origin at construction, calls initialise_ownership: fee receiver, admin = the test), with the stand-in
/// pool's blueprint at implementation id 0, the math contract and the views contract; helpers to make coins and pools.
abstract contract TwocryptoNGFixture is Test {
    /// @notice When the pools are deployed (the vectors' T0).
    uint256 internal constant T0 = 1_700_000_000;

    /// @notice The repository's "crypto" preset (tests/utils/pool_presets.csv): A, gamma, mid_fee, out_fee,
    /// fee_gamma, allowed_extra_profit, adjustment_step, ma_exp_time.
    uint256 internal constant A_CRYPTO = 400000;
    uint256 internal constant GAMMA_CRYPTO = 145000000000000;
    uint256 internal constant MID_FEE = 26000000;
    uint256 internal constant OUT_FEE = 45000000;
    uint256 internal constant FEE_GAMMA = 230000000000000;
    uint256 internal constant ALLOWED_EXTRA_PROFIT = 2000000000000;
    uint256 internal constant ADJUSTMENT_STEP = 146000000000000;
    uint256 internal constant MA_EXP_TIME = 866;

    CurveTwocryptoFactoryNGStandIn internal factory;
    ICurveTwocryptoFactoryNG internal ng;
    CurveTwocryptoMathNGStandIn internal math;
    CurveTwocryptoViewNGStandIn internal views;
    address internal blueprint;
    address internal deployer;
    address internal feeReceiver;
    address internal alice;
    address internal bob;

    function setUp() public virtual {
        vm.warp(T0);
        deployer = makeAddr("deployer");
        feeReceiver = makeAddr("feeReceiver");
        alice = makeAddr("alice");
        bob = makeAddr("bob");

        vm.prank(deployer, deployer);
        factory = new CurveTwocryptoFactoryNGStandIn();
        ng = ICurveTwocryptoFactoryNG(address(factory));
        vm.prank(deployer);
        ng.initialise_ownership(feeReceiver, address(this));

        math = new CurveTwocryptoMathNGStandIn();
        views = new CurveTwocryptoViewNGStandIn();
        blueprint = CurveTwocryptoNGBlueprint.deployStandIn();
        ng.set_pool_implementation(blueprint, 0);
        ng.set_math_implementation(address(math));
        ng.set_views_implementation(address(views));
    }

    /// @notice Two fresh TestERC20 coins, `supply` whole coins of each minted to the test.
    function _coins(uint8 d0, uint8 d1, uint256 supply) internal returns (address[2] memory coins) {
        TestERC20 c0 = new TestERC20("Coin0", "C0", d0);
        TestERC20 c1 = new TestERC20("Coin1", "C1", d1);
        c0.mint(address(this), supply * 10 ** d0);
        c1.mint(address(this), supply * 10 ** d1);
        coins = [address(c0), address(c1)];
    }

    /// @notice A pool with the crypto preset, through the factory (the Vyper's deploy_pool), approved for the test's
    /// coins.
    function _cryptoPool(address[2] memory coins, uint256 initialPrice) internal returns (ICurveTwocryptoNG) {
        uint256[8] memory p =
            [A_CRYPTO, GAMMA_CRYPTO, MID_FEE, OUT_FEE, FEE_GAMMA, ALLOWED_EXTRA_PROFIT, ADJUSTMENT_STEP, MA_EXP_TIME];
        return _pool(coins, p, initialPrice);
    }

    /// @notice A pool through the factory with `p` = A, gamma, mid_fee, out_fee, fee_gamma, allowed_extra_profit,
    /// adjustment_step, ma_exp_time; approved for the test's coins.
    function _pool(address[2] memory coins, uint256[8] memory p, uint256 initialPrice)
        internal
        returns (ICurveTwocryptoNG pool)
    {
        pool = ICurveTwocryptoNG(
            ng.deploy_pool(
                "Curve TwoCrypto", "crv2", coins, 0, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], initialPrice
            )
        );
        TestERC20(coins[0]).approve(address(pool), type(uint256).max);
        TestERC20(coins[1]).approve(address(pool), type(uint256).max);
    }

    function _balance(address coin, address account) internal view returns (uint256) {
        return TestERC20(coin).balanceOf(account);
    }
}
