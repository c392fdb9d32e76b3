// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

// Test tokens written from the public catalogue of ERC20s that do not behave like the standard's happy path
// ("weird ERC20s"): each reproduces one behaviour seen on live chains, so that the aggregator and RouterV2 can be
// tried against it on the devnet. The owner (the deployer) mints on every one of them.

/// @title FeeOnTransferToken
/// @notice Takes `feeBps` of every transfer between two accounts and burns it (as STA and PAXG do with a fee):
/// the recipient receives less than was sent.
contract FeeOnTransferToken is ERC20, Ownable {
    /// @notice The part of each transfer taken, in basis points.
    uint256 public immutable feeBps;

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param feeBps_ The part of each transfer taken, in basis points (at most 10000).
    constructor(string memory name_, string memory symbol_, uint256 feeBps_) ERC20(name_, symbol_) Ownable(msg.sender) {
        require(feeBps_ <= 10_000, "fee above 100%");
        feeBps = feeBps_;
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = value * feeBps / 10_000;
        if (fee > 0) super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}

/// @title ReturnsFalseToken
/// @notice Moves the tokens but answers `false` from `transfer` and `transferFrom` (tokens that signal with a
/// boolean instead of reverting, and do it wrong): a caller that checks the answer, as SafeERC20 does, must treat
/// every transfer as failed.
contract ReturnsFalseToken is ERC20, Ownable {
    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Moves `value` to `to`, then answers false.
    /// @param to The recipient.
    /// @param value The amount.
    /// @return Always false.
    function transfer(address to, uint256 value) public override returns (bool) {
        super.transfer(to, value);
        return false;
    }

    /// @notice Moves `value` from `from` to `to` on the caller's allowance, then answers false.
    /// @param from The payer.
    /// @param to The recipient.
    /// @param value The amount.
    /// @return Always false.
    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        super.transferFrom(from, to, value);
        return false;
    }
}

/// @title RevertOnZeroToken
/// @notice Reverts a transfer of zero tokens (as LEND did).
contract RevertOnZeroToken is ERC20, Ownable {
    /// @notice A transfer of zero tokens.
    error ZeroTransfer();

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (value == 0 && from != address(0) && to != address(0)) revert ZeroTransfer();
        super._update(from, to, value);
    }
}

/// @title PausableToken
/// @notice The owner can pause every transfer (as BNB, ZIL and USDC's admin can): while paused, transfers revert.
contract PausableToken is ERC20, Ownable, Pausable {
    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Stops every transfer. Only the owner may call it.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Lets transfers through again. Only the owner may call it.
    function unpause() external onlyOwner {
        _unpause();
    }

    function _update(address from, address to, uint256 value) internal override whenNotPaused {
        super._update(from, to, value);
    }
}

/// @title BlocklistToken
/// @notice The owner can block accounts (as USDC and USDT do): a transfer from or to a blocked account reverts.
contract BlocklistToken is ERC20, Ownable {
    /// @notice Whether an account is blocked.
    mapping(address account => bool) public blocked;

    /// @notice An account was blocked.
    /// @param account The account.
    event Blocked(address indexed account);

    /// @notice An account was unblocked.
    /// @param account The account.
    event Unblocked(address indexed account);

    /// @notice A transfer touched a blocked account.
    /// @param account The blocked account.
    error BlockedAccount(address account);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Blocks `account`. Only the owner may call it.
    /// @param account The account.
    function blockAccount(address account) external onlyOwner {
        blocked[account] = true;
        emit Blocked(account);
    }

    /// @notice Unblocks `account`. Only the owner may call it.
    /// @param account The account.
    function unblockAccount(address account) external onlyOwner {
        blocked[account] = false;
        emit Unblocked(account);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blocked[from]) revert BlockedAccount(from);
        if (blocked[to]) revert BlockedAccount(to);
        super._update(from, to, value);
    }
}

