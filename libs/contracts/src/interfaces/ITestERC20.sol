// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ITestERC20
/// @notice The extra entry point of the devnet's test tokens: minting by the owner.
interface ITestERC20 {
    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount in the token's smallest unit.
    function mint(address to, uint256 amount) external;
}
