// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IPriceOracle} from "../interfaces/IPriceOracle.sol";
import {ISettablePriceOracle} from "../interfaces/ISettablePriceOracle.sol";

/// @title SettablePriceOracle
/// @notice USD prices set by the owner or its updaters (a price keeper), for the devnet. See ISettablePriceOracle.
contract SettablePriceOracle is ISettablePriceOracle, Ownable2Step {
    struct Price {
        uint256 priceE18;
        uint256 updatedAt;
    }

    /// @inheritdoc ISettablePriceOracle
    mapping(address account => bool) public isUpdater;

    mapping(address token => Price) private _prices;

    /// @param initialOwner The owner, who sets prices and updaters.
    constructor(address initialOwner) Ownable(initialOwner) {}

    /// @inheritdoc IPriceOracle
    function getPriceUsd(address token) external view returns (uint256 priceE18, uint256 updatedAt) {
        Price memory price = _prices[token];
        if (price.updatedAt == 0) revert PriceUnavailable(token);
        return (price.priceE18, price.updatedAt);
    }

    /// @inheritdoc ISettablePriceOracle
    function setUpdater(address updater, bool allowed) external onlyOwner {
        isUpdater[updater] = allowed;
        emit UpdaterSet(updater, allowed);
    }

    /// @inheritdoc ISettablePriceOracle
    function setPrice(address token, uint256 priceE18) external {
        _checkUpdater();
        _setPrice(token, priceE18);
    }

    /// @inheritdoc ISettablePriceOracle
    function setPrices(address[] calldata tokens, uint256[] calldata pricesE18) external {
        _checkUpdater();
        if (tokens.length != pricesE18.length) revert LengthMismatch(tokens.length, pricesE18.length);
        for (uint256 i; i < tokens.length; ++i) {
            _setPrice(tokens[i], pricesE18[i]);
        }
    }

    function _checkUpdater() private view {
        if (msg.sender != owner() && !isUpdater[msg.sender]) revert UnauthorizedUpdater(msg.sender);
    }

    function _setPrice(address token, uint256 priceE18) private {
        _prices[token] = Price({priceE18: priceE18, updatedAt: block.timestamp});
        emit PriceSet(token, priceE18, block.timestamp);
    }
}
