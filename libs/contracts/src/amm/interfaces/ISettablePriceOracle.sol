// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IPriceOracle} from "./IPriceOracle.sol";

/// @title ISettablePriceOracle
/// @notice A price oracle whose prices the owner or its updaters set (the devnet's feed). A price is as old as
/// the block that set it; a token never set has no price (`getPriceUsd` reverts `PriceUnavailable`), and a
/// price set to zero reads as zero, which pools treat as missing.
interface ISettablePriceOracle is IPriceOracle {
    /// @notice The caller is neither the owner nor an updater.
    /// @param caller The caller.
    error UnauthorizedUpdater(address caller);

    /// @notice `setPrices` got arrays of different lengths.
    /// @param tokens The number of tokens.
    /// @param prices The number of prices.
    error LengthMismatch(uint256 tokens, uint256 prices);

    /// @notice A price was set.
    /// @param token The token.
    /// @param priceE18 The USD price of one whole token, 1e18 fixed point.
    /// @param updatedAt The block time it was set at.
    event PriceSet(address indexed token, uint256 priceE18, uint256 updatedAt);

    /// @notice An updater was allowed or disallowed.
    /// @param updater The account.
    /// @param allowed Whether it may set prices.
    event UpdaterSet(address indexed updater, bool allowed);

    /// @notice Whether an account may set prices (besides the owner).
    /// @param account The account.
    /// @return True when allowed.
    function isUpdater(address account) external view returns (bool);

    /// @notice Allows or disallows an updater. Only the owner.
    /// @param updater The account.
    /// @param allowed Whether it may set prices.
    function setUpdater(address updater, bool allowed) external;

    /// @notice Sets one price, timestamped now. The owner or an updater.
    /// @param token The token.
    /// @param priceE18 The USD price of one whole token, 1e18 fixed point (0 marks it missing).
    function setPrice(address token, uint256 priceE18) external;

    /// @notice Sets several prices, timestamped now. The owner or an updater.
    /// @param tokens The tokens.
    /// @param pricesE18 Their prices, same order and length.
    function setPrices(address[] calldata tokens, uint256[] calldata pricesE18) external;
}
