// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Curve TwocryptoNG's pool as its Vyper source declares it (curvefi/twocrypto-ng HEAD 0fcca0d,
/// interfaces/ITwocrypto.vyi and contracts/main/Twocrypto.vy "v2.1.0"): what an integration compiled against the real
/// pool calls. Written from the Vyper, not from the stand-in, so the tests that call the stand-in through it check the
/// Vyper's selectors, return shapes and event layouts. Vyper's default arguments are overloads. The pool's events have
/// no indexed field (ITwocrypto.vyi declares none); Transfer and Approval are logged through ethereum.ercs' IERC20,
/// whose fields are indexed (ITwocrypto.vyi's own, unindexed, declarations of them are not the ones logged).
interface ICurveTwocryptoNG {
    event TokenExchange(
        address buyer,
        uint256 sold_id,
        uint256 tokens_sold,
        uint256 bought_id,
        uint256 tokens_bought,
        uint256 fee,
        uint256 price_scale
    );
    event AddLiquidity(
        address provider, uint256[2] token_amounts, uint256 fee, uint256 token_supply, uint256 price_scale
    );
    event RemoveLiquidity(address provider, uint256[2] token_amounts, uint256 token_supply);
    event RemoveLiquidityOne(
        address provider,
        uint256 token_amount,
        uint256 coin_index,
        uint256 coin_amount,
        uint256 approx_fee,
        uint256 price_scale
    );
    event RemoveLiquidityImbalance(
        address provider, uint256 lp_token_amount, uint256[2] token_amounts, uint256 approx_fee, uint256 price_scale
    );
    event NewParameters(
        uint256 mid_fee,
        uint256 out_fee,
        uint256 fee_gamma,
        uint256 allowed_extra_profit,
        uint256 adjustment_step,
        uint256 ma_time
    );
    event RampAgamma(
        uint256 initial_A,
        uint256 future_A,
        uint256 initial_gamma,
        uint256 future_gamma,
        uint256 initial_time,
        uint256 future_time
    );
    event StopRampA(uint256 current_A, uint256 current_gamma, uint256 time);
    event ClaimAdminFee(address admin, uint256[2] tokens);
    event Transfer(address indexed sender, address indexed receiver, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previous_owner, address indexed new_owner);
    event RoleMinterChanged(address indexed minter, bool status);

