// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

// More tokens that do not behave, written from what such tokens do on live chains: flat transfer fees, the buy and
// sell taxes of meme tokens, launch taxes that fade out, anti-whale transaction limits, pauses and blocklists that
// leave no trace in the logs, balances that grow by themselves, and a balanceOf that overstates. Each is written the
// way its authors write it, not to be easy to detect. The owner (the deployer) mints on every one of them.

/// @title FixedFeeToken
/// @notice Burns a fixed amount, `fee`, from every transfer between two accounts, whatever its size (a flat
/// network fee, as some bridged and "deflationary" tokens charge): the recipient receives `value - fee`. A transfer
/// of less than the fee (a transfer of zero included) reverts with `TransferBelowFee`; a transfer of exactly the
/// fee delivers nothing. Mints and burns pay no fee.
contract FixedFeeToken is ERC20, Ownable {
    /// @notice The amount burned from each transfer, in base units.
    uint256 public immutable fee;

    /// @notice A transfer of less than the fee.
    /// @param value The amount sent.
    /// @param required The fee, the least a transfer may send.
    error TransferBelowFee(uint256 value, uint256 required);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param fee_ The amount burned from each transfer, in base units.
    constructor(string memory name_, string memory symbol_, uint256 fee_) ERC20(name_, symbol_) Ownable(msg.sender) {
        fee = fee_;
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
        if (value < fee) revert TransferBelowFee(value, fee);
        if (fee > 0) super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}

/// @title TaxToken
/// @notice A buy tax and a sell tax, as meme tokens charge: the owner marks the token's AMM pairs; a transfer from a
/// marked pair (a buy) pays `buyTaxBps` of it, a transfer to a marked pair (a sell) pays `sellTaxBps`, to the tax
/// wallet (the owner). Any other transfer, and mints and burns, pay nothing. A transfer from one marked pair to
/// another is a buy.
contract TaxToken is ERC20, Ownable {
    /// @notice The tax on a buy (a transfer from a marked pair), in basis points.
    uint256 public buyTaxBps;
    /// @notice The tax on a sell (a transfer to a marked pair), in basis points.
    uint256 public sellTaxBps;
    /// @notice Whether an address is a marked AMM pair.
    mapping(address pool => bool) public automatedMarketMakerPairs;

    /// @notice A pair was marked or unmarked.
    /// @param pool The pair.
    /// @param isPool Whether it is marked.
    event PoolSet(address indexed pool, bool isPool);

    /// @notice The taxes changed.
    /// @param buyTaxBps The tax on a buy, in basis points.
    /// @param sellTaxBps The tax on a sell, in basis points.
    event TaxesSet(uint256 buyTaxBps, uint256 sellTaxBps);

    /// @notice A tax above 100%.
    error TaxTooHigh();

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param buyTaxBps_ The tax on a buy, in basis points (at most 10000).
    /// @param sellTaxBps_ The tax on a sell, in basis points (at most 10000).
    constructor(string memory name_, string memory symbol_, uint256 buyTaxBps_, uint256 sellTaxBps_)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        _setTaxes(buyTaxBps_, sellTaxBps_);
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Marks or unmarks `pool` as an AMM pair. Only the owner may call it.
    /// @param pool The pair.
    /// @param isPool Whether transfers from and to it are buys and sells.
    function setPool(address pool, bool isPool) external onlyOwner {
        automatedMarketMakerPairs[pool] = isPool;
        emit PoolSet(pool, isPool);
    }

    /// @notice Sets the taxes. Only the owner may call it.
    /// @param buyTaxBps_ The tax on a buy, in basis points (at most 10000).
    /// @param sellTaxBps_ The tax on a sell, in basis points (at most 10000).
    function setTaxes(uint256 buyTaxBps_, uint256 sellTaxBps_) external onlyOwner {
        _setTaxes(buyTaxBps_, sellTaxBps_);
    }

    /// @notice Where the taxes go: the owner.
    /// @return The tax wallet.
    function taxWallet() public view returns (address) {
        return owner();
    }

    function _setTaxes(uint256 buyTaxBps_, uint256 sellTaxBps_) private {
        if (buyTaxBps_ > 10_000 || sellTaxBps_ > 10_000) revert TaxTooHigh();
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        emit TaxesSet(buyTaxBps_, sellTaxBps_);
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 taxBps;
        if (from != address(0) && to != address(0)) {
            if (automatedMarketMakerPairs[from]) taxBps = buyTaxBps;
            else if (automatedMarketMakerPairs[to]) taxBps = sellTaxBps;
        }
        uint256 tax = value * taxBps / 10_000;
        if (tax > 0) super._update(from, taxWallet(), tax);
        super._update(from, to, value - tax);
    }
}

/// @title LaunchTaxToken
/// @notice A launch tax (the anti-sniper tax of new tokens): every transfer between two accounts burns a part of
/// it that starts at `startBps` at launch and falls linearly to zero over `decaySeconds`. The owner can start the
/// decay again (`relaunch`). Mints and burns pay nothing.
contract LaunchTaxToken is ERC20, Ownable {
    /// @notice The fee at launch, in basis points.
    uint256 public immutable startBps;
    /// @notice How long the fee takes to fall to zero, in seconds.
    uint256 public immutable decaySeconds;
    /// @notice When the token was (re)launched.
    uint256 public launchedAt;

    /// @notice The token was relaunched.
    /// @param launchedAt The new launch time.
    event Relaunched(uint256 launchedAt);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param startBps_ The fee at launch, in basis points (at most 10000).
    /// @param decaySeconds_ How long the fee takes to fall to zero, in seconds (not zero).
    constructor(string memory name_, string memory symbol_, uint256 startBps_, uint256 decaySeconds_)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        require(startBps_ <= 10_000, "fee above 100%");
        require(decaySeconds_ > 0, "no decay");
        startBps = startBps_;
        decaySeconds = decaySeconds_;
        launchedAt = block.timestamp;
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Launches again: the fee is back at `startBps` and falls from now. Only the owner may call it.
    function relaunch() external onlyOwner {
        launchedAt = block.timestamp;
        emit Relaunched(block.timestamp);
    }

    /// @notice The fee a transfer pays now, in basis points.
    /// @return The fee.
    function currentFeeBps() public view returns (uint256) {
        uint256 elapsed = block.timestamp - launchedAt;
        if (elapsed >= decaySeconds) return 0;
        return startBps * (decaySeconds - elapsed) / decaySeconds;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = value * currentFeeBps() / 10_000;
        if (fee > 0) super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}

/// @title MaxTxToken
/// @notice An anti-whale limit: a buy or a sell (a transfer from or to a pair the owner marked) of more than
/// `maxTxAmount` reverts with `MaxTxExceeded`. Transfers from or to the owner, mints and burns are exempt, and so
/// are transfers that touch no marked pair.
contract MaxTxToken is ERC20, Ownable {
    /// @notice The largest buy or sell, in base units.
    uint256 public maxTxAmount;
    /// @notice Whether an address is a marked AMM pair.
    mapping(address pool => bool) public automatedMarketMakerPairs;

    /// @notice A pair was marked or unmarked.
    /// @param pool The pair.
    /// @param isPool Whether it is marked.
    event PoolSet(address indexed pool, bool isPool);

    /// @notice The limit changed.
    /// @param maxTxAmount The largest buy or sell, in base units.
    event MaxTxAmountSet(uint256 maxTxAmount);

    /// @notice A buy or sell above the limit.
    /// @param value The amount.
    /// @param maxTxAmount The limit.
    error MaxTxExceeded(uint256 value, uint256 maxTxAmount);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param maxTxAmount_ The largest buy or sell, in base units.
    constructor(string memory name_, string memory symbol_, uint256 maxTxAmount_)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        maxTxAmount = maxTxAmount_;
        emit MaxTxAmountSet(maxTxAmount_);
    }

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Marks or unmarks `pool` as an AMM pair. Only the owner may call it.
    /// @param pool The pair.
    /// @param isPool Whether transfers from and to it are limited.
    function setPool(address pool, bool isPool) external onlyOwner {
        automatedMarketMakerPairs[pool] = isPool;
        emit PoolSet(pool, isPool);
    }

    /// @notice Sets the largest buy or sell. Only the owner may call it.
    /// @param maxTxAmount_ The limit, in base units.
    function setMaxTxAmount(uint256 maxTxAmount_) external onlyOwner {
        maxTxAmount = maxTxAmount_;
        emit MaxTxAmountSet(maxTxAmount_);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (value > maxTxAmount && from != address(0) && to != address(0)) {
            bool trade = automatedMarketMakerPairs[from] || automatedMarketMakerPairs[to];
            bool exempt = from == owner() || to == owner();
            if (trade && !exempt) revert MaxTxExceeded(value, maxTxAmount);
        }
        super._update(from, to, value);
    }
}

/// @title SilentPauseToken
/// @notice The owner can stop every transfer, mints and burns included, and logs nothing when it does (no `Paused`
/// event to watch for): while paused, transfers revert with `TransfersPaused`.
contract SilentPauseToken is ERC20, Ownable {
    /// @notice Whether transfers are stopped.
    bool public paused;

    /// @notice A transfer while paused.
    error TransfersPaused();

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Stops or restarts every transfer, without an event. Only the owner may call it.
    /// @param paused_ Whether transfers are stopped.
    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (paused) revert TransfersPaused();
        super._update(from, to, value);
    }
}

