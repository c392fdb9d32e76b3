// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Launchpad} from "../../../src/launchpad/Launchpad.sol";
import {UniswapV2Factory} from "../../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

/// @notice A creator or trader contract that refuses native coin (no receive function).
contract NativeRefuser {
    Launchpad private immutable _launchpad;

    constructor(Launchpad launchpad) {
        _launchpad = launchpad;
    }

    function create() external payable returns (address) {
        return _launchpad.createToken{value: msg.value}("Refuser", "REF", "", "", "", "", "", "", 0);
    }

    function buy(address token) external payable {
        _launchpad.buyTokens{value: msg.value}(token);
    }

    function sell(address token, uint256 amount) external {
        _launchpad.sellTokens(token, amount);
    }

    function withdrawCreatorFees() external returns (uint256) {
        return _launchpad.withdrawCreatorFees();
    }
}

/// @notice Re-enters the launchpad from its receive hook (on a sale's payout or a refund).
contract ReentrantTrader {
    Launchpad private immutable _launchpad;
    address private _token;
    bool private _armed;

    constructor(Launchpad launchpad) {
        _launchpad = launchpad;
    }

    function buy(address token) external payable {
        _launchpad.buyTokens{value: msg.value}(token);
    }

    function sellReentering(address token, uint256 amount) external {
        _token = token;
        _armed = true;
        _launchpad.sellTokens(token, amount);
    }

    receive() external payable {
        if (!_armed) return;
        _armed = false;
        // Tries to sell again while the first sale is being paid.
        _launchpad.sellTokens(_token, 1e6);
    }
}

/// @notice A wrapped native token whose transfers report failure by returning false.
contract FalseReturningWrappedNative {
    mapping(address account => uint256) public balanceOf;

    function deposit() external payable {
        balanceOf[msg.sender] += msg.value;
    }

    function transfer(address, uint256) external pure returns (bool) {
        return false;
    }
}

/// @notice A DEX factory that reports a wrong INIT_CODE_PAIR_HASH and creates its pairs through a real factory,
/// so that they land elsewhere than the reported hash predicts. It lists no pairs (no `allPairsLength`), so the
/// launchpad can only check a hash against the one it reports.
contract MisreportingFactory {
    UniswapV2Factory private immutable _inner;

    constructor(UniswapV2Factory inner) {
        _inner = inner;
    }

    function INIT_CODE_PAIR_HASH() external pure returns (bytes32) {
        return keccak256("not the pair's creation code");
    }

    function createPair(address tokenA, address tokenB) external returns (address) {
        return _inner.createPair(tokenA, tokenB);
    }
}

/// @notice A factory shaped like the canonical Uniswap V2 one: it deploys our pairs with CREATE2 (salt
/// keccak256(token0, token1)) and lists them, but has no INIT_CODE_PAIR_HASH getter.
contract HashlessV2Factory {
    uint256 public constant swapFeeBps = 30;
    address public constant feeTo = address(0);

    mapping(address tokenA => mapping(address tokenB => address pair)) public getPair;
    address[] public allPairs;

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != token1 && token0 != address(0) && getPair[token0][token1] == address(0), "pair");
        pair = address(new UniswapV2Pair{salt: keccak256(abi.encodePacked(token0, token1))}());
        UniswapV2Pair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
    }
}

/// @notice A factory that lists one given address as its first pair and reports a given INIT_CODE_PAIR_HASH, to
/// check which evidence the launchpad trusts.
contract ListingFactory {
    address private immutable _firstPair;
    bytes32 public immutable INIT_CODE_PAIR_HASH;

    constructor(address firstPair, bytes32 reportedHash) {
        _firstPair = firstPair;
        INIT_CODE_PAIR_HASH = reportedHash;
    }

    function allPairsLength() external pure returns (uint256) {
        return 1;
    }

    function allPairs(uint256) external view returns (address) {
        return _firstPair;
    }
}
