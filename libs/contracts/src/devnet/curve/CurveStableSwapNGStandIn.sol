// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

// STAND-IN for Curve's StableswapNG plain pool (curvefi/stableswap-ng, contracts/main/CurveStableSwapNG.vy, Vyper
// 0.3.10, "v7.0.0", with the views contract it delegates to, contracts/main/CurveStableSwapNGViews.vy "1.2.0").
// Curve's pools are Vyper and no installable package ships their bytecode, so the devnet runs this Solidity
// transliteration instead: the same external interface (names, selectors, int128 coin indices, events with NG's
// exact signatures and field names) and the same integer maths, so an integration written against this contract
// works unchanged against the real pools. It is not Curve's code and is not audited; it exists only for the devnet.
//
// What is the same as NG, to the wei: get_D, get_y, get_y_D, the dynamic fee (offpeg_fee_multiplier), A and its
// ramp, rates (asset types 0 standard, 1 oracle, 2 rebasing, 3 ERC4626), exchange / exchange_received (NG semantics:
// the pool swaps what it received above its stored balance), the liquidity functions and their fees, admin fees
// (admin_balances, withdrawn to the factory's fee_receiver), and the view functions the real pool delegates to its
// views contract (get_dy, get_dx, calc_token_amount, dynamic_fee), which, like the real ones, use `A() * 100`, A
// truncated to an integer: during a ramp, when A_precise() is not a multiple of 100, get_dy is NOT exactly what
// exchange pays, on the real pool as here. Outside a ramp (or whenever A_precise() % 100 == 0) it is exactly that.
//
// What differs: where NG has a bare `assert` (an empty revert), this contract reverts with a custom error, and Vyper's
// overflow / out-of-bounds reverts are Solidity panics; NG's string reverts ("Slippage screwed you", ...) are kept as
// the same strings. The price and D oracles (last_price, ema_price, price_oracle, get_p, D_oracle; their upkeep on
// every trade) and EIP-2612 permit (permit, nonces, DOMAIN_SEPARATOR, salt) are not implemented: they change no amount
// a swap or a liquidity operation pays. Coins and per-coin settings live in storage instead of Vyper immutables, so
// gas differs. The pool reads its factory's `admin()` and `fee_receiver()` as NG does, so it must be deployed by a
// contract that has them (CurveStableSwapFactoryNGStandIn, through its blueprint, as NG's factory does).

/// @notice What an NG pool reads of the factory that deployed it.
interface ICurveStableSwapNGFactoryLike {
    /// @notice Who may ramp A, set fees and set the oracle windows of the factory's pools.
    function admin() external view returns (address);

    /// @notice Where the pools send their admin fees; none sent while it is the zero address.
    function fee_receiver() external view returns (address);
}

/// @notice The ERC4626 and ERC20 metadata calls an NG pool makes on its coins.
interface ICurveNGCoinLike {
    /// @notice The coin's decimals.
    function decimals() external view returns (uint8);

    /// @notice An ERC4626 vault's underlying asset.
    function asset() external view returns (address);

    /// @notice The assets `shares` of an ERC4626 vault are worth.
    function convertToAssets(uint256 shares) external view returns (uint256);
}