/// @title SilentBlocklistToken
/// @notice The owner can block accounts and logs nothing when it does (no event to watch for): a transfer from or
/// to a blocked account, a mint to one included, reverts with `BlockedAccount`.
contract SilentBlocklistToken is ERC20, Ownable {
    /// @notice Whether an account is blocked.
    mapping(address account => bool) public isBlocked;

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

    /// @notice Blocks or unblocks `account`, without an event. Only the owner may call it.
    /// @param account The account.
    /// @param blocked Whether it is blocked.
    function setBlocked(address account, bool blocked) external onlyOwner {
        isBlocked[account] = blocked;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (isBlocked[from]) revert BlockedAccount(from);
        if (isBlocked[to]) revert BlockedAccount(to);
        super._update(from, to, value);
    }
}

/// @title RebasingToken
/// @notice Balances that change by themselves (as stETH, AMPL and Aave's aTokens do): an account holds shares, and
/// its balance is its shares times an index. The index grows continuously with time, by `growthBpsPerDay` of its
/// value at the last checkpoint per day (simple growth between checkpoints), and the owner can set it outright
/// (`rebase`, which logs nothing). Transfers, allowances and events are in tokens; a transfer moves the shares that
/// the amount is worth, rounded down, so the recipient may receive a unit or two less than was sent and the sender
/// may keep a unit or two of dust (as with stETH).
contract RebasingToken is IERC20, IERC20Metadata, Ownable {
    /// @notice The precision of the index: an index of `INDEX_ONE` is one token per share.
    uint256 public constant INDEX_ONE = 1e18;

    string private _name;
    string private _symbol;
    /// @notice The growth of the index per day, in basis points of its value at the last checkpoint.
    uint256 public immutable growthBpsPerDay;
    /// @notice The index at the last checkpoint (`INDEX_ONE` precision).
    uint256 public baseIndex;
    /// @notice When the last checkpoint was taken.
    uint256 public indexUpdatedAt;
    /// @notice Each account's shares.
    mapping(address account => uint256) public sharesOf;
    /// @notice The shares in existence.
    uint256 public totalShares;
    mapping(address owner => mapping(address spender => uint256)) private _allowances;

    /// @notice A transfer above the payer's balance.
    /// @param account The payer.
    /// @param balance Its balance.
    /// @param needed The amount.
    error InsufficientBalance(address account, uint256 balance, uint256 needed);

    /// @notice A transfer above the spender's allowance.
    /// @param spender The spender.
    /// @param allowance Its allowance.
    /// @param needed The amount.
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);

    /// @notice A transfer or approval with the zero address.
    error ZeroAddress();

    /// @notice An index of zero.
    error ZeroIndex();

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    /// @param growthBpsPerDay_ The growth of the index per day, in basis points (1000: +10% a day).
    constructor(string memory name_, string memory symbol_, uint256 growthBpsPerDay_) Ownable(msg.sender) {
        _name = name_;
        _symbol = symbol_;
        growthBpsPerDay = growthBpsPerDay_;
        baseIndex = INDEX_ONE;
        indexUpdatedAt = block.timestamp;
    }

    /// @notice The token name.
    /// @return The name.
    function name() external view returns (string memory) {
        return _name;
    }

    /// @notice The token symbol.
    /// @return The symbol.
    function symbol() external view returns (string memory) {
        return _symbol;
    }

    /// @notice The number of decimals: 18.
    /// @return The decimals.
    function decimals() external pure returns (uint8) {
        return 18;
    }

    /// @notice Tokens per share now (`INDEX_ONE` precision).
    /// @return The index.
    function index() public view returns (uint256) {
        uint256 elapsed = block.timestamp - indexUpdatedAt;
        return baseIndex + baseIndex * growthBpsPerDay * elapsed / (10_000 * 1 days);
    }

    /// @notice The tokens in existence now: every share at the current index.
    /// @return The supply.
    function totalSupply() external view returns (uint256) {
        return totalShares * index() / INDEX_ONE;
    }

    /// @notice What `account`'s shares are worth now.
    /// @param account The holder.
    /// @return The balance.
    function balanceOf(address account) public view returns (uint256) {
        return sharesOf[account] * index() / INDEX_ONE;
    }

    /// @notice The tokens `spender` may still move for `owner_`.
    /// @param owner_ The holder.
    /// @param spender The spender.
    /// @return The allowance.
    function allowance(address owner_, address spender) external view returns (uint256) {
        return _allowances[owner_][spender];
    }

    /// @notice Creates `amount` tokens' worth of shares for `to`, at the current index. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        uint256 shares = amount * INDEX_ONE / index();
        totalShares += shares;
        sharesOf[to] += shares;
        emit Transfer(address(0), to, amount);
    }

    /// @notice Sets the index outright, from which it grows again; logs nothing. Only the owner may call it.
    /// @param newIndex Tokens per share (`INDEX_ONE` precision, not zero).
    function rebase(uint256 newIndex) external onlyOwner {
        if (newIndex == 0) revert ZeroIndex();
        baseIndex = newIndex;
        indexUpdatedAt = block.timestamp;
    }

    /// @notice Sets the caller's allowance for `spender`, in tokens.
    /// @param spender The spender.
    /// @param amount The allowance.
    /// @return True.
    function approve(address spender, uint256 amount) external returns (bool) {
        if (spender == address(0)) revert ZeroAddress();
        _allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    /// @notice Moves `amount` tokens' worth of shares (rounded down) to `to`.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return True.
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Moves `amount` tokens' worth of shares (rounded down) from `from` to `to` on the caller's allowance.
    /// @param from The payer.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return True.
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = _allowances[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(msg.sender, allowed, amount);
            _allowances[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (from == address(0) || to == address(0)) revert ZeroAddress();
        uint256 balance = balanceOf(from);
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        uint256 shares = amount * INDEX_ONE / index();
        sharesOf[from] -= shares;
        sharesOf[to] += shares;
        emit Transfer(from, to, amount);
    }
}

/// @title LyingBalanceToken
/// @notice An ordinary ERC20 whose `balanceOf` overstates: it reports one unit more than the account holds for
/// every account that holds anything (zero for an empty one). Transfers move what is really held, so moving the
/// whole reported balance reverts, and the reported balances add up to more than `totalSupply`.
contract LyingBalanceToken is ERC20, Ownable {
    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Creates `amount` tokens for `to`. Only the owner may call it.
    /// @param to The account credited.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice What `account` holds, plus one unit when it holds anything.
    /// @param account The holder.
    /// @return The reported balance.
    function balanceOf(address account) public view override returns (uint256) {
        uint256 held = super.balanceOf(account);
        return held == 0 ? 0 : held + 1;
    }
}
