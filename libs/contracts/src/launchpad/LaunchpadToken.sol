// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title LaunchpadToken
/// @notice A token launched by the Launchpad: 1,000,000,000 tokens with 6 decimals, all minted to the launchpad
/// at deployment, no owner and no further minting; anyone may burn its own tokens.
/// @dev The launchpad has two privileges, both only until the token graduates:
/// - `launchpadTransfer` moves a holder's tokens without an allowance. The launchpad calls it only from
///   `sellTokens`, with the seller (`msg.sender` of `sellTokens`) as `from` and itself as `to`; this is what
///   lets sells skip the approval. After `graduate` it reverts for good.
/// - Before graduation nobody may send tokens to the token's DEX pair (`pool`), so nobody can seed the pair or
///   mint its first LP shares at a price of their choosing before the launchpad does.
contract LaunchpadToken is ERC20 {
    /// @notice The caller is not the launchpad.
    error OnlyLaunchpad(address caller);

    /// @notice Tokens cannot be sent to the DEX pair before the token graduates.
    /// @param pool The pair.
    error PoolLockedUntilGraduation(address pool);

    /// @notice The token graduated, so the launchpad's pre-graduation privileges are gone.
    error AlreadyGraduated();

    /// @notice The pool was already set.
    error PoolAlreadySet();

    /// @notice 1,000,000,000 tokens of 6 decimals.
    uint256 public constant TOTAL_SUPPLY = 1e15;

    /// @notice The launchpad that launched the token.
    address public immutable launchpad;

    /// @notice The DEX pair the token graduates to; locked against deposits until graduation.
    address public pool;

    /// @notice Whether the token has graduated to `pool`.
    bool public graduated;

    modifier onlyLaunchpad() {
        if (msg.sender != launchpad) revert OnlyLaunchpad(msg.sender);
        _;
    }

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param launchpad_ The launchpad: receives the whole supply and holds the privileges described above.
    constructor(string memory name_, string memory symbol_, address launchpad_) ERC20(name_, symbol_) {
        launchpad = launchpad_;
        _mint(launchpad_, TOTAL_SUPPLY);
    }

    /// @notice Always 6.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Burns `amount` of the caller's tokens.
    /// @param amount The amount.
    function burn(uint256 amount) external {
        _burn(msg.sender, amount);
    }

    /// @notice Sets the DEX pair that stays locked until graduation. Launchpad only, once.
    /// @param pool_ The pair.
    function setPool(address pool_) external onlyLaunchpad {
        if (pool != address(0)) revert PoolAlreadySet();
        pool = pool_;
    }

    /// @notice Marks the token graduated: the pair opens, `launchpadTransfer` closes. Launchpad only, once.
    function graduate() external onlyLaunchpad {
        if (graduated) revert AlreadyGraduated();
        graduated = true;
    }

    /// @notice Moves `amount` of `from`'s tokens to `to` without an allowance. Launchpad only, and only before
    /// graduation; the launchpad uses it solely to take a seller's tokens in `sellTokens`.
    /// @param from The holder (the seller).
    /// @param to The recipient (the launchpad).
    /// @param amount The amount.
    /// @return Always true; failures revert.
    function launchpadTransfer(address from, address to, uint256 amount) external onlyLaunchpad returns (bool) {
        if (graduated) revert AlreadyGraduated();
        _transfer(from, to, amount);
        return true;
    }

    /// @dev Blocks deposits into the pair before graduation.
    function _update(address from, address to, uint256 value) internal override {
        if (!graduated && to == pool && to != address(0)) revert PoolLockedUntilGraduation(to);
        super._update(from, to, value);
    }
}
