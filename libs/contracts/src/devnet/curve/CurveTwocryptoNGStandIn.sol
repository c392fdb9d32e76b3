// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

// STAND-IN for Curve's TwocryptoNG pool (curvefi/twocrypto-ng at the repository's HEAD 0fcca0d, contracts/main/
// Twocrypto.vy "v2.1.0", Vyper 0.4.1, with its modules params.vy, packing_utils.vy, constants.vy and lp_token.vy,
// i.e. snekmate 0.1.1's erc20). Curve's pools are Vyper and no installable package ships their bytecode, so the devnet
// runs this Solidity transliteration instead: the same external interface (names, selectors, uint256 coin indices,
// Vyper's default arguments as overloads, events with the exact declarations of interfaces/ITwocrypto.vyi) and the
// same integer maths, so an integration written against this contract works unchanged against a pool of that code.
// It is not Curve's code and is not audited; it exists only for the devnet.
//
// Architecture, as on chain: the pool is deployed by its factory (CurveTwocryptoFactoryNGStandIn) from a blueprint and
// calls a separate math contract (CurveTwocryptoMathNGStandIn: newton_D, get_y, get_p, wad_exp) for its invariant
// maths, and delegates get_dy, get_dx and calc_token_amount to the views contract its factory names
// (CurveTwocryptoViewNGStandIn), which rebuilds the state from the pool's getters. The pool is also its LP token.
//
// What is the same as the Vyper, to the wei: exchange / exchange_received (the pool swaps what it received above its
// stored balance), the fee (`_fee`: mid_fee at balance to out_fee at imbalance, shaped by fee_gamma), tweak_price (the
// price oracle EMA with its 2 * price_scale cap, last_prices from get_p, xcp_profit, virtual_price, and the
// rebalancing of price_scale towards the oracle when the profit allows), add_liquidity and its fee, remove_liquidity,
// remove_liquidity_one_coin and remove_liquidity_fixed_out (which first claim the admin fees, at most once a day, by
// sending the fee receiver its share of the balances), A and gamma and their ramp, apply_new_parameters, the views.
//
// Quoting, as on the real pool:
//   * get_dy (views contract) is exactly what exchange pays for coins that transfer the amount asked, ramping or not.
//     Where they part: exchange_received swaps the whole surplus above the stored balance, so it pays get_dy(surplus),
//     not get_dy(dx); a coin that takes a fee on transfer is swapped for what arrived; and exchange can revert where
//     get_dy answers: for dust (a trade whose fee is too small to raise the rounded virtual price fails tweak_price's
//     "virtual price decreased" outside a ramp; e.g. 1e11 wei of an 18-decimal coin in a $4M pool), and in principle
//     where the post-trade newton_D's safety checks, which get_dy does not run, refuse the balances (not met in 3600
//     random large trades of the reference model).
//   * calc_token_amount (views contract) scales the amounts themselves where add_liquidity takes the difference of
//     the scaled balances: the fee can differ by a rounding of one unit of the scaled coin-1 amount, which in practice
//     leaves the LP minted equal (equal in every vector and in 3000 random deposits of the reference model).
//   * calc_withdraw_one_coin is the pool's own at this version (the same code as remove_liquidity_one_coin), but the
//     removal first claims the admin fees when a day has passed since the last claim (the first removal ever always
//     may), and then pays less than quoted. The views contract's own calc_withdraw_one_coin still has the previous
//     version's formula and fee: it is not what the pool pays.
//   * price_oracle() extrapolates the EMA with ma_time() (the stored ma_exp_time * 694 / 1000) while tweak_price
//     updates it with the stored ma_exp_time itself: after time passes the view runs ahead of the value the next
//     operation stores (and of the deployed pools' price_oracle(), which use the stored value).
//
// This version is not the code of the implementations deployed so far (v2.0.0 of late 2023, and the June 2024 build
// also labelled "v2.1.0", `amm` in the repository's deployments.yaml), and the differences change amounts: the fee
// shape (fee_gamma * B / (fee_gamma * B + 1 - B); they have fee_gamma / (fee_gamma + 1 - B)), xcp computed as
// D * 1e18 / 2 / isqrt(1e18 * price_scale) (they: isqrt(D / 2 * D * 1e18 / (2 * price_scale))), virtual_price + 1 in
// tweak_price, the rebalancing condition ((virtual_price - allowed_extra_profit)**2 > xcp_profit * 1e18; they:
// 2 * virtual_price - 1e18 > xcp_profit + 2 * allowed_extra_profit), remove_liquidity_one_coin through
// remove_liquidity_fixed_out (they: a fee on D), and price_oracle() above. And the interface: remove_liquidity_fixed_out
// and calc_withdraw_fixed_out are new, the events have no indexed field (TokenExchange's `buyer` is in the data, not a
// topic; RemoveLiquidityOne is declared but never emitted: single-coin removals emit RemoveLiquidityImbalance), LP
// transfers to the pool itself are allowed, there is no EIP-2612 permit, and remove_liquidity_one_coin also transfers
// 0 of the other coin (a coin that refuses zero transfers makes it revert).
//
// What differs from the Vyper: its reason strings are kept, but its bare reverts (array bounds, arithmetic overflow,
// division by zero) are custom errors (an out-of-range coin index) or Solidity panics here. Coins, precisions, the math
// contract and the factory are immutables as in the Vyper; the storage layout and gas differ. Like the Vyper's lp_token
// module (snekmate's erc20 without its permit) the LP token has no permit. The pool reads its factory's `admin()`,
// `fee_receiver()` and `views_implementation()`, so it must be deployed by a contract that has them.

/// @notice What a TwocryptoNG pool reads of the factory that deployed it.
interface ICurveTwocryptoFactoryNGLike {
    /// @notice Who may ramp A and gamma and set the parameters of the factory's pools.
    function admin() external view returns (address);

    /// @notice Where the pools send their admin fees.
    function fee_receiver() external view returns (address);

    /// @notice The views contract the pools delegate get_dy, get_dx and calc_token_amount to.
    function views_implementation() external view returns (address);
}

/// @notice The TwocryptoNG math contract, as the pool calls it.
interface ICurveTwocryptoMathNGLike {
    /// @notice The invariant of the scaled balances `x_unsorted` (K0_prev: an initial guess, or 0).
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted, uint256 K0_prev)
        external
        view
        returns (uint256);

    /// @notice The scaled balance of coin `i` at invariant `_D`, and K0 there.
    function get_y(uint256 _ANN, uint256 _gamma, uint256[2] calldata _x, uint256 _D, uint256 i)
        external
        view
        returns (uint256[2] memory);

    /// @notice The state price at `_xp`, before the price_scale multiplication.
    function get_p(uint256[2] calldata _xp, uint256 _D, uint256[2] calldata _A_gamma) external view returns (uint256);

    /// @notice e**(x / 1e18) * 1e18.
    function wad_exp(int256 x) external view returns (uint256);
}

/// @notice The TwocryptoNG views contract, as the pool calls it.
interface ICurveTwocryptoViewNGLike {
    /// @notice The output of swapping `dx` of coin `i` for coin `j` on `swap`.
    function get_dy(uint256 i, uint256 j, uint256 dx, address swap) external view returns (uint256);

    /// @notice The input of coin `i` that buys `dy` of coin `j` on `swap` (an estimate).
    function get_dx(uint256 i, uint256 j, uint256 dy, address swap) external view returns (uint256);

    /// @notice The LP minted by depositing, or burnt by withdrawing, `amounts` on `swap`.
    function calc_token_amount(uint256[2] calldata amounts, bool deposit, address swap) external view returns (uint256);
}

