// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// STAND-IN for Curve's StableswapNG factory (curvefi/stableswap-ng, contracts/main/CurveStableSwapFactoryNG.vy, Vyper
// 0.3.10): its plain-pool deployer and registry, with the same external interface (names, selectors, return shapes,
// the PlainPoolDeployed event exactly as NG declares it), so pool discovery written against the real factory works on
// it. Curve's factory is Vyper and no installable package ships its bytecode; this Solidity contract exists only for
// the devnet and is not Curve's code.
//
// As in NG, the factory deploys pools from a blueprint (EIP-5202: 0xFE7100 followed by the pool's initcode) that its
// admin registers with `set_pool_implementations`; the pool's constructor gets NG's arguments and sees the factory as
// `msg.sender`. `CurveStableSwapNGBlueprint.deploy` below deploys such a blueprint of the stand-in pool's initcode.
//
// Covered: deploy_plain_pool and every plain-pool getter (pool_list, pool_count, find_pool_for_coins, get_coins,
// get_n_coins, get_decimals, get_balances, get_A, get_fees, get_admin_balances, get_coin_indices,
// get_implementation_address, get_pool_asset_types, is_meta, get_base_pool, get_gauge), admin, fee_receiver,
// ownership transfer, asset_types. Not covered: metapools and base pools (deploy_metapool, add_base_pool,
// base_pool_list / base_pool_data / base_pool_assets, get_meta_n_coins, get_underlying_*, get_metapool_rates; is_meta
// is always false and base_pool_count 0), gauges (deploy_gauge; get_gauge is always zero), and the math / views /
// gauge implementation settings (the stand-in pool computes its views itself). Bare Vyper asserts revert here with
// custom errors instead of empty data; NG's string reverts keep their strings.

import {CurveStableSwapNGStandIn} from "./CurveStableSwapNGStandIn.sol";

/// @notice What the factory reads of its pools.
interface ICurveStableSwapNGPoolLike {
    /// @notice The pool's amplification coefficient.
    function A() external view returns (uint256);

    /// @notice The pool's swap fee, 1e10 precision.
    function fee() external view returns (uint256);

    /// @notice The admin's share of the fees, 1e10 precision.
    function admin_fee() external view returns (uint256);

    /// @notice The pool's balance of coin `i`, admin fees excluded.
    function balances(uint256 i) external view returns (uint256);

    /// @notice The admin fees held of coin `i`.
    function admin_balances(uint256 i) external view returns (uint256);
}

/// @notice The ERC20 metadata the factory reads of a coin.
interface ICurveNGDecimals {
    /// @notice The coin's decimals (read as uint256, as NG's factory declares it).
    function decimals() external view returns (uint256);
}

/// @title CurveStableSwapNGBlueprint
/// @notice Deploys EIP-5202 blueprints, the form in which NG's factory takes pool implementations.
library CurveStableSwapNGBlueprint {
    /// @notice Deploying a blueprint failed (initcode too large for a contract, or out of gas).
    error BlueprintDeployFailed();

    /// @notice Deploys a blueprint of the stand-in pool.
    /// @return blueprint The blueprint's address, for `set_pool_implementations`.
    function deployStandIn() internal returns (address blueprint) {
        return deploy(type(CurveStableSwapNGStandIn).creationCode);
    }

    /// @notice Deploys a blueprint of `initcode`: a contract whose code is 0xFE7100 (the EIP-5202 preamble, version
    /// 0, no data) followed by `initcode`, which cannot be called, only copied from.
    /// @param initcode A contract's creation code (without constructor arguments).
    /// @return blueprint The blueprint's address.
    function deploy(bytes memory initcode) internal returns (address blueprint) {
        bytes memory code = bytes.concat(hex"fe7100", initcode);
        // The deployer Vyper uses: PUSH2 len, RETURNDATASIZE, DUP2, PUSH1 10, RETURNDATASIZE, CODECOPY, RETURN, then
        // the blueprint's code (copied from offset 10 and returned).
        bytes memory creation = bytes.concat(hex"61", bytes2(uint16(code.length)), hex"3d81600a3d39f3", code);
        assembly ("memory-safe") {
            blueprint := create(0, add(creation, 0x20), mload(creation))
        }
        if (blueprint == address(0)) revert BlueprintDeployFailed();
    }
}