/// @title ReentrantToken
/// @notice Calls back on every transfer, as ERC777 tokens do (imBTC, the Uniswap V1 and Lendf.Me drains): an
/// account that registered a hook has it called with `(from, to, amount)` when it sends or receives, and a hook
/// that reverts reverts the transfer.
contract ReentrantToken is ERC20, Ownable {
    /// @notice Each account's hook (none when zero).
    mapping(address account => address) public hookOf;

    /// @notice An account set its hook.
    /// @param account The account.
    /// @param hook The hook (zero: none).
    event HookSet(address indexed account, address indexed hook);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Sets the caller's hook, called on each of its transfers (zero: none).
    /// @param hook The contract called.
    function setHook(address hook) external {
        hookOf[msg.sender] = hook;
        emit HookSet(msg.sender, hook);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        address fromHook = from == address(0) ? address(0) : hookOf[from];
        if (fromHook != address(0)) ITokenHook(fromHook).onTokenTransfer(from, to, value);
        address toHook = to == address(0) ? address(0) : hookOf[to];
        if (toHook != address(0)) ITokenHook(toHook).onTokenTransfer(from, to, value);
    }
}

/// @title ITokenHook
/// @notice What `ReentrantToken` calls on a transfer of an account that registered a hook.
interface ITokenHook {
    /// @notice Called after `amount` moved from `from` to `to`.
    /// @param from The payer.
    /// @param to The recipient.
    /// @param amount The amount.
    function onTokenTransfer(address from, address to, uint256 amount) external;
}

/// @title NoReturnToken
/// @notice `transfer`, `transferFrom` and `approve` answer nothing (USDT, BNB and OMG on Ethereum): a caller that
/// decodes a boolean reverts on them.
contract NoReturnToken is Ownable {
    /// @notice A transfer moved tokens.
    /// @param from The payer.
    /// @param to The recipient.
    /// @param value The amount.
    event Transfer(address indexed from, address indexed to, uint256 value);

    /// @notice An allowance was set.
    /// @param owner The holder.
    /// @param spender The spender.
    /// @param value The allowance.
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice A transfer above the payer's balance or allowance.
    error Insufficient();

    /// @notice The token name.
    string public name;
    /// @notice The token symbol.
    string public symbol;
    /// @notice The number of decimals.
    uint8 public immutable decimals;
    /// @notice The tokens in existence.
    uint256 public totalSupply;
    /// @notice Each account's balance.
    mapping(address account => uint256) public balanceOf;
    /// @notice Each holder's allowance per spender.
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param decimals_ The number of decimals.
    constructor(string memory name_, string memory symbol_, uint8 decimals_) Ownable(msg.sender) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    /// @notice Sets the caller's allowance for `spender`; answers nothing.
    /// @param spender The spender.
    /// @param amount The allowance.
    function approve(address spender, uint256 amount) external {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
    }

    /// @notice Moves `amount` to `to`; answers nothing.
    /// @param to The recipient.
    /// @param amount The amount.
    function transfer(address to, uint256 amount) external {
        _move(msg.sender, to, amount);
    }

    /// @notice Moves `amount` from `from` to `to` on the caller's allowance; answers nothing.
    /// @param from The payer.
    /// @param to The recipient.
    /// @param amount The amount.
    function transferFrom(address from, address to, uint256 amount) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < amount) revert Insufficient();
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - amount;
        _move(from, to, amount);
    }

    function _move(address from, address to, uint256 amount) private {
        if (balanceOf[from] < amount) revert Insufficient();
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

/// @title Bytes32MetadataToken
/// @notice `name` and `symbol` answer `bytes32` instead of `string` (MKR and SAI on Ethereum): a caller that
/// decodes a string fails on them. Otherwise a plain ERC20.
/// @dev The two functions override ERC20's, so the ABI says `string`; what they return is one bytes32 word.
contract Bytes32MetadataToken is ERC20, Ownable {
    bytes32 private immutable _name32;
    bytes32 private immutable _symbol32;

    /// @param name_ The token name, right-padded with zeros.
    /// @param symbol_ The token symbol, right-padded with zeros.
    constructor(bytes32 name_, bytes32 symbol_) ERC20("", "") Ownable(msg.sender) {
        _name32 = name_;
        _symbol32 = symbol_;
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice The name as bytes32 (its ABI encoding is one word, not a string).
    /// @return The name.
    function name() public view override returns (string memory) {
        bytes32 word = _name32;
        assembly ("memory-safe") {
            mstore(0, word)
            return(0, 32)
        }
    }

    /// @notice The symbol as bytes32 (its ABI encoding is one word, not a string).
    /// @return The symbol.
    function symbol() public view override returns (string memory) {
        bytes32 word = _symbol32;
        assembly ("memory-safe") {
            mstore(0, word)
            return(0, 32)
        }
    }
}
