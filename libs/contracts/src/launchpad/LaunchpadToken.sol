// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {LaunchpadTokenArgs} from "./libraries/LaunchpadTokenArgs.sol";

/// @title LaunchpadToken
/// @notice A token launched by the Launchpad: 1,000,000,000 tokens with 6 decimals, all minted to the launchpad
/// when the token is created, no owner and no further minting; anyone may burn its own tokens.
/// @dev Deployed once, as the implementation, by the launchpad's constructor; every launched token is an EIP-1167
/// minimal proxy of it (OpenZeppelin `Clones`) whose name, symbol and DEX factory are immutable arguments appended
/// to the proxy's code (see LaunchpadTokenArgs). The launchpad creates the proxy and calls `initialize` in the
/// same call. `initialize` is launchpad-only and runs once per proxy; the implementation's own initializer is
/// disabled in its constructor, so nobody can ever initialize it.
///
/// The launchpad has two privileges, both only until the token graduates:
/// - `launchpadTransfer` moves a holder's tokens without an allowance. The launchpad calls it only from
///   `sellTokens`, with the seller (`msg.sender` of `sellTokens`) as `from` and itself as `to`; this is what
///   lets sells skip the approval. After `graduate` it reverts for good.
/// - Before graduation nobody may send tokens to the token's DEX pair (`pool`), so nobody can seed the pair or
///   mint its first LP shares at a price of their choosing before the launchpad does. `pool` is the address the
///   DEX will deploy the pair at, fixed from the token's first instant, whether the pair exists yet or not.
///
/// The creator's sell lock: until `creatorUnlockTime()` (the creation time plus the launchpad's
/// CREATOR_SELL_LOCK, 1 hour) no token leaves the creator's address, by any path: `transfer`, `transferFrom` by
/// a spender, the launchpad's `launchpadTransfer` (a sale on the curve), a transfer into the DEX pair before or
/// after graduation. So the creator's tokens cannot reach a sale through another wallet, a router or any other
/// contract either. The creator may still receive tokens (its first purchase, more purchases, transfers to it),
/// approve, and burn its own tokens; from `creatorUnlockTime()` on it is a holder like any other. The creator and
/// is an immutable argument in the token's code, so the check costs every other holder one comparison against a
/// code copy and no storage read; the unlock time shares the storage slot of `pool` and `graduated`, read only for
/// the creator's transfers.
contract LaunchpadToken is ERC20, Initializable {
    /// @notice The caller is not the launchpad.
    error OnlyLaunchpad(address caller);

    /// @notice Tokens cannot be sent to the DEX pair before the token graduates.
    /// @param pool The pair.
    error PoolLockedUntilGraduation(address pool);

    /// @notice The creator's tokens cannot leave its address before the creator's sell lock ends.
    /// @param unlockTime The first timestamp (Unix seconds) at which they can.
    error CreatorTokensLocked(uint256 unlockTime);

    /// @notice The token graduated, so the launchpad's pre-graduation privileges are gone.
    error AlreadyGraduated();

    /// @notice 1,000,000,000 tokens of 6 decimals.
    uint256 public constant TOTAL_SUPPLY = 1e15;

    /// @notice The launchpad that launched the token (the deployer of the implementation, shared by every
    /// proxy through the implementation's code).
    address public immutable launchpad;

    /// @notice The DEX pair the token graduates to; locked against deposits until graduation.
    address public pool;

    /// @notice Whether the token has graduated to `pool`.
    bool public graduated;

    /// @notice When the creator's sell lock ends (Unix seconds): the creation time plus the launchpad's
    /// CREATOR_SELL_LOCK (1 hour). Before it no token leaves the creator's address (CreatorTokensLocked); from it
    /// on the creator's tokens move freely.
    uint64 public creatorUnlockTime;

    modifier onlyLaunchpad() {
        if (msg.sender != launchpad) revert OnlyLaunchpad(msg.sender);
        _;
    }

    /// @dev The implementation: its own name and symbol are empty (proxies read theirs from their code) and its
    /// initializer is disabled.
    constructor() ERC20("", "") {
        launchpad = msg.sender;
        _disableInitializers();
    }

    /// @notice Sets the DEX pair locked until graduation and the end of the creator's sell lock, and mints the
    /// whole supply to the launchpad. Launchpad only, once per token; never on the implementation.
    /// @param pool_ The address of the token's DEX pair (deployed or not).
    /// @param creatorUnlockTime_ The first timestamp at which the creator's tokens may leave its address.
    function initialize(address pool_, uint64 creatorUnlockTime_) external initializer onlyLaunchpad {
        pool = pool_;
        creatorUnlockTime = creatorUnlockTime_;
        _mint(msg.sender, TOTAL_SUPPLY);
    }

    /// @notice The token name.
    function name() public view override returns (string memory) {
        return LaunchpadTokenArgs.name(address(this));
    }

    /// @notice The token symbol.
    function symbol() public view override returns (string memory) {
        return LaunchpadTokenArgs.symbol(address(this));
    }

    /// @notice The account that created the token on the launchpad.
    function creator() external view returns (address) {
        return LaunchpadTokenArgs.creator(address(this));
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

    /// @dev Blocks every transfer out of the creator's address (burns aside) during the creator's sell lock, and
    /// deposits into the pair before graduation. The sender is compared with the creator first: for any other
    /// holder that is the lock's whole cost.
    function _update(address from, address to, uint256 value) internal override {
        if (from == LaunchpadTokenArgs.creator(address(this)) && to != address(0)) {
            uint256 unlockTime = creatorUnlockTime;
            // The same boundary as the launchpad's CreatorCannotSellYet; a validator's few seconds of timestamp
            // leeway do not matter against a one-hour lock.
            // forge-lint: disable-next-line(block-timestamp)
            if (block.timestamp < unlockTime) revert CreatorTokensLocked(unlockTime);
        }
        if (!graduated && to == pool && to != address(0)) revert PoolLockedUntilGraduation(to);
        super._update(from, to, value);
    }
}