    // LP token
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address owner, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address arg0) external view returns (uint256);
    function allowance(address arg0, address arg1) external view returns (uint256);
    function totalSupply() external view returns (uint256);
    function name() external view returns (string memory);
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);

    // AMM
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy) external returns (uint256);
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver) external returns (uint256);
    function exchange_received(uint256 i, uint256 j, uint256 dx, uint256 min_dy) external returns (uint256);
    function exchange_received(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver)
        external
        returns (uint256);
    function add_liquidity(uint256[2] calldata amounts, uint256 min_mint_amount) external returns (uint256);
    function add_liquidity(uint256[2] calldata amounts, uint256 min_mint_amount, address receiver)
        external
        returns (uint256);
    function remove_liquidity(uint256 amount, uint256[2] calldata min_amounts) external returns (uint256[2] memory);
    function remove_liquidity(uint256 amount, uint256[2] calldata min_amounts, address receiver)
        external
        returns (uint256[2] memory);
    function remove_liquidity_fixed_out(uint256 token_amount, uint256 i, uint256 amount_i, uint256 min_amount_j)
        external
        returns (uint256);
    function remove_liquidity_fixed_out(
        uint256 token_amount,
        uint256 i,
        uint256 amount_i,
        uint256 min_amount_j,
        address receiver
    ) external returns (uint256);
    function remove_liquidity_one_coin(uint256 lp_token_amount, uint256 i, uint256 min_amount)
        external
        returns (uint256);
    function remove_liquidity_one_coin(uint256 lp_token_amount, uint256 i, uint256 min_amount, address receiver)
        external
        returns (uint256);

    // Views
    function calc_withdraw_fixed_out(uint256 lp_token_amount, uint256 i, uint256 amount_i)
        external
        view
        returns (uint256);
    function calc_withdraw_one_coin(uint256 lp_token_amount, uint256 i) external view returns (uint256);
    function calc_token_amount(uint256[2] calldata amounts, bool deposit) external view returns (uint256);
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256);
    function get_dx(uint256 i, uint256 j, uint256 dy) external view returns (uint256);
    function lp_price() external view returns (uint256);
    function get_virtual_price() external view returns (uint256);
    function price_oracle() external view returns (uint256);
    function price_scale() external view returns (uint256);
    function fee() external view returns (uint256);
    function calc_token_fee(uint256[2] calldata amounts, uint256[2] calldata xp) external view returns (uint256);
    function precisions() external view returns (uint256[2] memory);
    function fee_calc(uint256[2] calldata xp) external view returns (uint256);
    function MATH() external view returns (address);

    // Parameters
    function fee_receiver() external view returns (address);
    function admin() external view returns (address);
    function factory() external view returns (address);
    function A() external view returns (uint256);
    function gamma() external view returns (uint256);
    function mid_fee() external view returns (uint256);
    function out_fee() external view returns (uint256);
    function fee_gamma() external view returns (uint256);
    function allowed_extra_profit() external view returns (uint256);
    function adjustment_step() external view returns (uint256);
    function ma_time() external view returns (uint256);
    function packed_rebalancing_params() external view returns (uint256);
    function packed_fee_params() external view returns (uint256);
    function initial_A_gamma() external view returns (uint256);
    function initial_A_gamma_time() external view returns (uint256);
    function future_A_gamma() external view returns (uint256);
    function future_A_gamma_time() external view returns (uint256);
    function ramp_A_gamma(uint256 future_A, uint256 future_gamma, uint256 future_time) external;
    function stop_ramp_A_gamma() external;
    function apply_new_parameters(
        uint256 _new_mid_fee,
        uint256 _new_out_fee,
        uint256 _new_fee_gamma,
        uint256 _new_allowed_extra_profit,
        uint256 _new_adjustment_step,
        uint256 _new_ma_time
    ) external;

    // State
    function coins(uint256 arg0) external view returns (address);
    function balances(uint256 arg0) external view returns (uint256);
    function last_prices() external view returns (uint256);
    function last_timestamp() external view returns (uint256);
    function D() external view returns (uint256);
    function xcp_profit() external view returns (uint256);
    function xcp_profit_a() external view returns (uint256);
    function virtual_price() external view returns (uint256);
    function ADMIN_FEE() external view returns (uint256);
    function version() external view returns (string memory);
}

/// @notice Curve TwocryptoNG's factory as its Vyper source declares it (interfaces/ITwocryptoFactory.vyi,
/// contracts/main/TwocryptoFactory.vy at HEAD 0fcca0d). Vyper's default arguments are overloads.
interface ICurveTwocryptoFactoryNG {
    event TwocryptoPoolDeployed(
        address pool,
        string name,
        string symbol,
        address[2] coins,
        address math,
        bytes32 salt,
        uint256[2] precisions,
        uint256 packed_A_gamma,
        uint256 packed_fee_params,
        uint256 packed_rebalancing_params,
        uint256 packed_prices,
        address deployer
    );
    event LiquidityGaugeDeployed(address pool, address gauge);
    event UpdateFeeReceiver(address old_fee_receiver, address new_fee_receiver);
    event UpdatePoolImplementation(
        uint256 implementation_id, address old_pool_implementation, address new_pool_implementation
    );
    event UpdateGaugeImplementation(address old_gauge_implementation, address new_gauge_implementation);
    event UpdateMathImplementation(address old_math_implementation, address new_math_implementation);
    event UpdateViewsImplementation(address old_views_implementation, address new_views_implementation);
    event TransferOwnership(address old_owner, address new_owner);