/// @title CurveStableSwapFactoryNGStandIn
/// @notice Devnet stand-in for Curve's StableswapNG factory: deploys plain pools from a registered blueprint and keeps
/// NG's registry of them (see the header of this file for what is covered).
contract CurveStableSwapFactoryNGStandIn {
    uint256 private constant MAX_COINS = 8;
    uint256 private constant MAX_FEE = 5 * 10 ** 9;
    uint256 private constant FEE_DENOMINATOR = 10 ** 10;

    /// @dev NG's PoolArray, less the metapool and gauge fields.
    struct PoolArray {
        address implementation;
        address[] coins;
        uint256[] decimals;
        uint256 n_coins;
        uint8[] asset_types;
    }

    /// @dev A deployment's arguments, kept in memory to stay within the stack.
    struct PlainPoolArgs {
        string name;
        string symbol;
        uint256 A;
        uint256 fee;
        uint256 offpegFeeMultiplier;
        uint256 maExpTime;
        address[] coins;
        uint256[] rateMultipliers;
        uint8[] assetTypes;
        bytes4[] methodIds;
        address[] oracles;
    }

    /// @notice Who may set implementations and the fee receiver, and ramp A and set fees on the pools.
    address public admin;

    /// @notice The admin-to-be, until it accepts.
    address public future_admin;

    /// @notice Where every pool sends its admin fees.
    address public fee_receiver;

    /// @notice The names of the asset types: 0 Standard, 1 Oracle, 2 Rebasing, 3 ERC4626.
    mapping(uint8 => string) public asset_types;

    /// @notice The pools deployed, in order (zero past the last).
    mapping(uint256 => address) public pool_list;

    /// @notice How many pools were deployed.
    uint256 public pool_count;

    /// @notice The number of base pools (none: metapools are not covered).
    uint256 public constant base_pool_count = 0;

    /// @notice Pool blueprints by implementation index.
    mapping(uint256 => address) public pool_implementations;

    mapping(address => PoolArray) private _poolData;

    /// @dev Pools by the xor of two of their coins' addresses, as in NG.
    mapping(uint256 => mapping(uint256 => address)) private _markets;
    mapping(uint256 => uint256) private _marketCounts;

    /// @notice A plain pool was deployed. As in NG the event does not carry the pool's address: read it from
    /// deploy_plain_pool's return value or pool_list(pool_count() - 1).
    event PlainPoolDeployed(address[] coins, uint256 A, uint256 fee, address deployer);

    /// @notice An admin function was called by someone else. NG: empty revert.
    error OnlyAdmin(address caller);

    /// @notice accept_transfer_ownership by someone other than the future admin. NG: empty revert.
    error OnlyFutureAdmin(address caller);

    /// @notice Fewer than 2 or more than 8 coins. NG: `assert len(_coins) >= 2` (empty revert) / ABI bounds.
    error InvalidCoinCount(uint256 count);

    /// @notice The per-coin arrays differ in length. NG: empty revert.
    error ArrayLengthMismatch();

    /// @notice The off-peg multiplier times the fee is above MAX_FEE * 1e10. NG: empty revert.
    error OffpegFeeTooHigh();

    /// @notice A name over 32 bytes or a symbol over 10. NG: the String[32] / String[10] ABI bound (empty revert).
    error StringTooLong();

    /// @notice The blueprint has no initcode past its preamble.
    error InvalidBlueprint();

    /// @notice get_coin_indices did not find both coins in the pool. NG: an array bound (empty revert).
    error NoAvailableMarket();

    /// @param _fee_receiver Where the pools send their admin fees.
    /// @param _owner The admin.
    constructor(address _fee_receiver, address _owner) {
        fee_receiver = _fee_receiver;
        admin = _owner;

        asset_types[0] = "Standard";
        asset_types[1] = "Oracle";
        asset_types[2] = "Rebasing";
        asset_types[3] = "ERC4626";
    }

    // ---------------------------------------------------------------- factory getters

    /// @notice The first pool trading `_from` and `_to` (zero if none).
    /// @param _from A coin.
    /// @param _to Another coin.
    /// @return The pool.
    function find_pool_for_coins(address _from, address _to) external view returns (address) {
        return _markets[uint256(uint160(_from)) ^ uint256(uint160(_to))][0];
    }

    /// @notice The `i`-th pool trading `_from` and `_to` (zero past the last).
    /// @param _from A coin.
    /// @param _to Another coin.
    /// @param i The index among the pools of the pair.
    /// @return The pool.
    function find_pool_for_coins(address _from, address _to, uint256 i) external view returns (address) {
        return _markets[uint256(uint160(_from)) ^ uint256(uint160(_to))][i];
    }

    // ---------------------------------------------------------------- pool getters

    /// @notice The base pool of a metapool: always zero (plain pools only).
    /// @return The zero address.
    function get_base_pool(address) external pure returns (address) {
        return address(0);
    }

    /// @notice The number of coins of a pool (zero if unknown).
    /// @param _pool The pool.
    /// @return The number of coins.
    function get_n_coins(address _pool) external view returns (uint256) {
        return _poolData[_pool].n_coins;
    }

    /// @notice A pool's coins.
    /// @param _pool The pool.
    /// @return The coins.
    function get_coins(address _pool) external view returns (address[] memory) {
        return _poolData[_pool].coins;
    }

    /// @notice A pool's coins' decimals.
    /// @param _pool The pool.
    /// @return The decimals.
    function get_decimals(address _pool) external view returns (uint256[] memory) {
        return _poolData[_pool].decimals;
    }

    /// @notice A pool's balances (the pool's `balances(i)`, admin fees excluded).
    /// @param _pool The pool.
    /// @return result The balances.
    function get_balances(address _pool) external view returns (uint256[] memory result) {
        uint256 n = _poolData[_pool].n_coins;
        result = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            result[i] = ICurveStableSwapNGPoolLike(_pool).balances(i);
        }
    }

    /// @notice A pool's A (the pool's `A()`).
    /// @param _pool The pool.
    /// @return A.
    function get_A(address _pool) external view returns (uint256) {
        return ICurveStableSwapNGPoolLike(_pool).A();
    }

    /// @notice A pool's fee and admin fee, 1e10 precision.
    /// @param _pool The pool.
    /// @return The fee.
    /// @return The admin fee.
    function get_fees(address _pool) external view returns (uint256, uint256) {
        return (ICurveStableSwapNGPoolLike(_pool).fee(), ICurveStableSwapNGPoolLike(_pool).admin_fee());
    }

    /// @notice A pool's uncollected admin fees.
    /// @param _pool The pool.
    /// @return result The admin balance of each coin.
    function get_admin_balances(address _pool) external view returns (uint256[] memory result) {
        uint256 n = _poolData[_pool].n_coins;
        result = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            result[i] = ICurveStableSwapNGPoolLike(_pool).admin_balances(i);
        }
    }

    /// @notice The indices of `_from` and `_to` in a pool, and (as NG returns for plain pools) true.
    /// @param _pool The pool.
    /// @param _from The coin to sell.
    /// @param _to The coin to buy.
    /// @return The index of `_from`.
    /// @return The index of `_to`.
    /// @return True (NG's "underlying" flag, true on its plain-pool path).
    function get_coin_indices(address _pool, address _from, address _to) external view returns (int128, int128, bool) {
        address[] storage coins_ = _poolData[_pool].coins;
        bool found;
        uint256 i;
        uint256 j;
        for (uint256 x; x < coins_.length; ++x) {
            address coin = coins_[x];
            if (coin == _from) i = x;
            else if (coin == _to) j = x;
            else continue;
            // casting to 'int128' is safe because x < 8
            // forge-lint: disable-next-line(unsafe-typecast)
            if (found) return (int128(int256(i)), int128(int256(j)), true);
            found = true;
        }
        revert NoAvailableMarket();
    }

    /// @notice A pool's gauge: always zero (gauges are not covered).
    /// @return The zero address.
    function get_gauge(address) external pure returns (address) {
        return address(0);
    }

    /// @notice The blueprint a pool was deployed from.
    /// @param _pool The pool.
    /// @return The blueprint.
    function get_implementation_address(address _pool) external view returns (address) {
        return _poolData[_pool].implementation;
    }

    /// @notice Whether a pool is a metapool: always false (plain pools only).
    /// @return False.
    function is_meta(address) external pure returns (bool) {
        return false;
    }

    /// @notice A pool's coins' asset types.
    /// @param _pool The pool.
    /// @return The asset types.
    function get_pool_asset_types(address _pool) external view returns (uint8[] memory) {
        return _poolData[_pool].asset_types;
    }

    // ---------------------------------------------------------------- deployer

    /// @notice Deploys a plain pool of 2 to 8 coins from the blueprint at `_implementation_idx` and registers it.
    /// @param _name The LP token's name (at most 32 bytes).
    /// @param _symbol The LP token's symbol (at most 10 bytes).
    /// @param _coins The coins (distinct, at most 18 decimals).
    /// @param _A The amplification coefficient.
    /// @param _fee The swap fee, 1e10 precision (at most 1e8, 1%; else "Invalid fee").
    /// @param _offpeg_fee_multiplier The off-peg fee multiplier, 1e10 precision.
    /// @param _ma_exp_time The price oracles' averaging window.
    /// @param _implementation_idx The blueprint's index.
    /// @param _asset_types Each coin's asset type: 0 standard, 1 oracle, 2 rebasing, 3 ERC4626.
    /// @param _method_ids Each oracle coin's rate method id (else zero).
    /// @param _oracles Each oracle coin's rate oracle (else zero).
    /// @return pool The pool.
    function deploy_plain_pool(
        string memory _name,
        string memory _symbol,
        address[] memory _coins,
        uint256 _A,
        uint256 _fee,
        uint256 _offpeg_fee_multiplier,
        uint256 _ma_exp_time,
        uint256 _implementation_idx,
        uint8[] memory _asset_types,
        bytes4[] memory _method_ids,
        address[] memory _oracles
    ) external returns (address pool) {
        PlainPoolArgs memory args;
        args.name = _name;
        args.symbol = _symbol;
        args.coins = _coins;
        args.A = _A;
        args.fee = _fee;
        args.offpegFeeMultiplier = _offpeg_fee_multiplier;
        args.maExpTime = _ma_exp_time;
        args.assetTypes = _asset_types;
        args.methodIds = _method_ids;
        args.oracles = _oracles;
        pool = _deployPlainPool(args, _implementation_idx);
    }

    function _deployPlainPool(PlainPoolArgs memory args, uint256 implementationIdx) private returns (address pool) {
        uint256 n = args.coins.length;
        if (n < 2 || n > MAX_COINS) revert InvalidCoinCount(n);
        if (n != args.methodIds.length || n != args.oracles.length || n != args.assetTypes.length) {
            revert ArrayLengthMismatch();
        }
        require(args.fee <= 100000000, "Invalid fee");
        if (args.offpegFeeMultiplier * args.fee > MAX_FEE * FEE_DENOMINATOR) revert OffpegFeeTooHigh();
        if (bytes(args.name).length > 32 || bytes(args.symbol).length > 10) revert StringTooLong();

        uint256[] memory decimals = new uint256[](n);
        args.rateMultipliers = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            address coin = args.coins[i];
            decimals[i] = ICurveNGDecimals(coin).decimals();
            require(decimals[i] < 19, "Max 18 decimals for coins");
            args.rateMultipliers[i] = 10 ** (36 - decimals[i]);
            for (uint256 j = i + 1; j < n; ++j) {
                require(coin != args.coins[j], "Duplicate coins");
            }
        }

        address implementation = pool_implementations[implementationIdx];
        require(implementation != address(0), "Invalid implementation index");

        pool = _createFromBlueprint(implementation, _constructorArgs(args));

        uint256 length = pool_count;
        pool_list[length] = pool;
        pool_count = length + 1;

        PoolArray storage data = _poolData[pool];
        data.decimals = decimals;
        data.n_coins = n;
        data.implementation = implementation;
        data.asset_types = args.assetTypes;
        data.coins = args.coins;

        for (uint256 i; i < n; ++i) {
            for (uint256 j = i + 1; j < n; ++j) {
                uint256 key = uint256(uint160(args.coins[i])) ^ uint256(uint160(args.coins[j]));
                uint256 count = _marketCounts[key];
                _markets[key][count] = pool;
                _marketCounts[key] = count + 1;
            }
        }

        emit PlainPoolDeployed(args.coins, args.A, args.fee, msg.sender);
    }

    /// @dev NG's constructor arguments, ABI-encoded as create_from_blueprint appends them. `PlainPoolArgs` has the
    /// constructor's eleven parameters in order; a struct with dynamic members is encoded as a dynamic tuple, one offset
    /// word (0x20) followed by the tuple's encoding, which is the arguments' encoding: drop that word.
    function _constructorArgs(PlainPoolArgs memory args) private pure returns (bytes memory encoded) {
        encoded = abi.encode(args);
        assembly ("memory-safe") {
            let length := mload(encoded)
            encoded := add(encoded, 0x20)
            mstore(encoded, sub(length, 0x20))
        }
    }

    /// @dev NG's create_from_blueprint(code_offset=3): the blueprint's code past its 3-byte preamble, then the
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

    /// @notice Registers the pool blueprint at `_implementation_index` (admin only).
    /// @param _implementation_index The index.
    /// @param _implementation The blueprint (see CurveStableSwapNGBlueprint).
    function set_pool_implementations(uint256 _implementation_index, address _implementation) external {
        _onlyAdmin();
        pool_implementations[_implementation_index] = _implementation;
    }

    /// @notice Sets where every pool sends its admin fees (admin only; `_pool` is ignored, as in NG).
    /// @param _fee_receiver The fee receiver.
    function set_fee_receiver(address, address _fee_receiver) external {
        _onlyAdmin();
        fee_receiver = _fee_receiver;
    }

    /// @notice Names an asset type (admin only).
    /// @param _id The asset type.
    /// @param _name Its name.
    function add_asset_type(uint8 _id, string calldata _name) external {
        _onlyAdmin();
        asset_types[_id] = _name;
    }

    /// @notice Starts a transfer of the admin role to `_addr` (admin only).
    /// @param _addr The future admin.
    function commit_transfer_ownership(address _addr) external {
        _onlyAdmin();
        future_admin = _addr;
    }

    /// @notice Completes a transfer of the admin role (the future admin only).
    function accept_transfer_ownership() external {
        address futureAdmin = future_admin;
        if (msg.sender != futureAdmin) revert OnlyFutureAdmin(msg.sender);
        admin = futureAdmin;
        future_admin = address(0);
    }

    function _onlyAdmin() private view {
        if (msg.sender != admin) revert OnlyAdmin(msg.sender);
    }
}
