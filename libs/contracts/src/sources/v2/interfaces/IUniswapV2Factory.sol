// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IUniswapV2Factory
/// @notice The Uniswap V2 factory interface, plus the per-deployment swap fee (`swapFeeBps`) and a cheap pool
/// check (`isPair`) for routers that only call pools their factory vouches for.
interface IUniswapV2Factory {
    /// @notice `createPair` was given the same token twice.
    error IdenticalAddresses();

    /// @notice `createPair` was given the zero address as a token.
    error ZeroAddress();

    /// @notice A pair of these two tokens exists already.
    /// @param pair The existing pair.
    error PairExists(address pair);

    /// @notice Only `feeToSetter` may change the protocol fee settings.
    error Forbidden();

    /// @notice The swap fee given at deployment is above `MAX_SWAP_FEE_BPS`.
    /// @param feeBps The fee given.
    error SwapFeeTooHigh(uint256 feeBps);

    /// @notice A pair was created.
    /// @param token0 The token sorted first (lower address).
    /// @param token1 The token sorted second.
    /// @param pair The new pair.
    /// @param allPairsLength The number of pairs including this one.
    event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength);

    /// @notice The recipient of the protocol's share of fees; zero when that share is off.
    /// @return The recipient.
    function feeTo() external view returns (address);

    /// @notice The account that may change `feeTo` and `feeToSetter`.
    /// @return The account.
    function feeToSetter() external view returns (address);

    /// @notice The swap fee of every pair of this factory, in basis points of the input.
    /// @return The fee.
    function swapFeeBps() external view returns (uint256);

    /// @notice The pair of two tokens, in either order; zero when none exists.
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @return pair The pair.
    function getPair(address tokenA, address tokenB) external view returns (address pair);

    /// @notice The pair created `index`-th (from 0).
    /// @param index The position.
    /// @return pair The pair.
    function allPairs(uint256 index) external view returns (address pair);

    /// @notice The number of pairs created.
    /// @return The count.
    function allPairsLength() external view returns (uint256);

    /// @notice Whether `pair` was created by this factory.
    /// @param pair The address to check.
    /// @return True for a pair of this factory.
    function isPair(address pair) external view returns (bool);

    /// @notice The keccak256 of the pair's creation code: a pair's address is the CREATE2 address of this
    /// factory with salt `keccak256(abi.encodePacked(token0, token1))` and this hash.
    function INIT_CODE_PAIR_HASH() external view returns (bytes32);

    /// @notice Creates the pair of two tokens (CREATE2, salt `keccak256(token0, token1)`).
    /// @param tokenA One token.
    /// @param tokenB The other token.
    /// @return pair The new pair.
    function createPair(address tokenA, address tokenB) external returns (address pair);

    /// @notice Sets the recipient of the protocol's share of fees (zero turns it off). Only `feeToSetter`.
    /// @param feeTo The recipient.
    function setFeeTo(address feeTo) external;

    /// @notice Hands the fee settings to another account. Only `feeToSetter`.
    /// @param feeToSetter The new setter.
    function setFeeToSetter(address feeToSetter) external;
}
