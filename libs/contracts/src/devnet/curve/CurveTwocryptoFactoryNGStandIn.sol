// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// STAND-IN for Curve's TwocryptoNG factory (curvefi/twocrypto-ng, contracts/main/TwocryptoFactory.vy at the
// repository's HEAD 0fcca0d, Vyper 0.4.1): its pool deployer and registry, with the same external interface (names,
// selectors, return shapes, the TwocryptoPoolDeployed event exactly as the Vyper declares it: no indexed field), so
// pool discovery written against the real factory works on it. Curve's factory is Vyper and no installable package
// ships its bytecode; this Solidity contract exists only for the devnet and is not Curve's code.
//
// As in the Vyper: the deployer (tx.origin at construction) calls `initialise_ownership` once to set the fee receiver
// and the admin; the admin registers pool blueprints by implementation id (`set_pool_implementation`, EIP-5202
// blueprints: see CurveTwocryptoNGBlueprint), the math contract (`set_math_implementation`) every new pool is given,
// and the views contract (`set_views_implementation`) the pools delegate their quotes to, read by the pools at each
// quote. `deploy_pool` checks the parameters as the Vyper does (fees, fee_gamma, allowed_extra_profit,
// adjustment_step, ma_exp_time, initial_price, distinct coins of at most 18 decimals; A and gamma are checked by the
// pool's constructor), packs them and creates the pool from the blueprint with the Vyper constructor's arguments
// (`block.prevhash` as the unused salt), so the pool sees the factory as `msg.sender`.
//
// Covered: deploy_pool, initialise_ownership, pool_list (reverting past the last, as the Vyper's DynArray getter),
// pool_count, find_pool_for_coins (reverting when there is no i-th pool for the pair: it does not return the zero
// address), get_coins, get_decimals, get_balances, get_coin_indices (reverting "Coins not found"), get_market_counts,
// get_gauge (always zero), admin, future_admin, fee_receiver, the implementation getters and setters, ownership
// transfer, and the admin events. Not covered: gauges (deploy_gauge; gauge_implementation can be set but no gauge is
// deployed). Bare Vyper reverts (array bounds) revert here with custom errors; the Vyper's reason strings are kept.
// One mechanical difference: deploy_pool (thirteen parameters, two of them strings) is more than Solidity's legacy code
// generator can decode within its stack, so its selector is served by the fallback, which decodes the same ABI
// encoding as one struct; callers see the Vyper's function (selector, arguments, return value), but it is not listed
// in this contract's ABI: call it through the Vyper's interface (ICurveTwocryptoFactoryNG in the tests).

import {CurveStableSwapNGBlueprint} from "./CurveStableSwapFactoryNGStandIn.sol";
import {CurveTwocryptoNGStandIn} from "./CurveTwocryptoNGStandIn.sol";

/// @notice What the factory reads of its pools.
interface ICurveTwocryptoNGPoolBalances {
    /// @notice The pool's balance of coin `i`.
    function balances(uint256 i) external view returns (uint256);
}

/// @notice The ERC20 metadata the factory reads of a coin (IERC20Detailed's uint8 decimals).
interface ICurveTwocryptoNGDecimals {
    /// @notice The coin's decimals.
    function decimals() external view returns (uint8);
}

/// @title CurveTwocryptoNGBlueprint
/// @notice Deploys EIP-5202 blueprints of the TwocryptoNG stand-in pool, the form in which the factory takes pool
/// implementations (the same blueprint format as CurveStableSwapNGBlueprint, whose deployer it uses).
library CurveTwocryptoNGBlueprint {
    /// @notice Deploys a blueprint of the stand-in pool.
    /// @return blueprint The blueprint's address, for `set_pool_implementation`.
    function deployStandIn() internal returns (address blueprint) {
        return CurveStableSwapNGBlueprint.deploy(type(CurveTwocryptoNGStandIn).creationCode);
    }
}

