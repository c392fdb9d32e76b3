// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IPriceOracle} from "./IPriceOracle.sol";

/// @title IHyperCorePriceOracle
/// @notice A price oracle for HyperEVM (chain 999) that reads HyperCore's prices through its read precompiles:
/// the perp oracle price (0x...0807, `6 - szDecimals` decimals) or the spot price against USDC (0x...0808,
/// `8 - szDecimals` decimals). Both take `abi.encode(uint32 index)` and return `abi.encode(uint64 price)`.
/// A token may also have a fixed USD price (e.g. a dollar stablecoin). The precompiles reflect the current
/// HyperCore state, so `updatedAt` is always the current block time. A failed call, a zero price or a token
/// without configuration is unavailable (`PriceUnavailable`).
interface IHyperCorePriceOracle is IPriceOracle {
    /// @notice Where a token's price comes from.
    enum PriceSource {
        None,
        PerpOracle,
        Spot,
        FixedUsd
    }

    /// @notice How to price one token.
    /// @param source The source; `None` removes the token.
    /// @param index The perp asset index (`PerpOracle`) or spot pair index (`Spot`) on HyperCore.
    /// @param priceDecimals The decimals of the precompile's raw price: 6 - szDecimals (perp) or
    /// 8 - szDecimals (spot); at most 18.
    /// @param fixedPriceE18 The USD price of one whole token for `FixedUsd`, 1e18 fixed point.
    struct TokenConfig {
        PriceSource source;
        uint32 index;
        uint8 priceDecimals;
        uint128 fixedPriceE18;
    }

    /// @notice The configuration is inconsistent (decimals above 18, or a zero fixed price for `FixedUsd`).
    error InvalidTokenConfig();

    /// @notice A token's price source was set.
    /// @param token The token.
    /// @param source The source.
    /// @param index The HyperCore index.
    /// @param priceDecimals The raw price's decimals.
    /// @param fixedPriceE18 The fixed price (for `FixedUsd`).
    event TokenConfigSet(
        address indexed token, PriceSource source, uint32 index, uint8 priceDecimals, uint256 fixedPriceE18
    );

    /// @notice The perp oracle price precompile.
    /// @return 0x0000000000000000000000000000000000000807.
    function ORACLE_PX_PRECOMPILE() external view returns (address);

    /// @notice The spot price precompile.
    /// @return 0x0000000000000000000000000000000000000808.
    function SPOT_PX_PRECOMPILE() external view returns (address);

    /// @notice A token's price configuration.
    /// @param token The token.
    /// @return The configuration (source `None` when unset).
    function tokenConfig(address token) external view returns (TokenConfig memory);

    /// @notice Sets a token's price configuration. Only the owner.
    /// @param token The token.
    /// @param config The configuration.
    function setTokenConfig(address token, TokenConfig calldata config) external;
}
