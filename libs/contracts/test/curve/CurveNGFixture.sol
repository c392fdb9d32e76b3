// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "../base/Test.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {CurveStableSwapNGStandIn} from "../../src/devnet/curve/CurveStableSwapNGStandIn.sol";
import {
    CurveStableSwapFactoryNGStandIn,
    CurveStableSwapNGBlueprint
} from "../../src/devnet/curve/CurveStableSwapFactoryNGStandIn.sol";

/// @notice Shared set-up of the StableswapNG stand-in tests: a factory (admin: the test, a fee receiver) with the
/// stand-in pool's blueprint at implementation index 0, and helpers to make coins and pools.
abstract contract CurveNGFixture is Test {
    /// @notice When the pools are deployed (the vectors' T0; past MIN_RAMP_TIME so ramps may start at once).
    uint256 internal constant T0 = 1_700_000_000;

    /// @notice Fee settings common in NG deployments: 4 bps, off-peg multiplier 2.
    uint256 internal constant FEE = 4000000;
    uint256 internal constant OFFPEG = 20000000000;

    CurveStableSwapFactoryNGStandIn internal factory;
    address internal blueprint;
    address internal feeReceiver;
    address internal alice;
    address internal bob;

    function setUp() public virtual {
        vm.warp(T0);
        feeReceiver = makeAddr("feeReceiver");
        alice = makeAddr("alice");
        bob = makeAddr("bob");
        factory = new CurveStableSwapFactoryNGStandIn(feeReceiver, address(this));
        blueprint = CurveStableSwapNGBlueprint.deployStandIn();
        factory.set_pool_implementations(0, blueprint);
    }

    /// @notice Fresh TestERC20 coins with the given decimals, `supply` whole coins of each minted to the test.
    function _coins(uint8[] memory decimals, uint256 supply) internal returns (address[] memory coins) {
        coins = new address[](decimals.length);
        for (uint256 k; k < decimals.length; ++k) {
            TestERC20 coin = new TestERC20("Coin", "C", decimals[k]);
            coin.mint(address(this), supply * 10 ** decimals[k]);
            coins[k] = address(coin);
        }
    }

    /// @notice A pool of standard coins.
    function _plainPool(address[] memory coins, uint256 A, uint256 fee, uint256 offpeg)
        internal
        returns (CurveStableSwapNGStandIn)
    {
        uint256 n = coins.length;
        return _pool(coins, new uint8[](n), new bytes4[](n), new address[](n), A, fee, offpeg);
    }

    /// @notice A pool through the factory, approved for the test's coins.
    function _pool(
        address[] memory coins,
        uint8[] memory assetTypes,
        bytes4[] memory methodIds,
        address[] memory oracles,
        uint256 A,
        uint256 fee,
        uint256 offpeg
    ) internal returns (CurveStableSwapNGStandIn pool) {
        pool = CurveStableSwapNGStandIn(
            factory.deploy_plain_pool(
                "Curve NG", "crvNG", coins, A, fee, offpeg, 866, 0, assetTypes, methodIds, oracles
            )
        );
        for (uint256 k; k < coins.length; ++k) {
            TestERC20(coins[k]).approve(address(pool), type(uint256).max);
        }
    }

    function _u8s(uint8 a, uint8 b) internal pure returns (uint8[] memory r) {
        r = new uint8[](2);
        r[0] = a;
        r[1] = b;
    }

    function _u8s(uint8 a, uint8 b, uint8 c) internal pure returns (uint8[] memory r) {
        r = new uint8[](3);
        r[0] = a;
        r[1] = b;
        r[2] = c;
    }

    function _amounts(uint256 a, uint256 b) internal pure returns (uint256[] memory r) {
        r = new uint256[](2);
        r[0] = a;
        r[1] = b;
    }

    function _amounts(uint256 a, uint256 b, uint256 c) internal pure returns (uint256[] memory r) {
        r = new uint256[](3);
        r[0] = a;
        r[1] = b;
        r[2] = c;
    }

    function _i128(uint256 i) internal pure returns (int128) {
        // casting to 'int128' is safe because coin indices are below 8.
        // forge-lint: disable-next-line(unsafe-typecast)
        return int128(int256(i));
    }

    function _balance(address coin, address account) internal view returns (uint256) {
        return TestERC20(coin).balanceOf(account);
    }
}
