// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {V2Fixture} from "../fixtures/V2Fixture.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {UniswapV2Factory} from "../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {IUniswapV2Factory} from "../../src/sources/v2/interfaces/IUniswapV2Factory.sol";

contract UniswapV2FactoryTest is V2Fixture {
    TestERC20 internal tokenC;

    function setUp() public override {
        super.setUp();
        tokenC = new TestERC20("Token C", "TKC", 6);
    }

    function _create2Address(address deployer, bytes32 salt, bytes32 initCodeHash) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), deployer, salt, initCodeHash)))));
    }

    // ---------------------------------------------------------------- constructor

    function test_constructor_setsTheFeeAndTheSetter() public view {
        assertEq(factory.swapFeeBps(), FEE_BPS);
        assertEq(factory.feeToSetter(), feeSetter);
        assertEq(factory.feeTo(), address(0));
        assertEq(factory.allPairsLength(), 1);
        assertEq(factory.MAX_SWAP_FEE_BPS(), 1000);
    }

    function test_constructor_acceptsZeroAndTheMaximumFee() public {
        assertEq(new UniswapV2Factory(feeSetter, 0).swapFeeBps(), 0);
        assertEq(new UniswapV2Factory(feeSetter, 1000).swapFeeBps(), 1000);
    }

    function test_constructor_revertsAboveTheMaximumFee() public {
        vm.expectRevert(abi.encodeWithSelector(IUniswapV2Factory.SwapFeeTooHigh.selector, 1001));
        new UniswapV2Factory(feeSetter, 1001);
    }

    // ---------------------------------------------------------------- createPair

    function test_createPair_registersSortedTokensAndEmits() public {
        (address t0, address t1) =
            address(token0) < address(tokenC) ? (address(token0), address(tokenC)) : (address(tokenC), address(token0));
        address expected =
            _create2Address(address(factory), keccak256(abi.encodePacked(t0, t1)), factory.INIT_CODE_PAIR_HASH());

        vm.expectEmit(address(factory));
        emit IUniswapV2Factory.PairCreated(t0, t1, expected, 2);
        address created = factory.createPair(address(tokenC), address(token0));

        assertEq(created, expected);
        assertEq(factory.getPair(address(token0), address(tokenC)), created);
        assertEq(factory.getPair(address(tokenC), address(token0)), created);
        assertEq(factory.allPairs(1), created);
        assertEq(factory.allPairsLength(), 2);
        assertTrue(factory.isPair(created));

        UniswapV2Pair p = UniswapV2Pair(created);
        assertEq(p.token0(), t0);
        assertEq(p.token1(), t1);
        assertEq(p.factory(), address(factory));
        assertEq(p.swapFeeBps(), FEE_BPS);
    }

    function test_createPair_initCodeHashIsTheSameForEveryFee() public {
        UniswapV2Factory other = new UniswapV2Factory(feeSetter, 10);
        assertEq(other.INIT_CODE_PAIR_HASH(), factory.INIT_CODE_PAIR_HASH());
        assertEq(other.INIT_CODE_PAIR_HASH(), keccak256(type(UniswapV2Pair).creationCode));
        UniswapV2Pair p = UniswapV2Pair(other.createPair(address(token0), address(token1)));
        assertEq(p.swapFeeBps(), 10);
        assertTrue(address(p) != address(pair));
    }

    function test_createPair_revertsOnIdenticalTokens() public {
        vm.expectRevert(IUniswapV2Factory.IdenticalAddresses.selector);
        factory.createPair(address(tokenC), address(tokenC));
    }

    function test_createPair_revertsOnTheZeroAddressInEitherPosition() public {
        vm.expectRevert(IUniswapV2Factory.ZeroAddress.selector);
        factory.createPair(address(0), address(tokenC));
        vm.expectRevert(IUniswapV2Factory.ZeroAddress.selector);
        factory.createPair(address(tokenC), address(0));
    }

    function test_createPair_revertsOnADuplicateInEitherOrder() public {
        vm.expectRevert(abi.encodeWithSelector(IUniswapV2Factory.PairExists.selector, address(pair)));
        factory.createPair(address(token0), address(token1));
        vm.expectRevert(abi.encodeWithSelector(IUniswapV2Factory.PairExists.selector, address(pair)));
        factory.createPair(address(token1), address(token0));
    }

    function test_isPair_isFalseForOtherAddresses() public view {
        assertTrue(factory.isPair(address(pair)));
        assertFalse(factory.isPair(address(token0)));
        assertFalse(factory.isPair(address(0)));
        assertFalse(factory.isPair(alice));
    }

    function test_getPair_isZeroForAnUnknownPair() public view {
        assertEq(factory.getPair(address(token0), address(tokenC)), address(0));
    }

    // ---------------------------------------------------------------- fee settings

    function test_setFeeTo_bySetter() public {
        vm.prank(feeSetter);
        factory.setFeeTo(bob);
        assertEq(factory.feeTo(), bob);
    }

    function test_setFeeTo_revertsForOthers() public {
        vm.expectRevert(IUniswapV2Factory.Forbidden.selector);
        vm.prank(alice);
        factory.setFeeTo(alice);
    }

    function test_setFeeToSetter_handsOverTheRole() public {
        vm.prank(feeSetter);
        factory.setFeeToSetter(alice);
        assertEq(factory.feeToSetter(), alice);

        vm.expectRevert(IUniswapV2Factory.Forbidden.selector);
        vm.prank(feeSetter);
        factory.setFeeTo(feeSetter);

        vm.prank(alice);
        factory.setFeeTo(bob);
        assertEq(factory.feeTo(), bob);
    }

    function test_setFeeToSetter_revertsForOthers() public {
        vm.expectRevert(IUniswapV2Factory.Forbidden.selector);
        vm.prank(alice);
        factory.setFeeToSetter(alice);
    }
}
