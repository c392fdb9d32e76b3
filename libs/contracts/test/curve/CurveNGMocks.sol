// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice A rate oracle for NG's asset type 1: `rate()` (1e18 precision), settable.
contract MockRateOracle {
    /// @notice The rate, 1e18 precision.
    uint256 public rate;

    /// @param rate_ The first rate.
    constructor(uint256 rate_) {
        rate = rate_;
    }

    /// @notice Sets the rate.
    /// @param rate_ The rate.
    function setRate(uint256 rate_) external {
        rate = rate_;
    }
}

/// @notice An oracle answering too short for NG (fewer than 32 bytes).
contract ShortAnswerOracle {
    fallback() external {
        assembly {
            mstore(0, 1)
            return(0, 16)
        }
    }
}

/// @notice A minimal ERC4626-shaped vault for NG's asset type 3: an ERC20 share with `asset()` and
/// `convertToAssets(shares) = shares * assetsPerShare / 10 ** decimals` (assetsPerShare in the asset's units).
contract MockERC4626 is ERC20 {
    /// @notice The underlying asset.
    address public immutable asset;
    uint8 private immutable _decimals;

    /// @notice The asset units one whole share is worth.
    uint256 public assetsPerShare;

    constructor(address asset_, uint8 decimals_, uint256 assetsPerShare_) ERC20("Vault", "VLT") {
        asset = asset_;
        _decimals = decimals_;
        assetsPerShare = assetsPerShare_;
    }

    /// @notice The share's decimals.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @notice What `shares` are worth in the asset.
    function convertToAssets(uint256 shares) external view returns (uint256) {
        return shares * assetsPerShare / 10 ** _decimals;
    }

    /// @notice Sets the share price.
    function setAssetsPerShare(uint256 assetsPerShare_) external {
        assetsPerShare = assetsPerShare_;
    }

    /// @notice Mints shares (anyone may: a test mock).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

/// @notice A token that calls back into a pool during transfers (to check the pool's reentrancy guard): when armed, a
/// transfer calls `target` with `data` and records whether that call succeeded and what it returned.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public data;
    bool public armed;
    bool public lastCallOk;
    bytes public lastReturn;

    constructor() ERC20("Reentrant", "RE") {}

    /// @notice Mints tokens (anyone may: a test mock).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Makes the next transfer call `target_` with `data_`.
    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
        armed = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (armed) {
            armed = false;
            (lastCallOk, lastReturn) = target.call(data);
        }
    }
}
