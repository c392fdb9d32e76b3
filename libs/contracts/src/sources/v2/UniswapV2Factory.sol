// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IUniswapV2Factory} from "./interfaces/IUniswapV2Factory.sol";
import {UniswapV2Pair} from "./UniswapV2Pair.sol";

/// @title UniswapV2Factory
/// @notice Creates and registers the constant-product pairs of one DEX deployment. Every pair it creates uses
/// the swap fee fixed here at deployment.
contract UniswapV2Factory is IUniswapV2Factory {
    /// @notice The highest swap fee a deployment may set: 10%.
    uint256 public constant MAX_SWAP_FEE_BPS = 1000;

    /// @inheritdoc IUniswapV2Factory
    bytes32 public constant INIT_CODE_PAIR_HASH = keccak256(type(UniswapV2Pair).creationCode);

    /// @inheritdoc IUniswapV2Factory
    uint256 public immutable swapFeeBps;

    /// @inheritdoc IUniswapV2Factory
    address public feeTo;

    /// @inheritdoc IUniswapV2Factory
    address public feeToSetter;

    /// @inheritdoc IUniswapV2Factory
    mapping(address tokenA => mapping(address tokenB => address pair)) public getPair;

    /// @inheritdoc IUniswapV2Factory
    address[] public allPairs;

    /// @inheritdoc IUniswapV2Factory
    mapping(address pair => bool) public isPair;

    /// @param feeToSetter_ The account that may turn on the protocol fee.
    /// @param swapFeeBps_ The swap fee of every pair, in basis points of the input (30 = 0.3%).
    constructor(address feeToSetter_, uint256 swapFeeBps_) {
        if (swapFeeBps_ > MAX_SWAP_FEE_BPS) revert SwapFeeTooHigh(swapFeeBps_);
        feeToSetter = feeToSetter_;
        swapFeeBps = swapFeeBps_;
    }

    /// @inheritdoc IUniswapV2Factory
    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    /// @inheritdoc IUniswapV2Factory
    function createPair(address tokenA, address tokenB) external returns (address pair) {
        if (tokenA == tokenB) revert IdenticalAddresses();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        address existing = getPair[token0][token1];
        if (existing != address(0)) revert PairExists(existing);

        pair = address(new UniswapV2Pair{salt: keccak256(abi.encodePacked(token0, token1))}());
        UniswapV2Pair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        isPair[pair] = true;
        emit PairCreated(token0, token1, pair, allPairs.length);
    }

    /// @inheritdoc IUniswapV2Factory
    function setFeeTo(address feeTo_) external {
        if (msg.sender != feeToSetter) revert Forbidden();
        feeTo = feeTo_;
    }

    /// @inheritdoc IUniswapV2Factory
    function setFeeToSetter(address feeToSetter_) external {
        if (msg.sender != feeToSetter) revert Forbidden();
        feeToSetter = feeToSetter_;
    }
}