/// @title CurveTwocryptoFactoryNGStandIn
/// @notice Devnet stand-in for Curve's TwocryptoNG factory: deploys pools from registered blueprints and keeps the
/// Vyper's registry of them (see the header of this file for what is covered).
contract CurveTwocryptoFactoryNGStandIn {
    uint256 private constant N_COINS = 2;
    uint256 private constant MAX_FEE = 10 * 10 ** 9;

    /// @dev deploy_pool(string,string,address[2],uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,
    /// uint256,uint256).
    bytes4 private constant DEPLOY_POOL_SELECTOR = bytes4(
        keccak256(
            "deploy_pool(string,string,address[2],uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)"
        )
    );

    /// @dev The Vyper's PoolArray.
    struct PoolArray {
        address liquidity_gauge;
        address[2] coins;
        uint256[2] decimals;
        address implementation;
    }

    /// @dev deploy_pool's arguments, in its order.
    struct PoolArgs {
        string name;
        string symbol;
        address[2] coins;
        uint256 implementationId;
        uint256 A;
        uint256 gamma;
        uint256 midFee;
        uint256 outFee;
        uint256 feeGamma;
        uint256 allowedExtraProfit;
        uint256 adjustmentStep;
        uint256 maExpTime;
        uint256 initialPrice;
    }

    /// @dev The pool constructor's arguments, in its order (ABI-encoded for create_from_blueprint).
    struct ConstructorArgs {
        string name;
        string symbol;
        address[2] coins;
        address math;
        bytes32 salt;
        uint256 packedPrecisions;
        uint256 packedGammaA;
        uint256 packedFeeParams;
        uint256 packedRebalancingParams;
        uint256 initialPrice;
    }

    address private immutable _deployer;

    /// @notice Who may set implementations and the fee receiver, and ramp and parametrise the pools.
    address public admin;

    /// @notice The admin-to-be, until it accepts.
    address public future_admin;

    /// @notice Where every pool sends its admin fees.
    address public fee_receiver;

    /// @notice Pool blueprints by implementation id.
    mapping(uint256 => address) public pool_implementations;

    /// @notice The gauge blueprint (stored only: gauges are not covered).
    address public gauge_implementation;

    /// @notice The views contract the pools delegate get_dy, get_dx and calc_token_amount to.
    address public views_implementation;

    /// @notice The math contract given to every new pool.
    address public math_implementation;

    /// @dev Pools by the xor of their coins' addresses.
    mapping(uint256 => address[]) private _markets;
    mapping(address => PoolArray) private _poolData;
    address[] private _poolList;

    // ---------------------------------------------------------------- events (interfaces/ITwocryptoFactory.vyi)

    /// @notice A pool was deployed (no indexed field, as the Vyper declares it).
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

    /// @notice Declared by the Vyper; never emitted here (gauges are not covered).
    event LiquidityGaugeDeployed(address pool, address gauge);

    /// @notice The fee receiver was set.
    event UpdateFeeReceiver(address old_fee_receiver, address new_fee_receiver);

    /// @notice A pool blueprint was set.
    event UpdatePoolImplementation(
        uint256 implementation_id, address old_pool_implementation, address new_pool_implementation
    );

    /// @notice The gauge blueprint was set.
    event UpdateGaugeImplementation(address old_gauge_implementation, address new_gauge_implementation);

    /// @notice The math contract was set.
    event UpdateMathImplementation(address old_math_implementation, address new_math_implementation);

    /// @notice The views contract was set.
    event UpdateViewsImplementation(address old_views_implementation, address new_views_implementation);

    /// @notice The admin changed.
    event TransferOwnership(address old_owner, address new_owner);

    // ---------------------------------------------------------------- errors (the Vyper reverts without data)

    /// @notice pool_list past the last pool, or find_pool_for_coins past the last pool of a pair. Vyper: the
    /// DynArray's bound (empty revert).
    error IndexOutOfRange(uint256 index);

    /// @notice A name over 64 bytes or a symbol over 32. Vyper: the String[64] / String[32] ABI bound.
    error StringTooLong();

    /// @notice The blueprint has no initcode past its preamble.
    error InvalidBlueprint();

    /// @notice The deployer is tx.origin at construction, as in the Vyper.
    constructor() {
        _deployer = tx.origin;
    }

    /// @notice Sets the fee receiver and the admin, once (the deployer only).
    /// @param _fee_receiver Where the pools send their admin fees.
    /// @param _admin The admin.
    function initialise_ownership(address _fee_receiver, address _admin) external {
        require(msg.sender == _deployer, "deployer only");
        require(admin == address(0), "already initialised");
        fee_receiver = _fee_receiver;
        admin = _admin;
        emit UpdateFeeReceiver(address(0), _fee_receiver);
        emit TransferOwnership(address(0), _admin);
    }

    // ---------------------------------------------------------------- deployer

    /// @notice deploy_pool(string _name, string _symbol, address[2] _coins, uint256 implementation_id, uint256 A,
    /// uint256 gamma, uint256 mid_fee, uint256 out_fee, uint256 fee_gamma, uint256 allowed_extra_profit, uint256
    /// adjustment_step, uint256 ma_exp_time, uint256 initial_price) returns (address): deploys a pool from the
    /// blueprint at `implementation_id` and registers it. Called by the Vyper's selector and ABI encoding; Solidity's
    /// legacy code generator cannot decode thirteen parameters (two of them strings) within its stack, so the call
    /// arrives here and is decoded as one struct (PoolArgs). The parameters:
    ///   `_name` the LP token's name (at most 64 bytes); `_symbol` its symbol (at most 32 bytes); `_coins` the two
    ///   coins (distinct, at most 18 decimals; prices are of coin 1 in coin 0); `implementation_id` the blueprint's id;
    ///   `A` A * N**N * A_MULTIPLIER (4000 to 4e7, checked by the pool); `gamma` 1e18 precision (1e10 to 1.99e17,
    ///   checked by the pool); `mid_fee` the fee at balance, 1e10 precision (below 1e10 - 1); `out_fee` the fee at
    ///   imbalance (at least mid_fee, below 1e10 - 1); `fee_gamma` 1e18 precision (1 to 1e18); `allowed_extra_profit`
    ///   1e18 precision (at most 1e18); `adjustment_step` 1e18 precision (1 to 1e18); `ma_exp_time` the oracle's time
    ///   constant in seconds / ln 2 (87 to 872541); `initial_price` the initial price of coin 1 in coin 0, 1e18
    ///   precision (1e6 to 1e30, exclusive).
    /// Any other unknown selector reverts without data, as a Vyper contract's dispatcher does.
    /// @param input The call's data.
    /// @return The pool's address, ABI-encoded.
    fallback(bytes calldata input) external returns (bytes memory) {
        if (msg.sig != DEPLOY_POOL_SELECTOR) revert();
        // The arguments' encoding is the tuple encoding of PoolArgs, which abi.decode reads after an offset word.
        PoolArgs memory args = abi.decode(bytes.concat(bytes32(uint256(0x20)), input[4:]), (PoolArgs));
        return abi.encode(_deployPool(args));
    }

    function _deployPool(PoolArgs memory args) private returns (address pool) {
        address poolImplementation = pool_implementations[args.implementationId];
        address mathImplementation = math_implementation;
        require(poolImplementation != address(0), "pool implementation not set");
        require(mathImplementation != address(0), "math implementation not set");
        if (bytes(args.name).length > 64 || bytes(args.symbol).length > 32) revert StringTooLong();

        require(args.midFee < MAX_FEE - 1, "fee mid>max"); // mid_fee can be zero
        require(args.outFee >= args.midFee, "fee out<mid");
        require(args.outFee < MAX_FEE - 1, "fee out>max");
        require(args.feeGamma < 10 ** 18 + 1, "fee_gamma>max");
        require(args.feeGamma > 0, "fee_gamma==0");
        require(args.allowedExtraProfit < 10 ** 18 + 1, "allowed_extra_profit>max");
        require(args.adjustmentStep < 10 ** 18 + 1, "adjustment_step>max");
        require(args.adjustmentStep > 0, "adjustment_step==0");
        require(args.maExpTime < 872542, "ma_exp_time>max"); // 7 * 24 * 60 * 60 / ln(2)
        require(args.maExpTime > 86, "ma_exp_time<min"); // 60 / ln(2)
        require(args.initialPrice > 10 ** 6 && args.initialPrice < 10 ** 30, "initial price out of bound");
        require(args.coins[0] != args.coins[1], "same coins");

        uint256[2] memory decimals;
        uint256[2] memory precisions;
        for (uint256 i; i < N_COINS; ++i) {
            uint256 d = ICurveTwocryptoNGDecimals(args.coins[i]).decimals();
            require(d < 19, "max 18 decimals for coins");
            decimals[i] = d;
            precisions[i] = 10 ** (18 - d);
        }

        ConstructorArgs memory c;
        c.name = args.name;
        c.symbol = args.symbol;
        c.coins = args.coins;
        c.math = mathImplementation;
        c.salt = blockhash(block.number - 1); // block.prevhash
        c.packedPrecisions = precisions[0] | (precisions[1] << 128);
        c.packedGammaA = args.gamma | (args.A << 128);
        c.packedFeeParams = (args.midFee << 128) | (args.outFee << 64) | args.feeGamma;
        c.packedRebalancingParams = (args.allowedExtraProfit << 128) | (args.adjustmentStep << 64) | args.maExpTime;
        c.initialPrice = args.initialPrice;

        pool = _createFromBlueprint(poolImplementation, _constructorArgs(c));

        _poolList.push(pool);
        PoolArray storage data = _poolData[pool];
        data.decimals = decimals;
        data.coins = args.coins;
        data.implementation = poolImplementation;

        _markets[uint256(uint160(args.coins[0])) ^ uint256(uint160(args.coins[1]))].push(pool);

        _emitDeployed(pool, c, precisions);
    }

    function _emitDeployed(address pool, ConstructorArgs memory c, uint256[2] memory precisions) private {
        emit TwocryptoPoolDeployed(
            pool,
            c.name,
            c.symbol,
            c.coins,
            c.math,
            c.salt,
            precisions,
            c.packedGammaA,
            c.packedFeeParams,
            c.packedRebalancingParams,
            c.initialPrice,
            msg.sender
        );
    }

    /// @dev The constructor's arguments, ABI-encoded as create_from_blueprint appends them. `ConstructorArgs` has the
    /// constructor's parameters in order; a struct with dynamic members is encoded as a dynamic tuple, one offset word
    /// (0x20) followed by the tuple's encoding, which is the arguments' encoding: drop that word.
    function _constructorArgs(ConstructorArgs memory c) private pure returns (bytes memory encoded) {
        encoded = abi.encode(c);
        assembly ("memory-safe") {
            let length := mload(encoded)
            encoded := add(encoded, 0x20)
            mstore(encoded, sub(length, 0x20))
        }
    }

    /// @dev The Vyper's create_from_blueprint(code_offset=3): the blueprint's code past its 3-byte preamble, then the
    /// arguments; a failing constructor's revert is passed on.
    function _createFromBlueprint(address blueprint, bytes memory args) private returns (address pool) {
        uint256 size = blueprint.code.length;
        if (size <= 3) revert InvalidBlueprint();
        uint256 codeLength = size - 3;
        bytes memory initcode = new bytes(codeLength + args.length);
        assembly ("memory-safe") {
            let dst := add(initcode, 0x20)
            extcodecopy(blueprint, dst, 3, codeLength)
            mcopy(add(dst, codeLength), add(args, 0x20), mload(args))
            pool := create(0, dst, mload(initcode))
            if iszero(pool) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
        }
    }

    // ---------------------------------------------------------------- admin

    /// @notice Sets where every pool sends its admin fees (admin only).
    /// @param _fee_receiver The fee receiver.
    function set_fee_receiver(address _fee_receiver) external {
        _onlyAdmin();
        emit UpdateFeeReceiver(fee_receiver, _fee_receiver);
        fee_receiver = _fee_receiver;
    }

    /// @notice Registers the pool blueprint at `_implementation_index` (admin only; zero stops deployments from it).
    /// @param _pool_implementation The blueprint (see CurveTwocryptoNGBlueprint).
    /// @param _implementation_index The id.
    function set_pool_implementation(address _pool_implementation, uint256 _implementation_index) external {
        _onlyAdmin();
        emit UpdatePoolImplementation(
            _implementation_index, pool_implementations[_implementation_index], _pool_implementation
        );
        pool_implementations[_implementation_index] = _pool_implementation;
    }

    /// @notice Sets the gauge blueprint (admin only; stored, unused: gauges are not covered).
    /// @param _gauge_implementation The gauge blueprint.
    function set_gauge_implementation(address _gauge_implementation) external {
        _onlyAdmin();
        emit UpdateGaugeImplementation(gauge_implementation, _gauge_implementation);
        gauge_implementation = _gauge_implementation;
    }

    /// @notice Sets the views contract every pool delegates its quotes to (admin only).
    /// @param _views_implementation The views contract.
    function set_views_implementation(address _views_implementation) external {
        _onlyAdmin();
        emit UpdateViewsImplementation(views_implementation, _views_implementation);
        views_implementation = _views_implementation;
    }

    /// @notice Sets the math contract given to new pools (admin only).
    /// @param _math_implementation The math contract.
    function set_math_implementation(address _math_implementation) external {
        _onlyAdmin();
        emit UpdateMathImplementation(math_implementation, _math_implementation);
        math_implementation = _math_implementation;
    }

    /// @notice Starts a transfer of the admin role to `_addr` (admin only).
    /// @param _addr The future admin.
    function commit_transfer_ownership(address _addr) external {
        _onlyAdmin();
        future_admin = _addr;
    }

    /// @notice Completes a transfer of the admin role (the future admin only).
    function accept_transfer_ownership() external {
        require(msg.sender == future_admin, "future admin only");
        emit TransferOwnership(admin, msg.sender);
        admin = msg.sender;
    }

    function _onlyAdmin() private view {
        require(msg.sender == admin, "admin only");
    }

    // ---------------------------------------------------------------- getters

    /// @notice The `i`-th pool trading `_from` and `_to` (in either order); reverts when there is none.
    /// @param _from A coin.
    /// @param _to Another coin.
    /// @param i The index among the pools of the pair.
    /// @return The pool.
    function find_pool_for_coins(address _from, address _to, uint256 i) public view returns (address) {
        address[] storage market = _markets[uint256(uint160(_from)) ^ uint256(uint160(_to))];
        if (i >= market.length) revert IndexOutOfRange(i);
        return market[i];
    }

    /// @notice The first pool trading `_from` and `_to`; reverts when there is none.
    /// @param _from A coin.
    /// @param _to Another coin.
    /// @return The pool.
    function find_pool_for_coins(address _from, address _to) external view returns (address) {
        return find_pool_for_coins(_from, _to, 0);
    }

    /// @notice The pools deployed, in order (reverts past the last).
    /// @param i The index.
    /// @return The pool.
    function pool_list(uint256 i) external view returns (address) {
        if (i >= _poolList.length) revert IndexOutOfRange(i);
        return _poolList[i];
    }

    /// @notice How many pools were deployed.
    /// @return The count.
    function pool_count() external view returns (uint256) {
        return _poolList.length;
    }

    /// @notice A pool's coins (zero for an unknown pool).
    /// @param _pool The pool.
    /// @return The coins.
    function get_coins(address _pool) external view returns (address[2] memory) {
        return _poolData[_pool].coins;
    }

    /// @notice A pool's coins' decimals.
    /// @param _pool The pool.
    /// @return The decimals.
    function get_decimals(address _pool) external view returns (uint256[2] memory) {
        return _poolData[_pool].decimals;
    }

    /// @notice A pool's balances (its `balances(i)`).
    /// @param _pool The pool.
    /// @return The balances.
    function get_balances(address _pool) external view returns (uint256[2] memory) {
        return [ICurveTwocryptoNGPoolBalances(_pool).balances(0), ICurveTwocryptoNGPoolBalances(_pool).balances(1)];
    }

    /// @notice The indices of `_from` and `_to` in a pool; reverts "Coins not found" unless they are its two coins.
    /// @param _pool The pool.
    /// @param _from The coin to sell.
    /// @param _to The coin to buy.
    /// @return The index of `_from`.
    /// @return The index of `_to`.
    function get_coin_indices(address _pool, address _from, address _to) external view returns (uint256, uint256) {
        address[2] memory coins_ = _poolData[_pool].coins;
        if (_from == coins_[0] && _to == coins_[1]) return (0, 1);
        if (_from == coins_[1] && _to == coins_[0]) return (1, 0);
        revert("Coins not found");
    }

    /// @notice A pool's gauge: always zero (gauges are not covered).
    /// @param _pool The pool.
    /// @return The gauge.
    function get_gauge(address _pool) external view returns (address) {
        return _poolData[_pool].liquidity_gauge;
    }

    /// @notice The number of pools trading `coin_a` and `coin_b`.
    /// @param coin_a A coin.
    /// @param coin_b Another coin.
    /// @return The count.
    function get_market_counts(address coin_a, address coin_b) external view returns (uint256) {
        return _markets[uint256(uint160(coin_a)) ^ uint256(uint160(coin_b))].length;
    }
}