/// @title CurveTwocryptoNGStandIn
/// @notice Devnet stand-in for a Curve TwocryptoNG pool of two coins (Twocrypto.vy v2.1.0), with its external interface
/// and maths (see the header of this file for what is and is not the same as the Vyper pool). All prices are of coin 1
/// in coin 0, 1e18 precision. The pool is also its LP token (18 decimals).
contract CurveTwocryptoNGStandIn is ReentrancyGuardTransient {
    // ---------------------------------------------------------------- constants (constants.vy, Twocrypto.vy)

    uint256 private constant N_COINS = 2;
    uint256 private constant WAD = 10 ** 18;
    uint256 private constant MIN_GAMMA = 10 ** 10;
    uint256 private constant MAX_GAMMA = 199 * 10 ** 15;
    uint256 private constant A_MULTIPLIER = 10000;
    uint256 private constant MIN_A = N_COINS ** N_COINS * A_MULTIPLIER / 10;
    uint256 private constant MAX_A = N_COINS ** N_COINS * A_MULTIPLIER * 1000;
    uint256 private constant MIN_RAMP_TIME = 86400;
    uint256 private constant MAX_A_CHANGE = 10;
    uint256 private constant MAX_GAMMA_CHANGE = 10;
    uint256 private constant MIN_FEE = 5 * 10 ** 5;
    uint256 private constant MAX_FEE = 10 ** 10;
    uint256 private constant NOISE_FEE = 10 ** 5;
    uint256 private constant MIN_ADMIN_FEE_CLAIM_INTERVAL = 86400;
    uint256 private constant MAX_UINT64 = 2 ** 64 - 1;
    uint256 private constant MAX_UINT128 = 2 ** 128 - 1;

    /// @notice The admin's share of the pool's profit, 1e10 precision: 50%.
    uint256 public constant ADMIN_FEE = 5 * 10 ** 9;

    /// @notice The TwocryptoNG pool version this contract stands in for.
    string public constant version = "v2.1.0";

    /// @notice The LP token's decimals.
    uint8 public constant decimals = 18;

    // ---------------------------------------------------------------- immutables (as in the Vyper)

    /// @notice The factory that deployed the pool.
    address public immutable factory;

    ICurveTwocryptoMathNGLike private immutable _math;
    address private immutable _coin0;
    address private immutable _coin1;
    /// @dev 10 ** (18 - decimals) of each coin.
    uint256 private immutable _precision0;
    uint256 private immutable _precision1;

    // ---------------------------------------------------------------- pool state

    /// @dev The internal price scale (the price around which liquidity is concentrated).
    uint256 private _cachedPriceScale;
    /// @dev The price oracle (EMA) as of last_timestamp.
    uint256 private _cachedPriceOracle;

    /// @notice The spot price after the last trade or liquidity operation (manipulable; feeds the EMA).
    uint256 public last_prices;

    /// @notice When the price oracle was last updated.
    uint256 public last_timestamp;

    /// @dev The pool's balances by its own accounting.
    uint256[2] private _balances;

    /// @notice The invariant, as of the last operation (recomputed during a ramp).
    uint256 public D;

    /// @notice The pool's cumulative profit, 1e18 precision (the virtual price without rebalancing losses).
    uint256 public xcp_profit;

    /// @notice xcp_profit at the last admin fee claim.
    uint256 public xcp_profit_a;

    /// @notice The cached virtual price (LP value in the pool's invariant units), 1e18 precision.
    uint256 public virtual_price;

    uint256 private _lastAdminFeeClaimTimestamp;
    /// @dev The admin's share of add_liquidity fees, in LP tokens not yet minted.
    uint256 private _adminLpVirtualBalance;

    // ---------------------------------------------------------------- params (params.vy)

    /// @notice allowed_extra_profit << 128 | adjustment_step << 64 | ma_exp_time.
    uint256 public packed_rebalancing_params;

    /// @notice mid_fee << 128 | out_fee << 64 | fee_gamma.
    uint256 public packed_fee_params;

    /// @notice gamma | A << 128 at the start of the current ramp.
    uint256 public initial_A_gamma;

    /// @notice When the current ramp started.
    uint256 public initial_A_gamma_time;

    /// @notice gamma | A << 128 at the end of the current ramp.
    uint256 public future_A_gamma;

    /// @notice When the current ramp ends.
    uint256 public future_A_gamma_time;

    // ---------------------------------------------------------------- LP token (lp_token.vy, snekmate's erc20)

    /// @notice The LP token's name.
    string public name;

    /// @notice The LP token's symbol.
    string public symbol;

    /// @notice LP token balances.
    mapping(address => uint256) public balanceOf;

    /// @notice LP token allowances.
    mapping(address => mapping(address => uint256)) public allowance;

    /// @notice The LP token supply.
    uint256 public totalSupply;

    // ---------------------------------------------------------------- events (interfaces/ITwocrypto.vyi, exactly)

    /// @notice A swap: `buyer` is the caller (not the receiver), `tokens_sold` what the pool received, `fee` the fee
    /// taken from the output (coin `bought_id` units), `price_scale` the price scale after the swap. Not indexed.
    event TokenExchange(
        address buyer,
        uint256 sold_id,
        uint256 tokens_sold,
        uint256 bought_id,
        uint256 tokens_bought,
        uint256 fee,
        uint256 price_scale
    );

    /// @notice A deposit: `provider` is the receiver of the LP, `fee` the LP fee (0 for a first deposit), and
    /// `token_supply` the supply after (for a first deposit: before, i.e. 0, as the Vyper logs it).
    event AddLiquidity(
        address provider, uint256[2] token_amounts, uint256 fee, uint256 token_supply, uint256 price_scale
    );

    /// @notice A proportional withdrawal; `token_supply` is the supply after.
    event RemoveLiquidity(address provider, uint256[2] token_amounts, uint256 token_supply);

    /// @notice Declared by the Vyper's interface; never emitted at this version (single-coin removals emit
    /// RemoveLiquidityImbalance).
    event RemoveLiquidityOne(
        address provider,
        uint256 token_amount,
        uint256 coin_index,
        uint256 coin_amount,
        uint256 approx_fee,
        uint256 price_scale
    );

    /// @notice A single-coin or fixed-out withdrawal.
    event RemoveLiquidityImbalance(
        address provider, uint256 lp_token_amount, uint256[2] token_amounts, uint256 approx_fee, uint256 price_scale
    );

    /// @notice apply_new_parameters set the fee and rebalancing parameters.
    event NewParameters(
        uint256 mid_fee,
        uint256 out_fee,
        uint256 fee_gamma,
        uint256 allowed_extra_profit,
        uint256 adjustment_step,
        uint256 ma_time
    );

    /// @notice A ramp of A and gamma started.
    event RampAgamma(
        uint256 initial_A,
        uint256 future_A,
        uint256 initial_gamma,
        uint256 future_gamma,
        uint256 initial_time,
        uint256 future_time
    );

    /// @notice A ramp of A and gamma was stopped.
    event StopRampA(uint256 current_A, uint256 current_gamma, uint256 time);

    /// @notice Admin fees were sent to the fee receiver.
    event ClaimAdminFee(address admin, uint256[2] tokens);

    /// @notice LP tokens moved (minted from, burnt to, the zero address). Indexed (ethereum.ercs' IERC20).
    event Transfer(address indexed sender, address indexed receiver, uint256 value);

    /// @notice An LP token allowance was set. Indexed (ethereum.ercs' IERC20).
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice snekmate's ownable, initialised (owner: the factory) and otherwise unused.
    event OwnershipTransferred(address indexed previous_owner, address indexed new_owner);

    /// @notice snekmate's erc20 minter role, given to the factory at construction and otherwise unused.
    event RoleMinterChanged(address indexed minter, bool status);

    // ---------------------------------------------------------------- errors (the Vyper reverts without data)

    /// @notice A coin index other than 0 or 1. Vyper: the array bound of `coins` / `balances` (empty revert).
    error CoinIndexOutOfRange(uint256 index);

    /// @dev Memory copies of an operation's state, to stay within the stack.
    struct Withdrawal {
        uint256 dy;
        uint256 D;
        uint256[2] xp;
        uint256 approxFee;
    }

    // ---------------------------------------------------------------- construction

    /// @notice Sets the pool up; called by the factory through its blueprint (`msg.sender` is the factory), with the
    /// Vyper constructor's arguments.
    /// @param _name The LP token's name.
    /// @param _symbol The LP token's symbol.
    /// @param _coins The two coins.
    /// @param _math_ The math contract.
    /// @param packed_precisions 10 ** (18 - decimals) of coin 0 | that of coin 1 << 128.
    /// @param packed_gamma_A gamma | A << 128.
    /// @param packed_fee_params_ mid_fee << 128 | out_fee << 64 | fee_gamma.
    /// @param packed_rebalancing_params_ allowed_extra_profit << 128 | adjustment_step << 64 | ma_exp_time.
    /// @param initial_price The initial price_scale, price_oracle and last_prices.
    constructor(
        string memory _name,
        string memory _symbol,
        address[2] memory _coins,
        address _math_,
        bytes32, // _salt: not used, left for compatibility with legacy factory
        uint256 packed_precisions,
        uint256 packed_gamma_A,
        uint256 packed_fee_params_,
        uint256 packed_rebalancing_params_,
        uint256 initial_price
    ) {
        _math = ICurveTwocryptoMathNGLike(_math_);

        // params.__init__
        factory = msg.sender;
        packed_rebalancing_params = packed_rebalancing_params_;
        packed_fee_params = packed_fee_params_;
        uint256 gamma_ = packed_gamma_A & MAX_UINT128;
        uint256 A_ = packed_gamma_A >> 128;
        require(gamma_ > MIN_GAMMA - 1, "gamma<MIN");
        require(gamma_ < MAX_GAMMA + 1, "gamma>MAX");
        require(A_ > MIN_A - 1, "A<MIN");
        require(A_ < MAX_A + 1, "A>MAX");
        initial_A_gamma = packed_gamma_A;
        future_A_gamma = packed_gamma_A;

        // lp_token.__init__: snekmate's ownable and erc20 initialisers log these.
        emit OwnershipTransferred(address(0), msg.sender);
        emit RoleMinterChanged(msg.sender, true);
        name = _name;
        symbol = _symbol;

        _coin0 = _coins[0];
        _coin1 = _coins[1];
        _precision0 = packed_precisions & MAX_UINT128;
        _precision1 = packed_precisions >> 128;

        _cachedPriceScale = initial_price;
        _cachedPriceOracle = initial_price;
        last_prices = initial_price;
        last_timestamp = block.timestamp;
        xcp_profit_a = 10 ** 18;

        // Fire empty transfer from 0x0 to self for indexers to catch.
        emit Transfer(address(0), address(this), 0);
    }

    // ---------------------------------------------------------------- swaps

    /// @notice Swaps `dx` of coin `i` (pulled from the caller) for coin `j`, paid to the caller.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @param min_dy The least to receive, else the swap reverts "slippage".
    /// @return The amount of coin `j` paid.
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy) external nonReentrant returns (uint256) {
        return _exchangeFlow(i, j, dx, min_dy, msg.sender, false);
    }

    /// @notice Swaps `dx` of coin `i` (pulled from the caller) for coin `j`, paid to `receiver`.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @param min_dy The least to receive.
    /// @param receiver Who receives coin `j`.
    /// @return The amount of coin `j` paid.
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _exchangeFlow(i, j, dx, min_dy, receiver, false);
    }

    /// @notice Swaps what the pool received of coin `i` above its stored balance (at least `dx`, else "user didn't
    /// give us coins") for coin `j`, paid to the caller: send the coin first, then call, in one transaction.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The least the pool must have received; the whole surplus is swapped.
    /// @param min_dy The least to receive.
    /// @return The amount of coin `j` paid.
    function exchange_received(uint256 i, uint256 j, uint256 dx, uint256 min_dy)
        external
        nonReentrant
        returns (uint256)
    {
        return _exchangeFlow(i, j, dx, min_dy, msg.sender, true);
    }

    /// @notice exchange_received paying `receiver`.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The least the pool must have received; the whole surplus is swapped.
    /// @param min_dy The least to receive.
    /// @param receiver Who receives coin `j`.
    /// @return The amount of coin `j` paid.
    function exchange_received(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _exchangeFlow(i, j, dx, min_dy, receiver, true);
    }

    function _exchangeFlow(uint256 i, uint256 j, uint256 dx, uint256 minDy, address receiver, bool optimistic)
        private
        returns (uint256)
    {
        // _transfer_in updates the balances here:
        uint256 dxReceived = _transferIn(i, dx, msg.sender, optimistic);

        // No ERC20 token transfers occur here:
        uint256[3] memory out = _exchange(i, j, dxReceived, minDy);

        _transferOut(j, out[0], receiver);

        emit TokenExchange(msg.sender, i, dxReceived, j, out[0], out[1], out[2]);
        return out[0];
    }

    /// @dev Twocrypto._exchange: [dy, fee, price_scale].
    function _exchange(uint256 i, uint256 j, uint256 dxReceived, uint256 minDy) private returns (uint256[3] memory) {
        require(i != j, "same coin");
        require(dxReceived > 0, "zero dx");

        uint256[2] memory AGamma = _AGamma();
        uint256[2] memory balances_ = _balances;
        uint256 priceScale = _cachedPriceScale;
        uint256[2] memory xp = _xp(balances_, priceScale);

        // ----------- Update invariant if A, gamma are undergoing ramps ---------
        if (_isRamping()) {
            uint256 x0 = (balances_[i] - dxReceived) * _precision(i);
            if (i > 0) x0 = x0 * priceScale / WAD;
            uint256 x1 = xp[i]; // <------------------ Back up old value in xp ...
            xp[i] = x0;
            D = _math.newton_D(AGamma[0], AGamma[1], xp, 0);
            xp[i] = x1; // <-------------------------------------- ... and restore.
        }

        // ----------------------- Calculate dy and fees --------------------------
        uint256[2] memory yOut = _math.get_y(AGamma[0], AGamma[1], xp, D, j);
        uint256 dy = xp[j] - yOut[0];
        xp[j] -= dy;
        dy -= 1;

        if (j > 0) dy = dy * WAD / priceScale;
        dy /= _precision(j);

        uint256 fee_ = _fee(xp) * dy / 10 ** 10;
        dy -= fee_; // <--------------------- Subtract fee from the outgoing amount.
        require(dy >= minDy, "slippage");

        uint256 y = (balances_[j] - dy) * _precision(j);
        if (j > 0) y = y * priceScale / WAD;
        xp[j] = y; // <------------------------------------------------- Update xp.

        // ------ Tweak price_scale with good initial guess for newton_D ----------
        uint256 newD = _math.newton_D(AGamma[0], AGamma[1], xp, yOut[1]);
        priceScale = _tweakPrice(AGamma, xp, newD);

        return [dy, fee_, priceScale];
    }

    // ---------------------------------------------------------------- liquidity

    /// @notice Deposits `amounts` (pulled from the caller) and mints LP tokens to the caller. The first deposit (into
    /// an empty pool) mints D / 2 / sqrt(price_scale), so the virtual price starts at 1.
    /// @param amounts The amount of each coin.
    /// @param min_mint_amount The least LP to mint, else "slippage".
    /// @return The LP tokens minted.
    function add_liquidity(uint256[2] calldata amounts, uint256 min_mint_amount)
        external
        nonReentrant
        returns (uint256)
    {
        return _addLiquidity(amounts, min_mint_amount, msg.sender);
    }

    /// @notice add_liquidity minting to `receiver`.
    /// @param amounts The amount of each coin.
    /// @param min_mint_amount The least LP to mint.
    /// @param receiver Who receives the LP tokens.
    /// @return The LP tokens minted.
    function add_liquidity(uint256[2] calldata amounts, uint256 min_mint_amount, address receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _addLiquidity(amounts, min_mint_amount, receiver);
    }

    function _addLiquidity(uint256[2] calldata amounts, uint256 minMint, address receiver)
        private
        returns (uint256 dToken)
    {
        require(amounts[0] + amounts[1] > 0, "no coins to add");

        // --------------------- Get prices, balances -----------------------------
        uint256[2] memory oldBalances = _balances;
        uint256[2] memory received;
        uint256[2] memory balances_ = _balances;
        for (uint256 i; i < N_COINS; ++i) {
            if (amounts[i] > 0) {
                received[i] = _transferIn(i, amounts[i], msg.sender, false);
                balances_[i] += received[i];
            }
        }

        uint256 priceScale = _cachedPriceScale;
        uint256[2] memory xp = _xp(balances_, priceScale);
        uint256[2] memory amountsp;
        {
            uint256[2] memory oldXp = _xp(oldBalances, priceScale);
            for (uint256 i; i < N_COINS; ++i) {
                if (received[i] > 0) amountsp[i] = xp[i] - oldXp[i];
            }
            balances_ = oldXp; // (reused below as old_xp)
        }

        // -------------------- Calculate LP tokens to mint -----------------------
        uint256[2] memory AGamma = _AGamma();
        uint256 oldD;
        if (_isRamping()) {
            // Recalculate D if A and/or gamma are ramping because the shape of the bonding curve is changing.
            oldD = _math.newton_D(AGamma[0], AGamma[1], balances_, 0);
        } else {
            oldD = D;
        }
        uint256 newD = _math.newton_D(AGamma[0], AGamma[1], xp, 0);

        uint256 tokenSupply = totalSupply;
        if (oldD > 0) {
            dToken = tokenSupply * newD / oldD - tokenSupply;
        } else {
            dToken = _xcp(newD, priceScale); // <----- Making initial virtual price equal to 1.
        }
        require(dToken > 0, "nothing minted");

        uint256 dTokenFee;
        if (oldD > 0) {
            dTokenFee = _calcTokenFee(amountsp, xp) * dToken / 10 ** 10 + 1;
            dToken -= dTokenFee;
            tokenSupply += dToken;
            _mint(receiver, dToken);
            unchecked {
                _adminLpVirtualBalance += (ADMIN_FEE * dTokenFee) / 10 ** 10;
            }
            priceScale = _tweakPrice(AGamma, xp, newD);
        } else {
            // (re)instatiating an empty pool:
            D = newD;
            virtual_price = 10 ** 18;
            xcp_profit = 10 ** 18;
            xcp_profit_a = 10 ** 18;
            _mint(receiver, dToken);
        }

        require(dToken >= minMint, "slippage");

        emit AddLiquidity(receiver, received, dTokenFee, tokenSupply, priceScale);
    }

    /// @notice Burns `amount` LP of the caller for its share of both coins (less 1 wei of LP, favouring the pool),
    /// paid to the caller. No fee, no admin fee claim.
    /// @param amount The LP tokens burnt.
    /// @param min_amounts The least of each coin, else "slippage" (not checked when the whole supply is burnt).
    /// @return The amount of each coin paid.
    function remove_liquidity(uint256 amount, uint256[2] calldata min_amounts)
        external
        nonReentrant
        returns (uint256[2] memory)
    {
        return _removeLiquidity(amount, min_amounts, msg.sender);
    }

    /// @notice remove_liquidity paying `receiver`.
    /// @param amount The LP tokens burnt.
    /// @param min_amounts The least of each coin.
    /// @param receiver Who receives the coins.
    /// @return The amount of each coin paid.
    function remove_liquidity(uint256 amount, uint256[2] calldata min_amounts, address receiver)
        external
        nonReentrant
        returns (uint256[2] memory)
    {
        return _removeLiquidity(amount, min_amounts, receiver);
    }

    function _removeLiquidity(uint256 amount, uint256[2] calldata minAmounts, address receiver)
        private
        returns (uint256[2] memory withdrawAmounts)
    {
        uint256 supply = totalSupply;
        _burn(msg.sender, amount);

        uint256 adjustedAmount = amount;
        if (amount == supply) {
            // Withdrawal empties the pool.
            withdrawAmounts = _balances;
        } else {
            // To prevent rounding errors, favor LPs a tiny bit.
            adjustedAmount -= 1;
            for (uint256 i; i < N_COINS; ++i) {
                withdrawAmounts[i] = _balances[i] * adjustedAmount / supply;
                require(withdrawAmounts[i] >= minAmounts[i], "slippage");
            }
        }

        // Reduce D proportionally to the amount of tokens leaving. If amount == total_supply, D will be 0.
        uint256 d0 = D;
        D = d0 - _div0(d0 * adjustedAmount, supply);

        for (uint256 i; i < N_COINS; ++i) {
            _transferOut(i, withdrawAmounts[i], receiver);
        }

        emit RemoveLiquidity(msg.sender, withdrawAmounts, supply - amount);
    }

    /// @notice Burns `token_amount` LP of the caller for exactly `amount_i` of coin `i` and what that leaves of coin
    /// `1 - i` (with fees), paid to the caller. First claims the admin fees when due.
    /// @param token_amount The LP tokens burnt.
    /// @param i The coin whose amount is fixed.
    /// @param amount_i The amount of coin `i` paid.
    /// @param min_amount_j The least of coin `1 - i`, else "slippage".
    /// @return The amount of coin `1 - i` paid.
    function remove_liquidity_fixed_out(uint256 token_amount, uint256 i, uint256 amount_i, uint256 min_amount_j)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityFixedOut(token_amount, i, amount_i, min_amount_j, msg.sender);
    }

    /// @notice remove_liquidity_fixed_out paying `receiver`.
    /// @param token_amount The LP tokens burnt.
    /// @param i The coin whose amount is fixed.
    /// @param amount_i The amount of coin `i` paid.
    /// @param min_amount_j The least of coin `1 - i`.
    /// @param receiver Who receives the coins.
    /// @return The amount of coin `1 - i` paid.
    function remove_liquidity_fixed_out(
        uint256 token_amount,
        uint256 i,
        uint256 amount_i,
        uint256 min_amount_j,
        address receiver
    ) external nonReentrant returns (uint256) {
        return _removeLiquidityFixedOut(token_amount, i, amount_i, min_amount_j, receiver);
    }

    /// @notice Burns `lp_token_amount` LP of the caller for coin `i` only, paid to the caller (remove_liquidity_fixed_out
    /// with none of the other coin; it also transfers 0 of the other coin). First claims the admin fees when due.
    /// @param lp_token_amount The LP tokens burnt.
    /// @param i The coin withdrawn.
    /// @param min_amount The least to receive, else "slippage".
    /// @return The amount of coin `i` paid.
    function remove_liquidity_one_coin(uint256 lp_token_amount, uint256 i, uint256 min_amount)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityFixedOut(lp_token_amount, 1 - i, 0, min_amount, msg.sender);
    }

    /// @notice remove_liquidity_one_coin paying `receiver`.
    /// @param lp_token_amount The LP tokens burnt.
    /// @param i The coin withdrawn.
    /// @param min_amount The least to receive.
    /// @param receiver Who receives the coin.
    /// @return The amount of coin `i` paid.
    function remove_liquidity_one_coin(uint256 lp_token_amount, uint256 i, uint256 min_amount, address receiver)
        external
        nonReentrant
        returns (uint256)
    {
        return _removeLiquidityFixedOut(lp_token_amount, 1 - i, 0, min_amount, receiver);
    }

    function _removeLiquidityFixedOut(
        uint256 tokenAmount,
        uint256 i,
        uint256 amountI,
        uint256 minAmountJ,
        address receiver
    ) private returns (uint256) {
        _claimAdminFees();

        uint256[2] memory AGamma = _AGamma();
        Withdrawal memory w = _calcWithdrawFixedOut(AGamma, tokenAmount, i, amountI);
        require(w.dy >= minAmountJ, "slippage");

        // ---------------------------- State Updates -----------------------------
        _burn(msg.sender, tokenAmount);
        uint256 priceScale = _tweakPrice(AGamma, w.xp, w.D);

        _transferOut(i, amountI, receiver);
        _transferOut(1 - i, w.dy, receiver);

        uint256[2] memory tokenAmounts;
        tokenAmounts[i] = amountI;
        tokenAmounts[1 - i] = w.dy;
        emit RemoveLiquidityImbalance(
            msg.sender, tokenAmount, tokenAmounts, w.approxFee * tokenAmount / WAD, priceScale
        );
        return w.dy;
    }

    // ---------------------------------------------------------------- tweak_price

    /// @dev Twocrypto.tweak_price: updates the price oracle (once per block), last_prices, xcp_profit and the virtual
    /// price, and moves price_scale towards the oracle when the profit allows. Returns the price scale.
    function _tweakPrice(uint256[2] memory AGamma, uint256[2] memory xp, uint256 newD)
        private
        returns (uint256 priceScale)
    {
        priceScale = _cachedPriceScale;
        uint256 priceOracle = _updatePriceOracle(priceScale);

        // Here we update the spot price, please notice that this value is unsafe and can be manipulated.
        uint256 p = _math.get_p(xp, newD, AGamma) * priceScale;
        unchecked {
            last_prices = p / 10 ** 18;
        }

        // ---------- Update profit numbers without price adjustment first --------
        (uint256 xcpProfit, uint256 virtualPrice) = _updateProfit(newD, priceScale);

        // ------------ Rebalance liquidity if there's enough profits to adjust it:
        // virtual_price > sqrt(xcp_profit) + allowed_extra_profit, squared.
        uint256 allowedExtraProfit = (packed_rebalancing_params >> 128) & MAX_UINT64;
        if ((virtualPrice - allowedExtraProfit) ** 2 > xcpProfit * 10 ** 18) {
            uint256 pNew = _rebalance(AGamma, xp, priceScale, priceOracle, xcpProfit);
            if (pNew != 0) return pNew;
        }

        // price_scale was not adjusted: store the virtual price and D computed before attempting a rebalance.
        D = newD;
        virtual_price = virtualPrice;
    }

    /// @dev tweak_price's price oracle update: the EMA of min(last_prices, 2 * price_scale) with weight
    /// exp(-dt / ma_exp_time), at most once per block. Returns the oracle.
    function _updatePriceOracle(uint256 priceScale) private returns (uint256 priceOracle) {
        priceOracle = _cachedPriceOracle;
        uint256 lastTimestamp = last_timestamp;
        // forge-lint: disable-next-line(block-timestamp)
        if (lastTimestamp < block.timestamp) {
            uint256 maTime = packed_rebalancing_params & MAX_UINT64;
            uint256 elapsed;
            unchecked {
                elapsed = block.timestamp - lastTimestamp;
            }
            elapsed = elapsed * 10 ** 18;
            unchecked {
                elapsed = elapsed / maTime;
            }
            uint256 alpha = _math.wad_exp(-_toInt(elapsed));

            // We cap state price that goes into the EMA with 2 x price_scale.
            uint256 weighted = Math.min(last_prices, 2 * priceScale) * (10 ** 18 - alpha) + priceOracle * alpha;
            unchecked {
                priceOracle = weighted / 10 ** 18;
            }
            _cachedPriceOracle = priceOracle;
            last_timestamp = block.timestamp;
        }
    }

    /// @dev tweak_price's profit update: virtual_price = xcp / supply + 1 (it must rise unless ramping) and xcp_profit
    /// grown in proportion; stores xcp_profit.
    function _updateProfit(uint256 newD, uint256 priceScale) private returns (uint256 xcpProfit, uint256 virtualPrice) {
        xcpProfit = 10 ** 18;
        virtualPrice = 10 ** 18;
        uint256 oldVirtualPrice = virtual_price;
        if (oldVirtualPrice > 0) {
            uint256 xcp = _xcp(newD, priceScale);
            // We increase the virtual price by 1 to avoid off by one rounding errors.
            virtualPrice = 10 ** 18 * xcp / totalSupply + 1;
            uint256 grown = xcp_profit * virtualPrice;
            unchecked {
                xcpProfit = grown / oldVirtualPrice;
            }
            // If A and gamma are not being ramped, we only allow the virtual price to increase.
            if (!(virtualPrice > oldVirtualPrice)) {
                require(_isRamping(), "virtual price decreased");
            }
        }
        xcp_profit = xcpProfit;
    }

    /// @dev tweak_price's rebalancing: moves price_scale towards the oracle by max(adjustment_step, distance / 5) when
    /// the distance exceeds that step, keeping it if the new virtual price still leaves half the profit. Returns the new
    /// price scale, or 0 if not rebalanced.
    function _rebalance(
        uint256[2] memory AGamma,
        uint256[2] memory xp,
        uint256 priceScale,
        uint256 priceOracle,
        uint256 xcpProfit
    ) private returns (uint256) {
        // Calculate the vector distance between price_scale and price_oracle.
        uint256 norm;
        unchecked {
            norm = (priceOracle * 10 ** 18) / priceScale;
            norm = norm > 10 ** 18 ? norm - 10 ** 18 : 10 ** 18 - norm;
        }
        uint256 adjustmentStep = Math.max((packed_rebalancing_params >> 64) & MAX_UINT64, norm / 5);

        // We only adjust prices if the vector distance between price_oracle and price_scale is large enough.
        if (!(norm > adjustmentStep)) return 0;

        uint256 pNew;
        {
            uint256 num;
            unchecked {
                num = norm - adjustmentStep;
            }
            num = priceScale * num + adjustmentStep * priceOracle;
            unchecked {
                pNew = num / norm;
            }
        }

        // Update stale xp (using price_scale) with p_new.
        uint256[2] memory xpNew;
        xpNew[0] = xp[0];
        {
            uint256 x1 = xp[1] * pNew;
            unchecked {
                xpNew[1] = x1 / priceScale;
            }
        }

        uint256 newD = _math.newton_D(AGamma[0], AGamma[1], xpNew, 0);
        uint256 newVirtualPrice = 10 ** 18 * _xcp(newD, pNew);
        newVirtualPrice = _div0(newVirtualPrice, totalSupply);

        // If we've got enough profit we rebalance the liquidity in the pool by moving the price_scale closer to the
        // oracle price.
        if (newVirtualPrice > 10 ** 18 && newVirtualPrice ** 2 > xcpProfit * 10 ** 18) {
            D = newD;
            virtual_price = newVirtualPrice;
            _cachedPriceScale = pNew;
            return pNew;
        }
        return 0;
    }

    // ---------------------------------------------------------------- admin fees

    /// @dev Twocrypto._claim_admin_fees: at most once per MIN_ADMIN_FEE_CLAIM_INTERVAL and not during a ramp, when
    /// the profit grew since the last claim and at least 1e18 LP exist, sends the fee receiver its share of the
    /// balances (half of the profit's half, plus the add_liquidity fee share) without minting LP.
    function _claimAdminFees() private {
        unchecked {
            // forge-lint: disable-next-line(block-timestamp)
            if (block.timestamp - _lastAdminFeeClaimTimestamp < MIN_ADMIN_FEE_CLAIM_INTERVAL || _isRamping()) {
                return;
            }
        }

        uint256 xcpProfit = xcp_profit; // <---------- Current pool profits.
        uint256 xcpProfitA = xcp_profit_a; // <- Profits at previous claim.
        uint256 supply = totalSupply;
        if (xcpProfit <= xcpProfitA || supply < 10 ** 18) return;

        address feeReceiver = ICurveTwocryptoFactoryNGLike(factory).fee_receiver();

        // Half of the profit since the last claim is the LPs' (the other half pays for rebalancing); ADMIN_FEE of
        // that half is the admin's.
        uint256 fees;
        unchecked {
            fees = xcpProfit - xcpProfitA;
        }
        fees = fees * ADMIN_FEE;
        unchecked {
            fees = fees / (2 * 10 ** 10);
        }

        uint256 adminShare = _adminLpVirtualBalance;
        uint256 vprice = virtual_price;
        if (feeReceiver != address(0) && fees > 0) {
            // Calculate admin share to be minted.
            uint256 frac = vprice * 10 ** 18 / (vprice - fees) - 10 ** 18;
            adminShare += supply * frac / 10 ** 18;
            // Subtract fees from profits that will be used for rebalancing.
            xcpProfit -= fees * 2;
        }

        // Recalculate virtual_price following admin fee claim.
        uint256 supplyWithAdmin = supply + adminShare;
        uint256 d0 = D;
        vprice = 10 ** 18 * _xcp(d0, _cachedPriceScale) / supplyWithAdmin;

        // Do not claim fees if doing so causes virtual price to drop below 10**18.
        if (vprice < 10 ** 18) return;

        _adminLpVirtualBalance = 0;
        xcp_profit = xcpProfit;
        _lastAdminFeeClaimTimestamp = block.timestamp;
        virtual_price = vprice;
        D = d0 - _div0(d0 * adminShare, supplyWithAdmin);
        if (xcpProfit > xcpProfitA) xcp_profit_a = xcpProfit; // <-------- Cache last claimed profit.

        if (adminShare > 0) {
            uint256[2] memory balances_ = _balances;
            uint256[2] memory adminTokens;
            for (uint256 i; i < N_COINS; ++i) {
                adminTokens[i] = balances_[i] * adminShare / supplyWithAdmin;
                _transferOut(i, adminTokens[i], feeReceiver);
            }
            emit ClaimAdminFee(feeReceiver, adminTokens);
        }
    }

    // ---------------------------------------------------------------- views: quotes

    /// @notice The output of swapping `dx` of coin `i` for coin `j` now, from the factory's views contract (exactly
    /// what exchange pays; see the header of this file).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @return The amount of coin `j` the swap pays.
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256) {
        return _views().get_dy(i, j, dx, address(this));
    }

    /// @notice The input of coin `i` that buys `dy` of coin `j`, from the factory's views contract (an estimate: 5
    /// rounds of adding the fee to the output).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dy The amount bought.
    /// @return The amount of coin `i` needed.
    function get_dx(uint256 i, uint256 j, uint256 dy) external view returns (uint256) {
        return _views().get_dx(i, j, dy, address(this));
    }

    /// @notice The LP minted by depositing, or burnt by withdrawing, `amounts`, from the factory's views contract
    /// (fee included; may differ from add_liquidity by a few wei).
    /// @param amounts The amount of each coin.
    /// @param deposit True for a deposit, false for a withdrawal.
    /// @return The LP tokens.
    function calc_token_amount(uint256[2] calldata amounts, bool deposit) external view returns (uint256) {
        return _views().calc_token_amount(amounts, deposit, address(this));
    }

    /// @notice The coin `i` paid for burning `lp_token_amount` LP in that coin only (what remove_liquidity_one_coin
    /// pays unless it first claims admin fees).
    /// @param lp_token_amount The LP tokens burnt.
    /// @param i The coin withdrawn.
    /// @return The amount of coin `i`.
    function calc_withdraw_one_coin(uint256 lp_token_amount, uint256 i) external view returns (uint256) {
        return _calcWithdrawFixedOut(_AGamma(), lp_token_amount, 1 - i, 0).dy;
    }

    /// @notice The coin `1 - i` paid for burning `lp_token_amount` LP while withdrawing exactly `amount_i` of coin `i`
    /// (what remove_liquidity_fixed_out pays unless it first claims admin fees).
    /// @param lp_token_amount The LP tokens burnt.
    /// @param i The coin whose amount is fixed.
    /// @param amount_i The amount of coin `i`.
    /// @return The amount of coin `1 - i`.
    function calc_withdraw_fixed_out(uint256 lp_token_amount, uint256 i, uint256 amount_i)
        external
        view
        returns (uint256)
    {
        return _calcWithdrawFixedOut(_AGamma(), lp_token_amount, i, amount_i).dy;
    }

    /// @dev Twocrypto._calc_withdraw_fixed_out: the withdrawal of `lpTokenAmount` LP with coin `i` fixed at `amountI`.
    function _calcWithdrawFixedOut(uint256[2] memory AGamma, uint256 lpTokenAmount, uint256 i, uint256 amountI)
        private
        view
        returns (Withdrawal memory w)
    {
        uint256 tokenSupply = totalSupply;
        require(lpTokenAmount <= tokenSupply, "withdraw > supply");

        // j = 1 - i underflows for any i > 1.
        uint256 j = 1 - i;

        uint256 priceScale = _cachedPriceScale;
        uint256[2] memory xp = _xp(_balances, priceScale);

        w.D = _isRamping() ? _math.newton_D(AGamma[0], AGamma[1], xp, 0) : D;

        // ------------------------------ Amounts calc ----------------------------
        uint256 dD = _div0(lpTokenAmount * w.D, tokenSupply);
        w.xp = [xp[0], xp[1]];
        uint256[2] memory priceScales = [WAD * _precision0, priceScale * _precision1];

        // amountsp: the amounts the user receives, scaled by the price scale; amountsp[i] is the constraint.
        uint256[2] memory amountsp;
        amountsp[i] = amountI * priceScales[i] / WAD;
        w.xp[i] -= amountsp[i];

        // The position on the y axis after a withdrawal of dD, without fees.
        uint256 y = _math.get_y(AGamma[0], AGamma[1], w.xp, w.D - dD, j)[0];
        amountsp[j] = xp[j] - y;
        w.xp[j] = y;

        // Simulate the withdrawal, then rewind and apply the fees.
        w.approxFee = _calcTokenFee(amountsp, w.xp);
        dD -= dD * w.approxFee / 10 ** 10 + 1;

        // We reduce D by the withdrawn + fees.
        w.D -= dD;
        y = _math.get_y(AGamma[0], AGamma[1], w.xp, w.D, j)[0];
        w.dy = (xp[j] - y) * WAD / priceScales[j];
        w.xp[j] = y;
    }

    /// @notice D / 2 / sqrt(price_scale) per LP token, 1e18 precision (the virtual price now).
    /// @return The virtual price.
    function get_virtual_price() external view nonReentrantView returns (uint256) {
        return 10 ** 18 * _xcp(D, _cachedPriceScale) / totalSupply;
    }

    /// @notice The LP token's price in coin 0: 2 * virtual_price * sqrt(price_oracle), 1e18 precision.
    /// @return The LP price.
    function lp_price() external view nonReentrantView returns (uint256) {
        return 2 * virtual_price * Math.sqrt(_internalPriceOracle() * 10 ** 18) / 10 ** 18;
    }

    /// @notice The price oracle (EMA of the spot price, capped at 2 * price_scale) extrapolated to now with ma_time().
    /// @return The oracle price of coin 1 in coin 0, 1e18 precision.
    function price_oracle() external view nonReentrantView returns (uint256) {
        return _internalPriceOracle();
    }

    /// @notice The price around which the liquidity is concentrated.
    /// @return The price scale of coin 1 in coin 0, 1e18 precision.
    function price_scale() external view nonReentrantView returns (uint256) {
        return _cachedPriceScale;
    }

    /// @notice The swap fee at the current balances, 1e10 precision.
    /// @return The fee.
    function fee() external view returns (uint256) {
        return _fee(_xp(_balances, _cachedPriceScale));
    }

    /// @notice The add_liquidity fee of `amounts` at the scaled balances `xp`, 1e10 precision (for the views contract).
    /// @param amounts The scaled amounts added.
    /// @param xp The scaled balances.
    /// @return The fee.
    function calc_token_fee(uint256[2] calldata amounts, uint256[2] calldata xp) external view returns (uint256) {
        return _calcTokenFee([amounts[0], amounts[1]], [xp[0], xp[1]]);
    }

    /// @notice The swap fee at the scaled balances `xp`, 1e10 precision (for the views contract).
    /// @param xp The scaled balances.
    /// @return The fee.
    function fee_calc(uint256[2] calldata xp) external view returns (uint256) {
        return _fee([xp[0], xp[1]]);
    }

    /// @notice 10 ** (18 - decimals) of each coin.
    /// @return The precisions.
    function precisions() external view returns (uint256[2] memory) {
        return [_precision0, _precision1];
    }

    /// @notice The math contract.
    /// @return Its address.
    function MATH() external view returns (address) {
        return address(_math);
    }

    // ---------------------------------------------------------------- views: state

    /// @notice Coin `i` of the pool (reverts past the last).
    /// @param i The coin's index.
    /// @return The coin.
    function coins(uint256 i) external view returns (address) {
        return _coinAt(i);
    }

    /// @notice The pool's balance of coin `i` by its own accounting.
    /// @param i The coin's index.
    /// @return The balance.
    function balances(uint256 i) external view returns (uint256) {
        if (i > 1) revert CoinIndexOutOfRange(i);
        return _balances[i];
    }

    // ---------------------------------------------------------------- params (params.vy)

    /// @notice The factory's admin, who may ramp A and gamma and set the parameters.
    /// @return The admin.
    function admin() external view returns (address) {
        return _admin();
    }

    /// @notice The factory's fee receiver.
    /// @return The fee receiver.
    function fee_receiver() external view returns (address) {
        return ICurveTwocryptoFactoryNGLike(factory).fee_receiver();
    }

    /// @notice The amplification coefficient A * N**N * A_MULTIPLIER, interpolated during a ramp.
    /// @return A.
    function A() external view returns (uint256) {
        return _AGamma()[0];
    }

    /// @notice gamma, 1e18 precision, interpolated during a ramp.
    /// @return gamma.
    function gamma() external view returns (uint256) {
        return _AGamma()[1];
    }

    /// @notice The fee at balance, 1e10 precision.
    /// @return mid_fee.
    function mid_fee() external view returns (uint256) {
        return (packed_fee_params >> 128) & MAX_UINT64;
    }

    /// @notice The fee at full imbalance, 1e10 precision.
    /// @return out_fee.
    function out_fee() external view returns (uint256) {
        return (packed_fee_params >> 64) & MAX_UINT64;
    }

    /// @notice How fast the fee goes from mid_fee to out_fee with the imbalance, 1e18 precision.
    /// @return fee_gamma.
    function fee_gamma() external view returns (uint256) {
        return packed_fee_params & MAX_UINT64;
    }

    /// @notice The profit kept above half the xcp profit before price_scale may move, 1e18 precision.
    /// @return allowed_extra_profit.
    function allowed_extra_profit() external view returns (uint256) {
        return (packed_rebalancing_params >> 128) & MAX_UINT64;
    }

    /// @notice The least step of a price_scale adjustment, 1e18 precision.
    /// @return adjustment_step.
    function adjustment_step() external view returns (uint256) {
        return (packed_rebalancing_params >> 64) & MAX_UINT64;
    }

    /// @notice The stored ma_exp_time * 694 / 1000 (the oracle's time constant in seconds, as price_oracle() uses it).
    /// @return ma_time.
    function ma_time() external view returns (uint256) {
        return _maTime();
    }

    /// @notice Ramps A and gamma linearly to `future_A` and `future_gamma` by `future_time` (admin only; at least a
    /// day away; at most a tenfold change of each).
    /// @param future_A The target A (A * N**N * A_MULTIPLIER).
    /// @param future_gamma The target gamma.
    /// @param future_time When the ramp ends.
    function ramp_A_gamma(uint256 future_A, uint256 future_gamma, uint256 future_time) external {
        require(msg.sender == _admin(), "only owner");
        require(!_isRamping(), "ramp undergoing");
        // forge-lint: disable-next-line(block-timestamp)
        require(future_time > block.timestamp + MIN_RAMP_TIME - 1, "ramp time<min");

        uint256[2] memory AGamma = _AGamma(); // [A, gamma]

        require(future_A > MIN_A - 1, "A<min");
        require(future_A < MAX_A + 1, "A>max");
        require(future_gamma > MIN_GAMMA - 1, "gamma<min");
        require(future_gamma < MAX_GAMMA + 1, "gamma>max");

        uint256 ratio = 10 ** 18 * future_A / AGamma[0];
        require(ratio < 10 ** 18 * MAX_A_CHANGE + 1, "A change too high");
        require(ratio > 10 ** 18 / MAX_A_CHANGE - 1, "A change too low");

        ratio = 10 ** 18 * future_gamma / AGamma[1];
        require(ratio < 10 ** 18 * MAX_GAMMA_CHANGE + 1, "gamma change too high");
        require(ratio > 10 ** 18 / MAX_GAMMA_CHANGE - 1, "gamma change too low");

        initial_A_gamma = AGamma[1] | (AGamma[0] << 128);
        initial_A_gamma_time = block.timestamp;
        future_A_gamma = future_gamma | (future_A << 128);
        future_A_gamma_time = future_time;

        emit RampAgamma(AGamma[0], future_A, AGamma[1], future_gamma, block.timestamp, future_time);
    }

    /// @notice Stops a ramp at the current A and gamma (admin only).
    function stop_ramp_A_gamma() external {
        require(msg.sender == _admin(), "only owner");
        uint256[2] memory AGamma = _AGamma();
        uint256 packed = AGamma[1] | (AGamma[0] << 128);
        initial_A_gamma = packed;
        future_A_gamma = packed;
        initial_A_gamma_time = block.timestamp;
        future_A_gamma_time = block.timestamp;
        emit StopRampA(AGamma[0], AGamma[1], block.timestamp);
    }

    /// @notice Sets the fee and rebalancing parameters (admin only). A value out of its range keeps the current one:
    /// out_fee above MAX_FEE, mid_fee above MAX_FEE, fee_gamma from 1e18, allowed_extra_profit and adjustment_step
    /// above 1e18, ma_time from 872542 (a week / ln 2).
    /// @param _new_mid_fee The fee at balance, 1e10 precision (at most out_fee).
    /// @param _new_out_fee The fee at imbalance, 1e10 precision (at least MIN_FEE).
    /// @param _new_fee_gamma fee_gamma, 1e18 precision (nonzero).
    /// @param _new_allowed_extra_profit allowed_extra_profit, 1e18 precision.
    /// @param _new_adjustment_step adjustment_step, 1e18 precision.
    /// @param _new_ma_time The oracle's ma_exp_time (seconds / ln 2, above 86).
    function apply_new_parameters(
        uint256 _new_mid_fee,
        uint256 _new_out_fee,
        uint256 _new_fee_gamma,
        uint256 _new_allowed_extra_profit,
        uint256 _new_adjustment_step,
        uint256 _new_ma_time
    ) external nonReentrant {
        require(msg.sender == _admin(), "only owner");

        // ----------------------------- Set fee params ---------------------------
        uint256 current = packed_fee_params;
        if (_new_out_fee < MAX_FEE + 1) {
            require(_new_out_fee > MIN_FEE - 1, "fee is out of range");
        } else {
            _new_out_fee = (current >> 64) & MAX_UINT64;
        }
        if (_new_mid_fee > MAX_FEE) _new_mid_fee = (current >> 128) & MAX_UINT64;
        require(_new_mid_fee <= _new_out_fee, "mid-fee is too high");
        if (_new_fee_gamma < 10 ** 18) {
            require(_new_fee_gamma > 0, "fee_gamma out of range [1 .. 10**18]");
        } else {
            _new_fee_gamma = current & MAX_UINT64;
        }
        packed_fee_params = (_new_mid_fee << 128) | (_new_out_fee << 64) | _new_fee_gamma;

        // ----------------- Set liquidity rebalancing parameters -----------------
        current = packed_rebalancing_params;
        if (_new_allowed_extra_profit > 10 ** 18) _new_allowed_extra_profit = (current >> 128) & MAX_UINT64;
        if (_new_adjustment_step > 10 ** 18) _new_adjustment_step = (current >> 64) & MAX_UINT64;
        if (_new_ma_time < 872542) {
            // <----- Calculated as: 7 * 24 * 60 * 60 / ln(2)
            require(_new_ma_time > 86, "MA time should be longer than 60/ln(2)");
        } else {
            _new_ma_time = current & MAX_UINT64;
        }
        packed_rebalancing_params = (_new_allowed_extra_profit << 128) | (_new_adjustment_step << 64) | _new_ma_time;

        emit NewParameters(
            _new_mid_fee, _new_out_fee, _new_fee_gamma, _new_allowed_extra_profit, _new_adjustment_step, _new_ma_time
        );
    }

    // ---------------------------------------------------------------- LP token (snekmate's erc20)

    /// @notice Moves `amount` LP tokens from the caller to `to` (not the zero address).
    /// @param to The receiver.
    /// @param amount The amount.
    /// @return True.
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Moves `amount` LP tokens from `owner` to `to` on the caller's allowance (an infinite one is not spent).
    /// @param owner The owner.
    /// @param to The receiver.
    /// @param amount The amount.
    /// @return True.
    function transferFrom(address owner, address to, uint256 amount) external returns (bool) {
        uint256 current = allowance[owner][msg.sender];
        if (current < type(uint256).max) {
            require(current >= amount, "erc20: insufficient allowance");
            unchecked {
                _approve(owner, msg.sender, current - amount);
            }
        }
        _transfer(owner, to, amount);
        return true;
    }

    /// @notice Lets `spender` move `amount` of the caller's LP tokens.
    /// @param spender The spender (not the zero address).
    /// @param amount The allowance.
    /// @return True.
    function approve(address spender, uint256 amount) external returns (bool) {
        _approve(msg.sender, spender, amount);
        return true;
    }

    function _transfer(address owner, address to, uint256 amount) private {
        require(owner != address(0), "erc20: transfer from the zero address");
        require(to != address(0), "erc20: transfer to the zero address");
        uint256 ownerBalance = balanceOf[owner];
        require(ownerBalance >= amount, "erc20: transfer amount exceeds balance");
        unchecked {
            balanceOf[owner] = ownerBalance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(owner, to, amount);
    }

    function _approve(address owner, address spender, uint256 amount) private {
        require(owner != address(0), "erc20: approve from the zero address");
        require(spender != address(0), "erc20: approve to the zero address");
        allowance[owner][spender] = amount;
        emit Approval(owner, spender, amount);
    }

    function _mint(address owner, uint256 amount) private {
        require(owner != address(0), "erc20: mint to the zero address");
        totalSupply += amount;
        unchecked {
            balanceOf[owner] += amount;
        }
        emit Transfer(address(0), owner, amount);
    }

    function _burn(address owner, uint256 amount) private {
        require(owner != address(0), "erc20: burn from the zero address");
        uint256 accountBalance = balanceOf[owner];
        require(accountBalance >= amount, "erc20: burn amount exceeds balance");
        unchecked {
            balanceOf[owner] = accountBalance - amount;
            totalSupply -= amount;
        }
        emit Transfer(owner, address(0), amount);
    }

    // ---------------------------------------------------------------- token transfers in and out of the AMM

    /// @dev Twocrypto._transfer_in: with `optimistic` (exchange_received) takes the whole surplus above the stored
    /// balance (at least `dx`); otherwise pulls `dx` with transferFrom and counts what arrived.
    function _transferIn(uint256 i, uint256 dx, address sender, bool optimistic) private returns (uint256 received) {
        address coin = _coinAt(i);
        uint256 coinBalance = _balanceOf(coin);

        if (optimistic) {
            // If someone donates extra tokens to the contract: do not acknowledge; only check there are dx.
            received = coinBalance - _balances[i];
            require(received >= dx, "user didn't give us coins");
            _balances[i] += received;
            return received;
        }

        require(
            _callBool(coin, abi.encodeCall(IERC20Like.transferFrom, (sender, address(this), dx))), "transferFrom failed"
        );
        received = _balanceOf(coin) - coinBalance;
        _balances[i] += received;
    }

    /// @dev Twocrypto._transfer_out: balances first, then the transfer.
    function _transferOut(uint256 i, uint256 amount, address receiver) private {
        _balances[i] -= amount;
        require(_callBool(_coinAt(i), abi.encodeCall(IERC20Like.transfer, (receiver, amount))), "transfer failed");
    }

    /// @dev A call with Vyper's `default_return_value=True`: bubbles a revert up, takes no return data as true
    /// (from a contract), else decodes a bool.
    function _callBool(address token, bytes memory data) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 0x20), mload(ret))
            }
        }
        if (ret.length == 0) {
            if (token.code.length == 0) revert();
            return true;
        }
        return abi.decode(ret, (bool));
    }

    function _balanceOf(address coin) private view returns (uint256) {
        return IERC20Like(coin).balanceOf(address(this));
    }

    // ---------------------------------------------------------------- internal maths

    /// @dev The balances scaled to 18 decimals, coin 1 also by the price scale.
    function _xp(uint256[2] memory balances_, uint256 priceScale) private view returns (uint256[2] memory xp) {
        xp[0] = balances_[0] * _precision0;
        uint256 x1 = balances_[1] * _precision1 * priceScale;
        unchecked {
            xp[1] = x1 / WAD;
        }
    }

    /// @dev Twocrypto._fee: mid_fee * f + out_fee * (1 - f), f = fee_gamma * B / (fee_gamma * B + 1 - B) and B =
    /// 4 * xp0 * xp1 / (xp0 + xp1)**2 the balance (1 at balance, 0 at full imbalance).
    function _fee(uint256[2] memory xp) private view returns (uint256) {
        uint256 packed = packed_fee_params;
        uint256 feeGamma = packed & MAX_UINT64;

        uint256 B = xp[0] + xp[1];
        B = WAD * N_COINS ** N_COINS * xp[0] / B * xp[1] / B;

        uint256 gB = feeGamma * B;
        uint256 gBw;
        unchecked {
            gBw = gB / WAD;
        }
        B = gB / (gBw + WAD - B);

        uint256 f = ((packed >> 128) & MAX_UINT64) * B + ((packed >> 64) & MAX_UINT64) * (10 ** 18 - B);
        unchecked {
            return f / WAD;
        }
    }

    /// @dev Twocrypto._xcp: D / N_COINS / sqrt(price_scale), the geometric mean of the balances at the curve's centre.
    function _xcp(uint256 d0, uint256 priceScale) private pure returns (uint256) {
        return d0 * WAD / N_COINS / Math.sqrt(WAD * priceScale);
    }

    /// @dev Twocrypto._calc_token_fee: fee * N / (4 * (N - 1)) * sum|amount - avg| / sum + NOISE_FEE.
    function _calcTokenFee(uint256[2] memory amounts, uint256[2] memory xp) private view returns (uint256) {
        uint256 fee_;
        unchecked {
            fee_ = (_fee(xp) * N_COINS) / (4 * (N_COINS - 1));
        }
        uint256 S = amounts[0] + amounts[1];
        uint256 avg;
        unchecked {
            avg = S / N_COINS;
        }
        uint256 sDiff;
        for (uint256 k; k < N_COINS; ++k) {
            uint256 x = amounts[k];
            uint256 diff;
            unchecked {
                diff = x > avg ? x - avg : avg - x;
            }
            sDiff += diff;
        }
        return fee_ * sDiff / S + NOISE_FEE;
    }

    /// @dev Twocrypto.internal_price_oracle: the EMA extrapolated to now with ma_time() (not the stored ma_exp_time
    /// tweak_price uses).
    function _internalPriceOracle() private view returns (uint256) {
        uint256 priceOracle = _cachedPriceOracle;
        uint256 priceScale = _cachedPriceScale;
        uint256 lastPricesTimestamp = last_timestamp;
        // forge-lint: disable-next-line(block-timestamp)
        if (lastPricesTimestamp < block.timestamp) {
            uint256 elapsed;
            unchecked {
                elapsed = block.timestamp - lastPricesTimestamp;
            }
            uint256 alpha = _math.wad_exp(-_toInt(elapsed * 10 ** 18 / _maTime()));
            // We cap state price that goes into the EMA with 2 x price_scale.
            return (Math.min(last_prices, 2 * priceScale) * (10 ** 18 - alpha) + priceOracle * alpha) / 10 ** 18;
        }
        return priceOracle;
    }

    /// @dev params._A_gamma: [A, gamma], linearly interpolated during a ramp.
    function _AGamma() private view returns (uint256[2] memory) {
        uint256 t1 = future_A_gamma_time;
        uint256 packed1 = future_A_gamma;
        uint256 gamma1 = packed1 & MAX_UINT128;
        uint256 A1 = packed1 >> 128;

        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp < t1) {
            // --------------- Handle ramping up and down of A --------------------
            uint256 packed0 = initial_A_gamma;
            uint256 t0 = initial_A_gamma_time;
            t1 -= t0;
            t0 = block.timestamp - t0;
            uint256 t2 = t1 - t0;
            A1 = ((packed0 >> 128) * t2 + A1 * t0) / t1;
            gamma1 = ((packed0 & MAX_UINT128) * t2 + gamma1 * t0) / t1;
        }
        return [A1, gamma1];
    }

    function _isRamping() private view returns (bool) {
        // forge-lint: disable-next-line(block-timestamp)
        return future_A_gamma_time > block.timestamp;
    }

    function _maTime() private view returns (uint256) {
        return (packed_rebalancing_params & MAX_UINT64) * 694 / 1000;
    }

    function _admin() private view returns (address) {
        return ICurveTwocryptoFactoryNGLike(factory).admin();
    }

    function _views() private view returns (ICurveTwocryptoViewNGLike) {
        return ICurveTwocryptoViewNGLike(ICurveTwocryptoFactoryNGLike(factory).views_implementation());
    }

    function _coinAt(uint256 i) private view returns (address) {
        if (i == 0) return _coin0;
        if (i == 1) return _coin1;
        revert CoinIndexOutOfRange(i);
    }

    function _precision(uint256 i) private view returns (uint256) {
        if (i == 0) return _precision0;
        if (i == 1) return _precision1;
        revert CoinIndexOutOfRange(i);
    }

    /// @dev Vyper's unsafe_div: 0 on a zero divisor.
    function _div0(uint256 a, uint256 b) private pure returns (uint256) {
        unchecked {
            return b == 0 ? 0 : a / b;
        }
    }

    /// @dev Vyper's convert(x, int256): reverts above 2**255 - 1.
    function _toInt(uint256 x) private pure returns (int256) {
        if (x > uint256(type(int256).max)) revert();
        // casting to 'int256' is safe because x <= type(int256).max
        // forge-lint: disable-next-line(unsafe-typecast)
        return int256(x);
    }
}

/// @notice The ERC20 calls the pool makes on its coins.
interface IERC20Like {
    /// @notice The holder's balance.
    function balanceOf(address account) external view returns (uint256);

    /// @notice Moves `amount` to `to`.
    function transfer(address to, uint256 amount) external returns (bool);

    /// @notice Moves `amount` from `from` to `to` on an allowance.
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}
