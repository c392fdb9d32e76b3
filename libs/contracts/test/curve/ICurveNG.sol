// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Curve StableswapNG's plain pool as its Vyper source declares it (CurveStableSwapNG.vy v7.0.0): what an
/// integration compiled against the real pool calls. Written from the Vyper, not from the stand-in, so the tests that
/// call the stand-in through it check NG's selectors and return shapes. Vyper's default arguments are overloads.
interface ICurveStableSwapNG {
    event TokenExchange(
        address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought
    );
    event AddLiquidity(
        address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply
    );
    event RemoveLiquidity(address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 token_supply);
    event RemoveLiquidityOne(
        address indexed provider, int128 token_id, uint256 token_amount, uint256 coin_amount, uint256 token_supply
    );
    event RemoveLiquidityImbalance(
        address indexed provider, uint256[] token_amounts, uint256[] fees, uint256 invariant, uint256 token_supply
    );
    event RampA(uint256 old_A, uint256 new_A, uint256 initial_time, uint256 future_time);
    event StopRampA(uint256 A, uint256 t);
    event ApplyNewFee(uint256 fee, uint256 offpeg_fee_multiplier);
    event Transfer(address indexed sender, address indexed receiver, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function coins(uint256 i) external view returns (address);
    function balances(uint256 i) external view returns (uint256);
    function get_balances() external view returns (uint256[] memory);
    function stored_rates() external view returns (uint256[] memory);
    function admin_balances(uint256 i) external view returns (uint256);
    function N_COINS() external view returns (uint256);
    function fee() external view returns (uint256);
    function offpeg_fee_multiplier() external view returns (uint256);
    function admin_fee() external view returns (uint256);
    function A() external view returns (uint256);
    function A_precise() external view returns (uint256);
    function initial_A() external view returns (uint256);
    function future_A() external view returns (uint256);
    function initial_A_time() external view returns (uint256);
    function future_A_time() external view returns (uint256);
    function ma_exp_time() external view returns (uint256);
    function D_ma_time() external view returns (uint256);
    function version() external view returns (string memory);

    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256);
    function get_dx(int128 i, int128 j, uint256 dy) external view returns (uint256);
    function dynamic_fee(int128 i, int128 j) external view returns (uint256);
    function calc_token_amount(uint256[] calldata _amounts, bool _is_deposit) external view returns (uint256);
    function calc_withdraw_one_coin(uint256 _burn_amount, int128 i) external view returns (uint256);
    function get_virtual_price() external view returns (uint256);

    function exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy) external returns (uint256);
    function exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver) external returns (uint256);
    function exchange_received(int128 i, int128 j, uint256 _dx, uint256 _min_dy) external returns (uint256);
    function exchange_received(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver)
        external
        returns (uint256);

    function add_liquidity(uint256[] calldata _amounts, uint256 _min_mint_amount) external returns (uint256);
    function add_liquidity(uint256[] calldata _amounts, uint256 _min_mint_amount, address _receiver)
        external
        returns (uint256);
    function remove_liquidity(uint256 _burn_amount, uint256[] calldata _min_amounts) external returns (uint256[] memory);
    function remove_liquidity(uint256 _burn_amount, uint256[] calldata _min_amounts, address _receiver)
        external
        returns (uint256[] memory);
    function remove_liquidity(
        uint256 _burn_amount,
        uint256[] calldata _min_amounts,
        address _receiver,
        bool _claim_admin_fees
    ) external returns (uint256[] memory);
    function remove_liquidity_one_coin(uint256 _burn_amount, int128 i, uint256 _min_received) external returns (uint256);
    function remove_liquidity_one_coin(uint256 _burn_amount, int128 i, uint256 _min_received, address _receiver)
        external
        returns (uint256);
    function remove_liquidity_imbalance(uint256[] calldata _amounts, uint256 _max_burn_amount)
        external
        returns (uint256);
    function remove_liquidity_imbalance(uint256[] calldata _amounts, uint256 _max_burn_amount, address _receiver)
        external
        returns (uint256);
    function withdraw_admin_fees() external;

    function ramp_A(uint256 _future_A, uint256 _future_time) external;
    function stop_ramp_A() external;
    function set_new_fee(uint256 _new_fee, uint256 _new_offpeg_fee_multiplier) external;
    function set_ma_exp_time(uint256 _ma_exp_time, uint256 _D_ma_time) external;

    function name() external view returns (string memory);
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function transfer(address _to, uint256 _value) external returns (bool);
    function transferFrom(address _from, address _to, uint256 _value) external returns (bool);
    function approve(address _spender, uint256 _value) external returns (bool);
}

/// @notice Curve StableswapNG's factory as its Vyper source declares it (CurveStableSwapFactoryNG.vy), plain-pool part.
interface ICurveStableSwapFactoryNG {
    event PlainPoolDeployed(address[] coins, uint256 A, uint256 fee, address deployer);

    function admin() external view returns (address);
    function future_admin() external view returns (address);
    function fee_receiver() external view returns (address);
    function asset_types(uint8 id) external view returns (string memory);
    function pool_list(uint256 i) external view returns (address);
    function pool_count() external view returns (uint256);
    function base_pool_count() external view returns (uint256);
    function pool_implementations(uint256 i) external view returns (address);
    function find_pool_for_coins(address _from, address _to) external view returns (address);
    function find_pool_for_coins(address _from, address _to, uint256 i) external view returns (address);
    function get_base_pool(address _pool) external view returns (address);
    function get_n_coins(address _pool) external view returns (uint256);
    function get_coins(address _pool) external view returns (address[] memory);
    function get_decimals(address _pool) external view returns (uint256[] memory);
    function get_balances(address _pool) external view returns (uint256[] memory);
    function get_A(address _pool) external view returns (uint256);
    function get_fees(address _pool) external view returns (uint256, uint256);
    function get_admin_balances(address _pool) external view returns (uint256[] memory);
    function get_coin_indices(address _pool, address _from, address _to) external view returns (int128, int128, bool);
    function get_gauge(address _pool) external view returns (address);
    function get_implementation_address(address _pool) external view returns (address);
    function is_meta(address _pool) external view returns (bool);
    function get_pool_asset_types(address _pool) external view returns (uint8[] memory);

    function deploy_plain_pool(
        string calldata _name,
        string calldata _symbol,
        address[] calldata _coins,
        uint256 _A,
        uint256 _fee,
        uint256 _offpeg_fee_multiplier,
        uint256 _ma_exp_time,
        uint256 _implementation_idx,
        uint8[] calldata _asset_types,
        bytes4[] calldata _method_ids,
        address[] calldata _oracles
    ) external returns (address);

    function set_pool_implementations(uint256 _implementation_index, address _implementation) external;
    function set_fee_receiver(address _pool, address _fee_receiver) external;
    function commit_transfer_ownership(address _addr) external;
    function accept_transfer_ownership() external;
}
