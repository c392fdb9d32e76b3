// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchpadToken} from "./LaunchpadToken.sol";

/// @title LaunchpadTokenDeployer
/// @notice Deploys LaunchpadTokens for the launchpad that created it. It exists so that the token's creation
/// code is not part of the launchpad's runtime code (which must stay under the 24 KB limit): the launchpad
/// deploys this contract in its constructor.
contract LaunchpadTokenDeployer {
    /// @notice The caller is not the launchpad.
    error OnlyLaunchpad(address caller);

    /// @notice The launchpad served: the deployer of this contract, and the minter and controller of every
    /// token deployed here.
    address public immutable launchpad;

    constructor() {
        launchpad = msg.sender;
    }

    /// @notice Deploys a token with CREATE2; its whole supply is minted to the launchpad. Launchpad only.
    /// @param name The token name.
    /// @param symbol The token symbol.
    /// @param salt The CREATE2 salt.
    /// @return token The new token.
    function deploy(string calldata name, string calldata symbol, bytes32 salt) external returns (address token) {
        if (msg.sender != launchpad) revert OnlyLaunchpad(msg.sender);
        token = address(new LaunchpadToken{salt: salt}(name, symbol, msg.sender));
    }
}
