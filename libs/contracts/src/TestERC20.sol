// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ITestERC20} from "./interfaces/ITestERC20.sol";

/// @title TestERC20
/// @notice A plain ERC20 for the devnet with configurable decimals; the deployer (owner) mints.
contract TestERC20 is ERC20, Ownable, ITestERC20 {
    uint8 private immutable _decimals;

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param decimals_ The number of decimals, e.g. 6 for a dollar-like token.
    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) Ownable(msg.sender) {
        _decimals = decimals_;
    }

    /// @notice The number of decimals given at deployment.
    /// @return The decimals.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @inheritdoc ITestERC20
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
