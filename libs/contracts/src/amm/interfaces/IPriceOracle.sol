// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IPriceOracle
/// @notice The price source of the AMM pools: the USD price of one whole token.
/// @dev An implementation either reverts or returns a zero price when it has no price for a token; pools treat
/// both (and any malformed answer) as a missing price and refuse to quote or swap.
interface IPriceOracle {
    /// @notice The oracle has no usable price for `token`.
    /// @param token The token asked about.
    error PriceUnavailable(address token);

    /// @notice The USD price of one whole `token` (10^decimals base units) and when it was last set.
    /// @param token The token.
    /// @return priceE18 The price in USD, 1e18 fixed point (1e18 = $1); zero when unavailable.
    /// @return updatedAt The Unix time the price was set or read from its source.
    function getPriceUsd(address token) external view returns (uint256 priceE18, uint256 updatedAt);
}
