// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Launchpad} from "../../../src/launchpad/Launchpad.sol";

/// @notice A creator or trader contract that refuses native coin (no receive function).
contract NativeRefuser {
    Launchpad private immutable _launchpad;

    constructor(Launchpad launchpad) {
        _launchpad = launchpad;
    }

    function create() external payable returns (address) {
        return _launchpad.createToken{value: msg.value}("Refuser", "REF", "", "", "", "", "", "", 0);
    }

    function buy(address token) external payable {
        _launchpad.buyTokens{value: msg.value}(token);
    }

    function sell(address token, uint256 amount) external {
        _launchpad.sellTokens(token, amount);
    }

    function withdrawCreatorFees() external returns (uint256) {
        return _launchpad.withdrawCreatorFees();
    }
}

/// @notice Re-enters the launchpad from its receive hook (on a sale's payout or a refund).
contract ReentrantTrader {
    Launchpad private immutable _launchpad;
    address private _token;
    bool private _armed;

    constructor(Launchpad launchpad) {
        _launchpad = launchpad;
    }

    function buy(address token) external payable {
        _launchpad.buyTokens{value: msg.value}(token);
    }

    function sellReentering(address token, uint256 amount) external {
        _token = token;
        _armed = true;
        _launchpad.sellTokens(token, amount);
    }

    receive() external payable {
        if (!_armed) return;
        _armed = false;
        // Tries to sell again while the first sale is being paid.
        _launchpad.sellTokens(_token, 1e6);
    }
}

/// @notice A wrapped native token whose transfers report failure by returning false.
contract FalseReturningWrappedNative {
    mapping(address account => uint256) public balanceOf;

    function deposit() external payable {
        balanceOf[msg.sender] += msg.value;
    }

    function transfer(address, uint256) external pure returns (bool) {
        return false;
    }
}
