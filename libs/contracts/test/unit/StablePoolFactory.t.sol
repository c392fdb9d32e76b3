// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {StableFixture} from "../fixtures/StableFixture.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {StablePoolFactory} from "../../src/sources/stable/StablePoolFactory.sol";
import {StablePool} from "../../src/sources/stable/StablePool.sol";
import {IStablePoolFactory} from "../../src/sources/stable/interfaces/IStablePoolFactory.sol";
import {IStablePool} from "../../src/sources/stable/interfaces/IStablePool.sol";
import {NineteenDecimalsToken} from "../mocks/BadTokens.sol";

contract StablePoolFactoryTest is StableFixture {
    TestERC20 internal usdt;

    function setUp() public override {
        super.setUp();
        usdt = new TestERC20("Tether USD", "USDT", 6);
    }

    function _sorted(address a, address b) internal pure returns (address, address) {
        return a < b ? (a, b) : (b, a);
    }

    // ---------------------------------------------------------------- constructor

    function test_constructor_setsTheFee() public view {
        assertEq(factory.swapFeeBps(), FEE_BPS);
        assertEq(factory.getFee(address(pool), true), FEE_BPS);
        assertEq(factory.getFee(address(0), false), FEE_BPS);
        assertEq(factory.MAX_SWAP_FEE_BPS(), 1000);
    }

    function test_constructor_revertsAboveTheMaximumFee() public {
        vm.expectRevert(abi.encodeWithSelector(IStablePoolFactory.SwapFeeTooHigh.selector, 1001));
        new StablePoolFactory(1001);
    }

    // ---------------------------------------------------------------- createPool / createPair

    function test_createPool_registersSortedTokensAndEmits() public {
        (address t0, address t1) = _sorted(address(usdt), address(usdc));
        bytes32 salt = keccak256(abi.encodePacked(t0, t1, true));
        address expected = address(
            uint160(
                uint256(
                    keccak256(abi.encodePacked(bytes1(0xff), address(factory), salt, factory.INIT_CODE_POOL_HASH()))
                )
            )
        );

        vm.expectEmit(address(factory));
        emit IStablePoolFactory.PoolCreated(t0, t1, true, expected, 2);
        address created = factory.createPool(address(usdt), address(usdc), true);

        assertEq(created, expected);
        assertEq(factory.getPool(address(usdc), address(usdt), true), created);
        assertEq(factory.getPool(address(usdt), address(usdc), true), created);
        assertEq(factory.getPair(address(usdc), address(usdt), true), created);
        assertEq(factory.getPool(address(usdc), address(usdt), false), address(0));
        assertEq(factory.allPools(1), created);
        assertEq(factory.allPairs(1), created);
        assertEq(factory.allPoolsLength(), 2);
        assertEq(factory.allPairsLength(), 2);
        assertTrue(factory.isPool(created));
        assertTrue(factory.isPair(created));

        StablePool p = StablePool(created);
        assertEq(p.token0(), t0);
        assertEq(p.token1(), t1);
        assertEq(p.factory(), address(factory));
        assertEq(p.swapFeeBps(), FEE_BPS);
        assertTrue(p.stable());
    }

    function test_createPair_isTheSolidlyNameOfCreatePool() public {
        address created = factory.createPair(address(usdc), address(usdt), true);
        assertEq(factory.getPool(address(usdt), address(usdc), true), created);
        assertTrue(factory.isPool(created));
    }

    function test_createPool_revertsForVolatilePools() public {
        vm.expectRevert(IStablePoolFactory.VolatileNotSupported.selector);
        factory.createPool(address(usdc), address(usdt), false);
        vm.expectRevert(IStablePoolFactory.VolatileNotSupported.selector);
        factory.createPair(address(usdc), address(usdt), false);
    }

    function test_createPool_revertsOnIdenticalTokens() public {
        vm.expectRevert(IStablePoolFactory.SameAddress.selector);
        factory.createPool(address(usdt), address(usdt), true);
    }

    function test_createPool_revertsOnTheZeroAddressInEitherPosition() public {
        vm.expectRevert(IStablePoolFactory.ZeroAddress.selector);
        factory.createPool(address(0), address(usdt), true);
        vm.expectRevert(IStablePoolFactory.ZeroAddress.selector);
        factory.createPair(address(usdt), address(0), true);
    }

    function test_createPool_revertsOnADuplicateUnderEitherName() public {
        vm.expectRevert(abi.encodeWithSelector(IStablePoolFactory.PoolAlreadyExists.selector, address(pool)));
        factory.createPool(address(dai), address(usdc), true);
        vm.expectRevert(abi.encodeWithSelector(IStablePoolFactory.PoolAlreadyExists.selector, address(pool)));
        factory.createPair(address(usdc), address(dai), true);
    }

    function test_createPool_revertsForTokensWithMoreThan18Decimals() public {
        NineteenDecimalsToken wide = new NineteenDecimalsToken();
        vm.expectRevert(abi.encodeWithSelector(IStablePool.UnsupportedDecimals.selector, address(wide), uint8(19)));
        factory.createPool(address(wide), address(usdc), true);
    }

    function test_getInitializable_isEmptyOutsideCreation() public view {
        (address t0, address t1) = factory.getInitializable();
        assertEq(t0, address(0));
        assertEq(t1, address(0));
    }

    function test_isPool_isFalseForOtherAddresses() public view {
        assertFalse(factory.isPool(address(usdc)));
        assertFalse(factory.isPair(alice));
        assertFalse(factory.isPool(address(0)));
    }

    function test_initCodeHash_isThePoolCreationCode() public view {
        assertEq(factory.INIT_CODE_POOL_HASH(), keccak256(type(StablePool).creationCode));
    }
}
