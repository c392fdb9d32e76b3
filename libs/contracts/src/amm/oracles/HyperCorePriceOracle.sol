// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IPriceOracle} from "../interfaces/IPriceOracle.sol";
import {IHyperCorePriceOracle} from "../interfaces/IHyperCorePriceOracle.sol";

/// @title HyperCorePriceOracle
/// @notice USD prices from HyperCore's read precompiles on HyperEVM, per-token configuration by the owner. See
/// IHyperCorePriceOracle.
contract HyperCorePriceOracle is IHyperCorePriceOracle, Ownable2Step {
    /// @inheritdoc IHyperCorePriceOracle
    address public constant ORACLE_PX_PRECOMPILE = 0x0000000000000000000000000000000000000807;

    /// @inheritdoc IHyperCorePriceOracle
    address public constant SPOT_PX_PRECOMPILE = 0x0000000000000000000000000000000000000808;

    mapping(address token => TokenConfig) private _configs;

    /// @param initialOwner The owner, who configures tokens.
    constructor(address initialOwner) Ownable(initialOwner) {}

    /// @inheritdoc IPriceOracle
    function getPriceUsd(address token) external view returns (uint256 priceE18, uint256 updatedAt) {
        TokenConfig memory config = _configs[token];
        if (config.source == PriceSource.FixedUsd) return (config.fixedPriceE18, block.timestamp);
        if (config.source == PriceSource.None) revert PriceUnavailable(token);
        address precompile = config.source == PriceSource.PerpOracle ? ORACLE_PX_PRECOMPILE : SPOT_PX_PRECOMPILE;
        (bool ok, bytes memory ret) = precompile.staticcall(abi.encode(config.index));
        if (!ok || ret.length < 32) revert PriceUnavailable(token);
        uint256 raw = abi.decode(ret, (uint256));
        if (raw == 0 || raw > type(uint64).max) revert PriceUnavailable(token);
        // Cannot overflow: raw < 2^64 and the factor is at most 1e18.
        unchecked {
            priceE18 = raw * 10 ** (18 - uint256(config.priceDecimals));
        }
        updatedAt = block.timestamp;
    }

    /// @inheritdoc IHyperCorePriceOracle
    function tokenConfig(address token) external view returns (TokenConfig memory) {
        return _configs[token];
    }

    /// @inheritdoc IHyperCorePriceOracle
    function setTokenConfig(address token, TokenConfig calldata config) external onlyOwner {
        if (config.priceDecimals > 18 || (config.source == PriceSource.FixedUsd && config.fixedPriceE18 == 0)) {
            revert InvalidTokenConfig();
        }
        _configs[token] = config;
        emit TokenConfigSet(token, config.source, config.index, config.priceDecimals, config.fixedPriceE18);
    }
}