    function initialise_ownership(address _fee_receiver, address _admin) external;
    function deploy_pool(
        string calldata _name,
        string calldata _symbol,
        address[2] calldata _coins,
        uint256 implementation_id,
        uint256 A,
        uint256 gamma,
        uint256 mid_fee,
        uint256 out_fee,
        uint256 fee_gamma,
        uint256 allowed_extra_profit,
        uint256 adjustment_step,
        uint256 ma_exp_time,
        uint256 initial_price
    ) external returns (address);
    function set_fee_receiver(address _fee_receiver) external;
    function set_pool_implementation(address _pool_implementation, uint256 _implementation_index) external;
    function set_gauge_implementation(address _gauge_implementation) external;
    function set_views_implementation(address _views_implementation) external;
    function set_math_implementation(address _math_implementation) external;
    function commit_transfer_ownership(address _addr) external;
    function accept_transfer_ownership() external;
    function find_pool_for_coins(address _from, address _to) external view returns (address);
    function find_pool_for_coins(address _from, address _to, uint256 i) external view returns (address);
    function pool_count() external view returns (uint256);
    function get_coins(address _pool) external view returns (address[2] memory);
    function get_decimals(address _pool) external view returns (uint256[2] memory);
    function get_balances(address _pool) external view returns (uint256[2] memory);
    function get_coin_indices(address _pool, address _from, address _to) external view returns (uint256, uint256);
    function get_gauge(address _pool) external view returns (address);
    function get_market_counts(address coin_a, address coin_b) external view returns (uint256);
    function admin() external view returns (address);
    function future_admin() external view returns (address);
    function fee_receiver() external view returns (address);
    function pool_implementations(uint256 arg0) external view returns (address);
    function gauge_implementation() external view returns (address);
    function views_implementation() external view returns (address);
    function math_implementation() external view returns (address);
    function pool_list(uint256 arg0) external view returns (address);
}

/// @notice Curve TwocryptoNG's math contract as its Vyper source declares it (interfaces/ITwocryptoMath.vyi,
/// contracts/main/TwocryptoMath.vy). Vyper's default arguments are overloads.
interface ICurveTwocryptoMathNG {
    function newton_y(uint256 ANN, uint256 gamma, uint256[2] calldata x, uint256 D, uint256 i)
        external
        view
        returns (uint256);
    function get_y(uint256 _ANN, uint256 _gamma, uint256[2] calldata _x, uint256 _D, uint256 i)
        external
        view
        returns (uint256[2] memory);
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted) external view returns (uint256);
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted, uint256 K0_prev)
        external
        view
        returns (uint256);
    function get_p(uint256[2] calldata _xp, uint256 _D, uint256[2] calldata _A_gamma) external view returns (uint256);
    function wad_exp(int256 x) external view returns (uint256);
    function version() external view returns (string memory);
    function N_COINS() external view returns (uint256);
}

/// @notice Curve TwocryptoNG's views contract as its Vyper source declares it (interfaces/ITwocryptoView.vyi).
interface ICurveTwocryptoViewNG {
    function get_dy(uint256 i, uint256 j, uint256 dx, address swap) external view returns (uint256);
    function get_dx(uint256 i, uint256 j, uint256 dy, address swap) external view returns (uint256);
    function calc_withdraw_one_coin(uint256 token_amount, uint256 i, address swap) external view returns (uint256);
    function calc_token_amount(uint256[2] calldata amounts, bool deposit, address swap) external view returns (uint256);
    function calc_fee_get_dy(uint256 i, uint256 j, uint256 dx, address swap) external view returns (uint256);
    function calc_fee_withdraw_one_coin(uint256 token_amount, uint256 i, address swap) external view returns (uint256);
    function calc_fee_token_amount(uint256[2] calldata amounts, bool deposit, address swap)
        external
        view
        returns (uint256);
}