/// @title CurveStableSwapNGStandIn
/// @notice Devnet stand-in for a Curve StableswapNG plain pool of 2 to 8 coins, with NG's external interface and maths
/// (see the header of this file for what is and is not the same as the Vyper pool). The pool is also its LP token
/// (18 decimals). Coin indices are int128, as in NG.
contract CurveStableSwapNGStandIn is ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    // ---------------------------------------------------------------- constants (CurveStableSwapNG.vy)

    uint256 private constant MAX_COINS = 8;
    uint256 private constant PRECISION = 10 ** 18;
    uint256 private constant FEE_DENOMINATOR = 10 ** 10;
    uint256 private constant MAX_FEE = 5 * 10 ** 9;
    uint256 private constant A_PRECISION = 100;
    uint256 private constant MAX_A = 10 ** 6;
    uint256 private constant MAX_A_CHANGE = 10;
    uint256 private constant MIN_RAMP_TIME = 86400;
    /// @dev shift(2**32 - 1, 224): the method id of a packed rate oracle.
    uint256 private constant ORACLE_BIT_MASK = (2 ** 32 - 1) * 256 ** 28;

    /// @notice The share of every fee kept for the admin (the factory's fee receiver), 1e10 precision: 50%.
    uint256 public constant admin_fee = 5000000000;

    /// @notice The LP token's decimals.
    uint8 public constant decimals = 18;

    /// @notice The NG pool version this contract stands in for.
    string public constant version = "v7.0.0";

    // ---------------------------------------------------------------- immutable settings

    /// @notice The number of coins in the pool.
    uint256 public immutable N_COINS;

    /// @dev The factory that deployed the pool (NG: `factory`, not public).
    ICurveStableSwapNGFactoryLike private immutable _factory;

    /// @dev Whether an asset type is 2 (rebasing): balances are then read with `balanceOf`.
    bool private immutable _containsRebasing;

    // ---------------------------------------------------------------- per-coin settings (immutables in NG)

    address[] private _coin;
    uint8[] private _assetType;
    /// @dev 10 ** (36 - decimals) of each coin, from the factory.
    uint256[] private _rateMultiplier;
    /// @dev [bytes4 method_id][bytes8 <empty>][bytes20 oracle].
    uint256[] private _rateOracle;
    /// @dev ERC4626 coins: 10 ** vault decimals, and 10 ** (18 - underlying decimals).
    uint256[] private _callAmount;
    uint256[] private _scaleFactor;

    // ---------------------------------------------------------------- pool state

    /// @dev What the pool holds of each coin by its own accounting (admin fees included).
    uint256[] private _storedBalance;
    /// @dev The admin's share of the fees, per coin, until withdrawn.
    uint256[] private _adminBalance;

    /// @notice The swap fee, 1e10 precision.
    uint256 public fee;

    /// @notice How much the fee grows off peg, 1e10 precision (at most 1e10 means a static fee).
    uint256 public offpeg_fee_multiplier;

    /// @notice A * A_PRECISION at the start of the current ramp.
    uint256 public initial_A;

    /// @notice A * A_PRECISION at the end of the current ramp.
    uint256 public future_A;

    /// @notice When the current ramp started.
    uint256 public initial_A_time;

    /// @notice When the current ramp ends.
    uint256 public future_A_time;

    /// @notice The price oracles' averaging window (stored and settable as in NG; the oracles are not implemented).
    uint256 public ma_exp_time;

    /// @notice The D oracle's averaging window (stored and settable as in NG; the oracle is not implemented).
    uint256 public D_ma_time;

    // ---------------------------------------------------------------- LP token

    /// @notice The LP token's name.
    string public name;

    /// @notice The LP token's symbol.
    string public symbol;

    /// @notice LP token balances.
    mapping(address => uint256) public balanceOf;

    /// @notice LP token allowances.
    mapping(address => mapping(address => uint256)) public allowance;

    uint256 private _totalSupply;

    // ---------------------------------------------------------------- events (NG's declarations, exactly)

    /// @notice LP tokens moved (minted from, burnt to, the zero address).
    event Transfer(address indexed sender, address indexed receiver, uint256 value);

    /// @notice An LP token allowance was set.
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice A swap: `buyer` is the caller (not the receiver), `tokens_sold` what the pool received.
    event TokenExchange(
        address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought
    );

    /// @notice Declared by NG's plain pool too (for metapools); never emitted here.
    event TokenExchangeUnderlying(
        address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought
    );

    /// @notice A deposit: the amounts asked for, the fee charged per coin (empty for the first deposit), the new D and
    /// LP supply.
    event AddLiquidity(
        address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply
    );

    /// @notice A proportional withdrawal (`fees` is always empty).
    event RemoveLiquidity(address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 token_supply);

    /// @notice A single-coin withdrawal.
    event RemoveLiquidityOne(
        address indexed provider, int128 token_id, uint256 token_amount, uint256 coin_amount, uint256 token_supply
    );

    /// @notice An imbalanced withdrawal.
    event RemoveLiquidityImbalance(
        address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply
    );

    /// @notice A ramp of A started (values are A * A_PRECISION).
    event RampA(uint256 old_A, uint256 new_A, uint256 initial_time, uint256 future_time);

    /// @notice A ramp of A was stopped at `A` (A * A_PRECISION).
    event StopRampA(uint256 A, uint256 t);

    /// @notice The fee and off-peg multiplier were set.
    event ApplyNewFee(uint256 fee, uint256 offpeg_fee_multiplier);

    /// @notice The oracle windows were set.
    event SetNewMATime(uint256 ma_exp_time, uint256 D_ma_time);

    // ---------------------------------------------------------------- errors (the real pool reverts without data)

    /// @notice Stand-in guard: a pool has 2 to 8 coins (NG relies on its factory and on its array bounds).
    error InvalidCoinCount(uint256 count);

    /// @notice `_ma_exp_time` was zero. NG: `assert _ma_exp_time != 0` (empty revert).
    error InvalidMaExpTime();

    /// @notice A coin index outside [0, N_COINS). NG: Vyper's array bounds check (empty revert).
    error CoinIndexOutOfRange(int128 index);

    /// @notice A swap from a coin to itself. NG: `assert i != j` (empty revert).
    error SameCoin();

    /// @notice A zero swap, transfer in or burn. NG: `assert _dx > 0` and the like (empty revert).
    error ZeroAmount();

    /// @notice exchange_received on a pool with a rebasing coin. NG: `assert not pool_contains_rebasing_tokens`
    /// (empty revert).
    error RebasingPool();

    /// @notice exchange_received found less above the stored balance than `_dx`. NG: `assert _dx >= dx` (empty revert).
    error InsufficientReceived(uint256 received, uint256 expected);

    /// @notice Coins or LP tokens sent to the zero address. NG: `assert receiver != empty(address)` (empty revert).
    error ZeroReceiver();

    /// @notice The first deposit lacks a coin. NG: `assert total_supply != 0` (empty revert).
    error InitialDepositRequiresAllCoins();

    /// @notice A deposit that does not raise D. NG: `assert D1 > D0` (empty revert).
    error InvariantNotIncreased();

    /// @notice remove_liquidity_imbalance would burn nothing. NG: `assert burn_amount > 1` (empty revert).
    error NothingBurned();

    /// @notice `_min_amounts` is not N_COINS long. NG: `assert len(_min_amounts) == N_COINS` (empty revert).
    error InvalidArrayLength();

    /// @notice An admin function called by someone other than the factory's admin. NG: empty revert.
    error OnlyOwner(address caller);

    /// @notice ramp_A within MIN_RAMP_TIME of the last ramp's start, or ending sooner than MIN_RAMP_TIME. NG: empty
    /// revert.
    error RampTooSoon();

    /// @notice A future A of 0, at least MAX_A, or more than 10 times away from the current A. NG: empty revert.
    error InvalidA();

    /// @notice A fee above MAX_FEE, or an off-peg multiplier times fee above MAX_FEE * 1e10. NG: empty revert.
    error FeeTooHigh();

    /// @notice A zero oracle window. NG: empty revert.
    error InvalidMaTime();

    /// @notice A rate oracle answered less than 32 bytes. NG: `assert len(oracle_response) == 32` (empty revert).
    error InvalidOracleResponse();

    /// @notice get_D / get_y did not converge in 255 rounds. NG: `raise` (empty revert).
    error DidNotConverge();

    /// @dev The state of a liquidity operation (kept in memory to stay within the stack).
    struct Liquidity {
        uint256 amp;
        uint256[] rates;
        uint256[] oldBalances;
        uint256[] newBalances;
        uint256 D0;
        uint256 D1;
    }

    // ---------------------------------------------------------------- construction

    /// @notice Sets the pool up; called by the factory (`msg.sender` is the factory, as in NG), with NG's arguments.
    /// @param _name The LP token's name.
    /// @param _symbol The LP token's symbol.
    /// @param _A The amplification coefficient (without A_PRECISION).
    /// @param _fee The swap fee, 1e10 precision.
    /// @param _offpeg_fee_multiplier The off-peg fee multiplier, 1e10 precision.
    /// @param _ma_exp_time The price oracles' averaging window (nonzero).
    /// @param _coins The coins, 2 to 8.
    /// @param _rate_multipliers 10 ** (36 - decimals) of each coin.
    /// @param _asset_types Each coin's asset type: 0 standard, 1 oracle, 2 rebasing, 3 ERC4626.
    /// @param _method_ids The rate method of each oracle coin (type 1), else zero.
    /// @param _oracles The rate oracle of each oracle coin (type 1), else zero.
    constructor(
        string memory _name,
        string memory _symbol,
        uint256 _A,
        uint256 _fee,
        uint256 _offpeg_fee_multiplier,
        uint256 _ma_exp_time,
        address[] memory _coins,
        uint256[] memory _rate_multipliers,
        uint8[] memory _asset_types,
        bytes4[] memory _method_ids,
        address[] memory _oracles
    ) {
        uint256 n = _coins.length;
        if (n < 2 || n > MAX_COINS) revert InvalidCoinCount(n);
        N_COINS = n;
        _factory = ICurveStableSwapNGFactoryLike(msg.sender);

        bool rebasing;
        for (uint256 i; i < n; ++i) {
            if (_asset_types[i] == 2) rebasing = true;
        }
        _containsRebasing = rebasing;

        uint256 amp = _A * A_PRECISION;
        initial_A = amp;
        future_A = amp;
        fee = _fee;
        offpeg_fee_multiplier = _offpeg_fee_multiplier;

        if (_ma_exp_time == 0) revert InvalidMaExpTime();
        ma_exp_time = _ma_exp_time;
        D_ma_time = 62324; // 12 hours default on contract start (NG).

        _coin = _coins;
        _assetType = _asset_types;
        _rateMultiplier = _rate_multipliers;
        _setUpCoins(_coins, _asset_types, _method_ids, _oracles);

        name = _name;
        symbol = _symbol;

        emit Transfer(address(0), msg.sender, 0);
    }

    /// @dev The per-coin state NG fills in its constructor loop: packed rate oracles, ERC4626 call amounts and scale
    /// factors, zero balances.
    function _setUpCoins(
        address[] memory coins_,
        uint8[] memory assetTypes,
        bytes4[] memory methodIds,
        address[] memory oracles
    ) private {
        for (uint256 i; i < coins_.length; ++i) {
            _rateOracle.push((uint256(uint32(methodIds[i])) << 224) | uint256(uint160(oracles[i])));
            _storedBalance.push(0);
            _adminBalance.push(0);
            if (assetTypes[i] == 3) {
                ICurveNGCoinLike vault = ICurveNGCoinLike(coins_[i]);
                _callAmount.push(10 ** uint256(vault.decimals()));
                _scaleFactor.push(10 ** (18 - uint256(ICurveNGCoinLike(vault.asset()).decimals())));
            } else {
                _callAmount.push(0);
                _scaleFactor.push(0);
            }
        }
    }

    // ---------------------------------------------------------------- swaps

    /// @notice Swaps `_dx` of coin `i` (pulled from the caller) for coin `j`, paid to the caller.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param _dx The amount sold.
    /// @param _min_dy The least to receive, else the swap reverts "Exchange resulted in fewer coins than expected".
    /// @return The amount of coin `j` paid.
    function exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy) external nonReentrant returns (uint256) {
        return _exchange(i, j, _dx, _min_dy, msg.sender, false);
    }

    /// @notice Swaps `_dx` of coin `i` (pulled from the caller) for coin `j`, paid to `_receiver`.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param _dx The amount sold.
    /// @param _min_dy The least to receive.
    /// @param _receiver Who receives coin `j`.
    /// @return The amount of coin `j` paid.
    function exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _exchange(i, j, _dx, _min_dy, _receiver, false);
    }

    /// @notice Swaps what the pool received of coin `i` above its stored balance (at least `_dx`) for coin `j`, paid
    /// to the caller: send the coin first, then call. Refused when the pool has a rebasing coin.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param _dx The least the pool must have received; the whole surplus is swapped.
    /// @param _min_dy The least to receive.
    /// @return The amount of coin `j` paid.
    function exchange_received(int128 i, int128 j, uint256 _dx, uint256 _min_dy)
        external
        nonReentrant
        returns (uint256)
    {
        if (_containsRebasing) revert RebasingPool();
        return _exchange(i, j, _dx, _min_dy, msg.sender, true);
    }

    /// @notice exchange_received paying `_receiver`.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param _dx The least the pool must have received; the whole surplus is swapped.
    /// @param _min_dy The least to receive.
    /// @param _receiver Who receives coin `j`.
    /// @return The amount of coin `j` paid.
    function exchange_received(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver)
        external
        nonReentrant
        returns (uint256)
    {
        if (_containsRebasing) revert RebasingPool();
        return _exchange(i, j, _dx, _min_dy, _receiver, true);
    }

    /// @dev NG's `_exchange`: rates and balances before the transfer in, the swap on what was received.
    function _exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address receiver, bool optimistic)
        private
        returns (uint256 dy)
    {
        if (i == j) revert SameCoin();
        if (_dx == 0) revert ZeroAmount();
        uint256 ui = _index(i);
        uint256 uj = _index(j);

        uint256[] memory rates = _storedRates();
        uint256[] memory xp = _xpMem(rates, _balances());

        uint256 dx = _transferIn(ui, _dx, msg.sender, optimistic);

        uint256 x = xp[ui] + dx * rates[ui] / PRECISION;
        dy = _swapMaths(x, xp, rates, ui, uj);
        require(dy >= _min_dy, "Exchange resulted in fewer coins than expected");

        _transferOut(uj, dy, receiver);

        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    /// @dev NG's `__exchange` (without the oracle upkeep): the output at the precise A, less the dynamic fee, half of
    /// which is the admin's.
    function _swapMaths(uint256 x, uint256[] memory xp, uint256[] memory rates, uint256 i, uint256 j)
        private
        returns (uint256 dy)
    {
        uint256 amp = _aPrecise();
        uint256 D = _getD(xp, amp);
        uint256 y = _getY(i, j, x, xp, amp, D);

        dy = xp[j] - y - 1; // -1 just in case there were some rounding errors
        uint256 dyFee = dy * _dynamicFee((xp[i] + x) / 2, (xp[j] + y) / 2, fee) / FEE_DENOMINATOR;

        // Convert all to real units
        dy = (dy - dyFee) * PRECISION / rates[j];

        // NG's rounding, kept: the admin's share is truncated before its conversion to coin units.
        // forge-lint: disable-next-line(divide-before-multiply)
        _adminBalance[j] += (dyFee * admin_fee / FEE_DENOMINATOR) * PRECISION / rates[j];
    }

    // ---------------------------------------------------------------- liquidity

    /// @notice Deposits `_amounts` (pulled from the caller) and mints LP tokens to the caller. The first deposit must
    /// include every coin and mints D.
    /// @param _amounts The amount of each coin (at least N_COINS entries).
    /// @param _min_mint_amount The least LP to mint, else the call reverts "Slippage screwed you".
    /// @return The LP tokens minted.
    function add_liquidity(uint256[] calldata _amounts, uint256 _min_mint_amount)
        external
        nonReentrant
        returns (uint256)
    {
        return _addLiquidity(_amounts, _min_mint_amount, msg.sender);
    }

    /// @notice add_liquidity minting to `_receiver`.
    /// @param _amounts The amount of each coin.
    /// @param _min_mint_amount The least LP to mint.
    /// @param _receiver Who receives the LP tokens.
    /// @return The LP tokens minted.
    function add_liquidity(uint256[] calldata _amounts, uint256 _min_mint_amount, address _receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _addLiquidity(_amounts, _min_mint_amount, _receiver);
    }

    function _addLiquidity(uint256[] calldata amounts, uint256 minMint, address receiver)
        private
        returns (uint256 mintAmount)
    {
        if (receiver == address(0)) revert ZeroReceiver();

        Liquidity memory l;
        l.amp = _aPrecise();
        l.oldBalances = _balances();
        l.rates = _storedRates();
        l.D0 = _getD(_xpMem(l.rates, l.oldBalances), l.amp);

        uint256 totalSupply_ = _totalSupply;
        l.newBalances = _copy(l.oldBalances);
        uint256 n = N_COINS;
        for (uint256 i; i < n; ++i) {
            if (amounts[i] > 0) {
                l.newBalances[i] += _transferIn(i, amounts[i], msg.sender, false);
            } else if (totalSupply_ == 0) {
                revert InitialDepositRequiresAllCoins();
            }
        }

        l.D1 = _getD(_xpMem(l.rates, l.newBalances), l.amp);
        if (l.D1 <= l.D0) revert InvariantNotIncreased();

        uint256[] memory fees;
        if (totalSupply_ > 0) {
            fees = _liquidityFees(l, (l.D0 + l.D1) / n);
            _chargeAdminFees(fees);
            l.D1 = _getD(_xpMem(l.rates, l.newBalances), l.amp);
            mintAmount = totalSupply_ * (l.D1 - l.D0) / l.D0;
        } else {
            fees = new uint256[](0);
            mintAmount = l.D1; // Take the dust if there was any
        }

        require(mintAmount >= minMint, "Slippage screwed you");

        totalSupply_ += mintAmount;
        balanceOf[receiver] += mintAmount;
        _totalSupply = totalSupply_;
        emit Transfer(address(0), receiver, mintAmount);

        emit AddLiquidity(msg.sender, amounts, fees, l.D1, totalSupply_);
    }

    /// @notice Burns `_burn_amount` LP of the caller for its share of every coin, paid to the caller; also sends the
    /// admin fees to the factory's fee receiver.
    /// @param _burn_amount The LP tokens burnt.
    /// @param _min_amounts The least of each coin (exactly N_COINS entries).
    /// @return The amount of each coin paid.
    function remove_liquidity(uint256 _burn_amount, uint256[] calldata _min_amounts)
        external
        nonReentrant
        returns (uint256[] memory)
    {
        return _removeLiquidity(_burn_amount, _min_amounts, msg.sender, true);
    }

    /// @notice remove_liquidity paying `_receiver`.
    /// @param _burn_amount The LP tokens burnt.
    /// @param _min_amounts The least of each coin.
    /// @param _receiver Who receives the coins.
    /// @return The amount of each coin paid.
    function remove_liquidity(uint256 _burn_amount, uint256[] calldata _min_amounts, address _receiver)
        external
        nonReentrant
        returns (uint256[] memory)
    {
        return _removeLiquidity(_burn_amount, _min_amounts, _receiver, true);
    }

    /// @notice remove_liquidity paying `_receiver`, sending the admin fees out only if `_claim_admin_fees`.
    /// @param _burn_amount The LP tokens burnt.
    /// @param _min_amounts The least of each coin.
    /// @param _receiver Who receives the coins.
    /// @param _claim_admin_fees Whether to send the admin fees to the fee receiver too.
    /// @return The amount of each coin paid.
    function remove_liquidity(
        uint256 _burn_amount,
        uint256[] calldata _min_amounts,
        address _receiver,
        bool _claim_admin_fees
    ) external nonReentrant returns (uint256[] memory) {
        return _removeLiquidity(_burn_amount, _min_amounts, _receiver, _claim_admin_fees);
    }

    function _removeLiquidity(uint256 burnAmount, uint256[] calldata minAmounts, address receiver, bool claimFees)
        private
        returns (uint256[] memory amounts)
    {
        uint256 totalSupply_ = _totalSupply;
        if (burnAmount == 0) revert ZeroAmount();
        uint256 n = N_COINS;
        if (minAmounts.length != n) revert InvalidArrayLength();

        amounts = new uint256[](n);
        uint256[] memory balances_ = _balances();
        for (uint256 i; i < n; ++i) {
            uint256 value = balances_[i] * burnAmount / totalSupply_;
            require(value >= minAmounts[i], "Withdrawal resulted in fewer coins than expected");
            amounts[i] = value;
            _transferOut(i, value, receiver);
        }

        _burnFrom(msg.sender, burnAmount);

        emit RemoveLiquidity(msg.sender, amounts, new uint256[](0), totalSupply_ - burnAmount);

        if (claimFees) _withdrawAdminFees();
    }

    /// @notice Burns `_burn_amount` LP of the caller for coin `i` only, paid to the caller.
    /// @param _burn_amount The LP tokens burnt.
    /// @param i The index of the coin withdrawn.
    /// @param _min_received The least to receive, else the call reverts "Not enough coins removed".
    /// @return The amount of coin `i` paid.
    function remove_liquidity_one_coin(uint256 _burn_amount, int128 i, uint256 _min_received)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityOneCoin(_burn_amount, i, _min_received, msg.sender);
    }

    /// @notice remove_liquidity_one_coin paying `_receiver`.
    /// @param _burn_amount The LP tokens burnt.
    /// @param i The index of the coin withdrawn.
    /// @param _min_received The least to receive.
    /// @param _receiver Who receives the coin.
    /// @return The amount of coin `i` paid.
    function remove_liquidity_one_coin(uint256 _burn_amount, int128 i, uint256 _min_received, address _receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityOneCoin(_burn_amount, i, _min_received, _receiver);
    }

    function _removeLiquidityOneCoin(uint256 burnAmount, int128 i, uint256 minReceived, address receiver)
        private
        returns (uint256 dy)
    {
        if (burnAmount == 0) revert ZeroAmount();
        uint256 ui = _index(i);
        uint256 coinFee;
        (dy, coinFee) = _calcWithdrawOneCoin(burnAmount, ui);
        require(dy >= minReceived, "Not enough coins removed");

        _adminBalance[ui] += coinFee * admin_fee / FEE_DENOMINATOR;

        _burnFrom(msg.sender, burnAmount);

        _transferOut(ui, dy, receiver);

        emit RemoveLiquidityOne(msg.sender, i, burnAmount, dy, _totalSupply);
    }

    /// @notice Withdraws exactly `_amounts` to the caller, burning the LP that takes (fees included).
    /// @param _amounts The amount of each coin (at least N_COINS entries).
    /// @param _max_burn_amount The most LP to burn, else the call reverts "Slippage screwed you".
    /// @return The LP tokens burnt.
    function remove_liquidity_imbalance(uint256[] calldata _amounts, uint256 _max_burn_amount)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityImbalance(_amounts, _max_burn_amount, msg.sender);
    }

    /// @notice remove_liquidity_imbalance paying `_receiver`.
    /// @param _amounts The amount of each coin.
    /// @param _max_burn_amount The most LP to burn.
    /// @param _receiver Who receives the coins.
    /// @return The LP tokens burnt.
    function remove_liquidity_imbalance(uint256[] calldata _amounts, uint256 _max_burn_amount, address _receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityImbalance(_amounts, _max_burn_amount, _receiver);
    }

    function _removeLiquidityImbalance(uint256[] calldata amounts, uint256 maxBurn, address receiver)
        private
        returns (uint256 burnAmount)
    {
        Liquidity memory l;
        l.amp = _aPrecise();
        l.rates = _storedRates();
        l.oldBalances = _balances();
        l.D0 = _getD(_xpMem(l.rates, l.oldBalances), l.amp);
        l.newBalances = _copy(l.oldBalances);

        uint256 n = N_COINS;
        for (uint256 i; i < n; ++i) {
            if (amounts[i] != 0) {
                l.newBalances[i] -= amounts[i];
                _transferOut(i, amounts[i], receiver);
            }
        }

        l.D1 = _getD(_xpMem(l.rates, l.newBalances), l.amp);
        uint256[] memory fees = _liquidityFees(l, (l.D0 + l.D1) / n);
        _chargeAdminFees(fees);
        l.D1 = _getD(_xpMem(l.rates, l.newBalances), l.amp);

        uint256 totalSupply_ = _totalSupply;
        burnAmount = (l.D0 - l.D1) * totalSupply_ / l.D0 + 1;
        if (burnAmount <= 1) revert NothingBurned();
        require(burnAmount <= maxBurn, "Slippage screwed you");

        _burnFrom(msg.sender, burnAmount);

        emit RemoveLiquidityImbalance(msg.sender, amounts, fees, l.D1, totalSupply_ - burnAmount);
    }

    /// @notice Sends the admin fees to the factory's fee receiver (nothing while it is the zero address). Anyone may
    /// call it.
    function withdraw_admin_fees() external nonReentrant {
        _withdrawAdminFees();
    }

    // ---------------------------------------------------------------- views: quotes (NG's views contract)

    /// @notice The output of swapping `dx` of coin `i` for coin `j` now, as NG's views contract computes it (at
    /// `A() * 100`: exactly what exchange pays unless a ramp has A_precise() off a multiple of 100).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @return The amount of coin `j` the swap pays.
    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256) {
        uint256 ui = _index(i);
        uint256 uj = _index(j);
        (uint256[] memory rates,, uint256[] memory xp, uint256 amp) = _viewsState();
        uint256 D = _getD(xp, amp);

        uint256 x = xp[ui] + dx * rates[ui] / PRECISION;
        uint256 y = _getY(ui, uj, x, xp, amp, D);
        uint256 dy = xp[uj] - y - 1;

        uint256 fee_ = _dynamicFee((xp[ui] + x) / 2, (xp[uj] + y) / 2, fee) * dy / FEE_DENOMINATOR;
        return (dy - fee_) * PRECISION / rates[uj];
    }

    /// @notice The input of coin `i` that buys `dy` of coin `j`, as NG's views contract estimates it (the fee taken at
    /// the current balances: an estimate, not an exact inverse of get_dy).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dy The amount bought.
    /// @return The amount of coin `i` needed.
    function get_dx(int128 i, int128 j, uint256 dy) external view returns (uint256) {
        uint256 ui = _index(i);
        uint256 uj = _index(j);
        (uint256[] memory rates,, uint256[] memory xp, uint256 amp) = _viewsState();
        uint256 D = _getD(xp, amp);

        uint256 dyWithFee = dy * rates[uj] / PRECISION + 1;
        uint256 fee_ = _dynamicFee(xp[ui], xp[uj], fee);
        uint256 y = xp[uj] - dyWithFee * FEE_DENOMINATOR / (FEE_DENOMINATOR - fee_);
        uint256 x = _getY(uj, ui, y, xp, amp, D);
        return (x - xp[ui]) * PRECISION / rates[ui];
    }

    /// @notice The LP minted by depositing, or burnt by withdrawing, `_amounts`, as NG's views contract computes it
    /// (a withdrawal burns one more than this).
    /// @param _amounts The amount of each coin.
    /// @param _is_deposit True for a deposit, false for a withdrawal.
    /// @return The LP tokens.
    function calc_token_amount(uint256[] calldata _amounts, bool _is_deposit)
        external
        view
        nonReentrantView
        returns (uint256)
    {
        Liquidity memory l;
        uint256[] memory xp;
        (l.rates, l.oldBalances, xp, l.amp) = _viewsState();
        l.D0 = _getD(xp, l.amp);

        uint256 n = N_COINS;
        l.newBalances = _copy(l.oldBalances);
        for (uint256 i; i < n; ++i) {
            if (_is_deposit) l.newBalances[i] += _amounts[i];
            else l.newBalances[i] -= _amounts[i];
        }
        l.D1 = _getD(_xpMem(l.rates, l.newBalances), l.amp);

        uint256 totalSupply_ = _totalSupply;
        if (totalSupply_ == 0) return l.D1; // Take the dust if there was any

        _liquidityFees(l, (l.D0 + l.D1) / n);
        uint256 D2 = _getD(_xpMem(l.rates, l.newBalances), l.amp);
        uint256 diff = _is_deposit ? D2 - l.D0 : l.D0 - D2;
        return diff * totalSupply_ / l.D0;
    }

    /// @notice The swap fee between coins `i` and `j` at the current balances, 1e10 precision (NG's views contract).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @return The fee.
    function dynamic_fee(int128 i, int128 j) external view returns (uint256) {
        uint256 ui = _index(i);
        uint256 uj = _index(j);
        (,, uint256[] memory xp,) = _viewsState();
        return _dynamicFee(xp[ui], xp[uj], fee);
    }

    /// @notice The coin `i` paid for burning `_burn_amount` LP (exactly what remove_liquidity_one_coin pays now).
    /// @param _burn_amount The LP tokens burnt.
    /// @param i The index of the coin withdrawn.
    /// @return The amount of coin `i`.
    function calc_withdraw_one_coin(uint256 _burn_amount, int128 i) external view returns (uint256) {
        (uint256 dy,) = _calcWithdrawOneCoin(_burn_amount, _index(i));
        return dy;
    }

    /// @notice D per LP token, 1e18 precision.
    /// @return The virtual price.
    function get_virtual_price() external view nonReentrantView returns (uint256) {
        uint256 D = _getD(_xpMem(_storedRates(), _balances()), _aPrecise());
        return D * PRECISION / _totalSupply;
    }

    // ---------------------------------------------------------------- views: state

    /// @notice Coin `i` of the pool (reverts past the last).
    /// @param i The coin's index.
    /// @return The coin.
    function coins(uint256 i) external view returns (address) {
        return _coin[i];
    }

    /// @notice The pool's balance of coin `i`, less the admin fees.
    /// @param i The coin's index.
    /// @return The balance.
    function balances(uint256 i) external view returns (uint256) {
        return _balances()[i];
    }

    /// @notice The pool's balances, less the admin fees.
    /// @return The balance of each coin.
    function get_balances() external view returns (uint256[] memory) {
        return _balances();
    }

    /// @notice Each coin's rate: 10 ** (36 - decimals), times its oracle rate or ERC4626 share price where it has one.
    /// @return The rates.
    function stored_rates() external view returns (uint256[] memory) {
        return _storedRates();
    }

    /// @notice The admin fees held of coin `i`, until withdrawn.
    /// @param i The coin's index.
    /// @return The amount.
    function admin_balances(uint256 i) external view returns (uint256) {
        return _adminBalance[i];
    }

    /// @notice The amplification coefficient (truncated; see A_precise).
    /// @return A.
    function A() external view returns (uint256) {
        return _aPrecise() / A_PRECISION;
    }

    /// @notice The amplification coefficient times A_PRECISION (100), interpolated during a ramp.
    /// @return A * 100.
    function A_precise() external view returns (uint256) {
        return _aPrecise();
    }

    /// @notice The LP token supply.
    /// @return The supply.
    function totalSupply() external view nonReentrantView returns (uint256) {
        return _totalSupply;
    }

    // ---------------------------------------------------------------- admin (the factory's admin)

    /// @notice Ramps A linearly to `_future_A` by `_future_time` (at least a day away, a day after the last ramp
    /// started, at most a tenfold change).
    /// @param _future_A The target A (without A_PRECISION).
    /// @param _future_time When the ramp ends.
    function ramp_A(uint256 _future_A, uint256 _future_time) external {
        _onlyOwner();
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp < initial_A_time + MIN_RAMP_TIME) revert RampTooSoon();
        // forge-lint: disable-next-line(block-timestamp)
        if (_future_time < block.timestamp + MIN_RAMP_TIME) revert RampTooSoon();

        uint256 initialA = _aPrecise();
        uint256 futureAp = _future_A * A_PRECISION;

        if (_future_A == 0 || _future_A >= MAX_A) revert InvalidA();
        if (futureAp < initialA) {
            if (futureAp * MAX_A_CHANGE < initialA) revert InvalidA();
        } else {
            if (futureAp > initialA * MAX_A_CHANGE) revert InvalidA();
        }

        initial_A = initialA;
        future_A = futureAp;
        initial_A_time = block.timestamp;
        future_A_time = _future_time;

        emit RampA(initialA, futureAp, block.timestamp, _future_time);
    }

    /// @notice Stops a ramp at the current A.
    function stop_ramp_A() external {
        _onlyOwner();
        uint256 currentA = _aPrecise();
        initial_A = currentA;
        future_A = currentA;
        initial_A_time = block.timestamp;
        future_A_time = block.timestamp;

        emit StopRampA(currentA, block.timestamp);
    }

    /// @notice Sets the fee (at most 0.5%) and the off-peg multiplier (multiplier * fee at most 0.5% * 1e10).
    /// @param _new_fee The fee, 1e10 precision.
    /// @param _new_offpeg_fee_multiplier The multiplier, 1e10 precision.
    function set_new_fee(uint256 _new_fee, uint256 _new_offpeg_fee_multiplier) external {
        _onlyOwner();
        if (_new_fee > MAX_FEE) revert FeeTooHigh();
        fee = _new_fee;
        if (_new_offpeg_fee_multiplier * _new_fee > MAX_FEE * FEE_DENOMINATOR) revert FeeTooHigh();
        offpeg_fee_multiplier = _new_offpeg_fee_multiplier;

        emit ApplyNewFee(_new_fee, _new_offpeg_fee_multiplier);
    }

    /// @notice Sets the oracle windows (both nonzero).
    /// @param _ma_exp_time The price oracles' window.
    /// @param _D_ma_time The D oracle's window.
    function set_ma_exp_time(uint256 _ma_exp_time, uint256 _D_ma_time) external {
        _onlyOwner();
        if (_ma_exp_time * _D_ma_time == 0) revert InvalidMaTime();
        ma_exp_time = _ma_exp_time;
        D_ma_time = _D_ma_time;

        emit SetNewMATime(_ma_exp_time, _D_ma_time);
    }

    // ---------------------------------------------------------------- LP token

    /// @notice Moves `_value` LP tokens from the caller to `_to`.
    /// @param _to The receiver.
    /// @param _value The amount.
    /// @return True.
    function transfer(address _to, uint256 _value) external returns (bool) {
        _transfer(msg.sender, _to, _value);
        return true;
    }

    /// @notice Moves `_value` LP tokens from `_from` to `_to` on an allowance (an infinite one is not spent).
    /// @param _from The owner.
    /// @param _to The receiver.
    /// @param _value The amount.
    /// @return True.
    function transferFrom(address _from, address _to, uint256 _value) external returns (bool) {
        _transfer(_from, _to, _value);

        uint256 allowance_ = allowance[_from][msg.sender];
        if (allowance_ != type(uint256).max) {
            uint256 newAllowance = allowance_ - _value;
            allowance[_from][msg.sender] = newAllowance;
            emit Approval(_from, msg.sender, newAllowance);
        }
        return true;
    }

    /// @notice Lets `_spender` move `_value` of the caller's LP tokens.
    /// @param _spender The spender.
    /// @param _value The allowance.
    /// @return True.
    function approve(address _spender, uint256 _value) external returns (bool) {
        allowance[msg.sender][_spender] = _value;
        emit Approval(msg.sender, _spender, _value);
        return true;
    }

    // ---------------------------------------------------------------- internals: state

    function _onlyOwner() private view {
        if (msg.sender != _factory.admin()) revert OnlyOwner(msg.sender);
    }

    function _index(int128 i) private view returns (uint256) {
        // casting to 'uint256' is safe because i >= 0 is checked first.
        // forge-lint: disable-next-line(unsafe-typecast)
        if (i < 0 || uint256(int256(i)) >= N_COINS) revert CoinIndexOutOfRange(i);
        // forge-lint: disable-next-line(unsafe-typecast)
        return uint256(int256(i));
    }

    /// @dev NG's `_A`: A * A_PRECISION, linear in time during a ramp.
    function _aPrecise() private view returns (uint256) {
        uint256 t1 = future_A_time;
        uint256 A1 = future_A;
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp < t1) {
            uint256 A0 = initial_A;
            uint256 t0 = initial_A_time;
            if (A1 > A0) return A0 + (A1 - A0) * (block.timestamp - t0) / (t1 - t0);
            return A0 - (A0 - A1) * (block.timestamp - t0) / (t1 - t0);
        }
        return A1;
    }

    /// @dev NG's `_stored_rates`: the rate multipliers, times an oracle's rate (type 1, 1e18 precision; called with
    /// NG's 32-byte calldata, the method id followed by zeros) or an ERC4626 share's assets (type 3).
    function _storedRates() private view returns (uint256[] memory rates) {
        uint256 n = N_COINS;
        rates = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            uint256 rate = _rateMultiplier[i];
            uint8 assetType = _assetType[i];
            if (assetType == 1 && _rateOracle[i] != 0) {
                uint256 packed = _rateOracle[i];
                // The oracle is the low 160 bits (NG: rate_oracles[i] % 2**160); the truncation is the point.
                // forge-lint: disable-next-line(unsafe-typecast)
                address oracle = address(uint160(packed));
                (bool ok, bytes memory response) = oracle.staticcall(abi.encode(packed & ORACLE_BIT_MASK));
                if (!ok) {
                    assembly ("memory-safe") {
                        revert(add(response, 0x20), mload(response))
                    }
                }
                if (response.length < 32) revert InvalidOracleResponse();
                rates[i] = rate * abi.decode(response, (uint256)) / PRECISION;
            } else if (assetType == 3) {
                uint256 assets = ICurveNGCoinLike(_coin[i]).convertToAssets(_callAmount[i]);
                rates[i] = rate * assets * _scaleFactor[i] / PRECISION;
            } else {
                rates[i] = rate;
            }
        }
    }

    /// @dev NG's `_balances`: read with balanceOf when the pool has a rebasing coin, else the stored balances; less
    /// the admin fees.
    function _balances() private view returns (uint256[] memory result) {
        uint256 n = N_COINS;
        result = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            uint256 held = _containsRebasing ? IERC20(_coin[i]).balanceOf(address(this)) : _storedBalance[i];
            result[i] = held - _adminBalance[i];
        }
    }

    /// @dev The views contract's `_get_rates_balances_xp` and `amp = pool.A() * A_PRECISION` (A truncated).
    function _viewsState()
        private
        view
        returns (uint256[] memory rates, uint256[] memory balances_, uint256[] memory xp, uint256 amp)
    {
        rates = _storedRates();
        balances_ = _balances();
        xp = _xpMem(rates, balances_);
        amp = _aPrecise() / A_PRECISION * A_PRECISION;
    }

    /// @dev NG's `_transfer_in`: what the pool received, by its balance; optimistic, the surplus above the stored
    /// balance (at least `dx`), else a transferFrom of `dx`.
    function _transferIn(uint256 i, uint256 dx, address sender, bool optimistic) private returns (uint256 received) {
        IERC20 coin = IERC20(_coin[i]);
        received = coin.balanceOf(address(this));
        if (optimistic) {
            received -= _storedBalance[i];
            if (received < dx) revert InsufficientReceived(received, dx);
        } else {
            if (dx == 0) revert ZeroAmount();
            coin.safeTransferFrom(sender, address(this), dx);
            received = coin.balanceOf(address(this)) - received;
        }
        _storedBalance[i] += received;
    }

    /// @dev NG's `_transfer_out`; with a rebasing coin in the pool, the stored balance is re-read around the transfer.
    function _transferOut(uint256 i, uint256 amount, address receiver) private {
        if (receiver == address(0)) revert ZeroReceiver();
        IERC20 coin = IERC20(_coin[i]);
        if (!_containsRebasing) {
            _storedBalance[i] -= amount;
            coin.safeTransfer(receiver, amount);
        } else {
            uint256 held = coin.balanceOf(address(this));
            coin.safeTransfer(receiver, amount);
            _storedBalance[i] = held - amount;
        }
    }

    /// @dev NG's `_withdraw_admin_fees`.
    function _withdrawAdminFees() private {
        address receiver = _factory.fee_receiver();
        if (receiver == address(0)) return;
        uint256 n = N_COINS;
        for (uint256 i; i < n; ++i) {
            uint256 amount = _adminBalance[i];
            if (amount > 0) {
                _transferOut(i, amount, receiver);
                _adminBalance[i] = 0;
            }
        }
    }

    /// @dev NG's fee loop of add_liquidity / remove_liquidity_imbalance (and of the views' calc_token_amount): the
    /// dynamic fee on each coin's distance from its ideal balance, taken off `l.newBalances`.
    function _liquidityFees(Liquidity memory l, uint256 ys) private view returns (uint256[] memory fees) {
        uint256 n = N_COINS;
        uint256 baseFee = fee * n / (4 * (n - 1));
        fees = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            uint256 idealBalance = l.D1 * l.oldBalances[i] / l.D0;
            uint256 newBalance = l.newBalances[i];
            uint256 difference = idealBalance > newBalance ? idealBalance - newBalance : newBalance - idealBalance;
            uint256 xs = l.rates[i] * (l.oldBalances[i] + newBalance) / PRECISION;
            fees[i] = _dynamicFee(xs, ys, baseFee) * difference / FEE_DENOMINATOR;
            l.newBalances[i] = newBalance - fees[i];
        }
    }

    /// @dev The admin's half of each liquidity fee.
    function _chargeAdminFees(uint256[] memory fees) private {
        for (uint256 i; i < fees.length; ++i) {
            _adminBalance[i] += fees[i] * admin_fee / FEE_DENOMINATOR;
        }
    }

    /// @dev NG's `_calc_withdraw_one_coin` (the pool's own, at the precise A): the coin paid and the fee kept (in the
    /// coin's units, before the admin's share).
    function _calcWithdrawOneCoin(uint256 burnAmount, uint256 i) private view returns (uint256 dy, uint256 coinFee) {
        uint256 amp = _aPrecise();
        uint256[] memory rates = _storedRates();
        uint256[] memory xp = _xpMem(rates, _balances());
        uint256 D0 = _getD(xp, amp);

        uint256 D1 = D0 - burnAmount * D0 / _totalSupply;
        uint256 newY = _getYD(amp, i, xp, D1);

        uint256[] memory xpReduced = _reducedXp(xp, i, D0, D1, newY);

        dy = xpReduced[i] - _getYD(amp, i, xpReduced, D1);
        uint256 dy0 = (xp[i] - newY) * PRECISION / rates[i]; // w/o fees
        dy = (dy - 1) * PRECISION / rates[i]; // Withdraw less to account for rounding errors
        coinFee = dy0 - dy;
    }

    /// @dev The balances of `_calc_withdraw_one_coin` less the dynamic fee on each coin's expected move.
    function _reducedXp(uint256[] memory xp, uint256 i, uint256 D0, uint256 D1, uint256 newY)
        private
        view
        returns (uint256[] memory xpReduced)
    {
        uint256 n = N_COINS;
        uint256 baseFee = fee * n / (4 * (n - 1));
        uint256 ys = (D0 + D1) / (2 * n);
        xpReduced = new uint256[](n);
        for (uint256 k; k < n; ++k) {
            uint256 xpJ = xp[k];
            uint256 dxExpected;
            uint256 xavg;
            if (k == i) {
                dxExpected = xpJ * D1 / D0 - newY;
                xavg = (xpJ + newY) / 2;
            } else {
                dxExpected = xpJ - xpJ * D1 / D0;
                xavg = xpJ;
            }
            xpReduced[k] = xpJ - _dynamicFee(xavg, ys, baseFee) * dxExpected / FEE_DENOMINATOR;
        }
    }

    function _transfer(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _burnFrom(address from, uint256 amount) private {
        _totalSupply -= amount;
        balanceOf[from] -= amount;
        emit Transfer(from, address(0), amount);
    }

    // ---------------------------------------------------------------- internals: maths (NG, transliterated)

    /// @dev NG's `_dynamic_fee`: the fee grows as xpi * xpj falls below ((xpi + xpj) / 2) ** 2.
    function _dynamicFee(uint256 xpi, uint256 xpj, uint256 fee_) private view returns (uint256) {
        uint256 multiplier = offpeg_fee_multiplier;
        if (multiplier <= FEE_DENOMINATOR) return fee_;
        uint256 xps2 = (xpi + xpj) ** 2;
        return (multiplier * fee_) / ((multiplier - FEE_DENOMINATOR) * 4 * xpi * xpj / xps2 + FEE_DENOMINATOR);
    }

    /// @dev NG's `_xp_mem`: balances in 1e18 units of value.
    function _xpMem(uint256[] memory rates, uint256[] memory balances_) private view returns (uint256[] memory result) {
        uint256 n = N_COINS;
        result = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            result[i] = rates[i] * balances_[i] / PRECISION;
        }
    }

    /// @dev NG's `get_D`: the invariant by Newton's method,
    /// D[j+1] = (Ann * S / A_PRECISION + D_P * N) * D / ((Ann - A_PRECISION) * D / A_PRECISION + (N + 1) * D_P).
    function _getD(uint256[] memory xp, uint256 amp) private view returns (uint256) {
        uint256 n = N_COINS;
        uint256 S;
        for (uint256 i; i < n; ++i) {
            S += xp[i];
        }
        if (S == 0) return 0;

        uint256 D = S;
        uint256 Ann = amp * n;
        uint256 nn = n ** n;
        for (uint256 round; round < 255; ++round) {
            uint256 D_P = D;
            for (uint256 i; i < n; ++i) {
                D_P = D_P * D / xp[i];
            }
            D_P /= nn;
            uint256 Dprev = D;

            D = (Ann * S / A_PRECISION + D_P * n) * D / ((Ann - A_PRECISION) * D / A_PRECISION + (n + 1) * D_P);

            if (D > Dprev) {
                if (D - Dprev <= 1) return D;
            } else {
                if (Dprev - D <= 1) return D;
            }
        }
        revert DidNotConverge();
    }

    /// @dev NG's `get_y`: x[j] when x[i] is set to `x`, D kept.
    function _getY(uint256 i, uint256 j, uint256 x, uint256[] memory xp, uint256 amp, uint256 D)
        private
        view
        returns (uint256)
    {
        if (i == j) revert SameCoin();
        uint256 n = N_COINS;
        uint256 S_;
        uint256 c = D;
        for (uint256 k; k < n; ++k) {
            uint256 xk;
            if (k == i) xk = x;
            else if (k != j) xk = xp[k];
            else continue;
            S_ += xk;
            c = c * D / (xk * n);
        }
        uint256 Ann = amp * n;
        c = c * D * A_PRECISION / (Ann * n);
        return _newtonY(S_ + D * A_PRECISION / Ann, c, D);
    }

    /// @dev NG's `get_y_D`: x[i] when D is reduced to `D`, the other balances kept.
    function _getYD(uint256 amp, uint256 i, uint256[] memory xp, uint256 D) private view returns (uint256) {
        uint256 n = N_COINS;
        uint256 S_;
        uint256 c = D;
        for (uint256 k; k < n; ++k) {
            if (k == i) continue;
            uint256 xk = xp[k];
            S_ += xk;
            c = c * D / (xk * n);
        }
        uint256 Ann = amp * n;
        c = c * D * A_PRECISION / (Ann * n);
        return _newtonY(S_ + D * A_PRECISION / Ann, c, D);
    }

    /// @dev The Newton loop of get_y and get_y_D: y = (y*y + c) / (2*y + b - D) from y = D.
    function _newtonY(uint256 b, uint256 c, uint256 D) private pure returns (uint256) {
        uint256 y = D;
        for (uint256 round; round < 255; ++round) {
            uint256 yPrev = y;
            y = (y * y + c) / (2 * y + b - D);
            if (y > yPrev) {
                if (y - yPrev <= 1) return y;
            } else {
                if (yPrev - y <= 1) return y;
            }
        }
        revert DidNotConverge();
    }

    function _copy(uint256[] memory a) private pure returns (uint256[] memory b) {
        b = new uint256[](a.length);
        for (uint256 i; i < a.length; ++i) {
            b[i] = a[i];
        }
    }
}
