// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IV4PoolManager, IV4UnlockCallback} from "../sources/v4/interfaces/IV4PoolManager.sol";

/// @title IV4PoolManagerAdmin
/// @notice The PoolManager's calls (v4-core's ABI) that create pools and add liquidity.
interface IV4PoolManagerAdmin is IV4PoolManager {
    /// @notice A position's change: the range, the liquidity added (negative: removed) and the position's salt.
    struct ModifyLiquidityParams {
        int24 tickLower;
        int24 tickUpper;
        int256 liquidityDelta;
        bytes32 salt;
    }

    function initialize(PoolKey memory key, uint160 sqrtPriceX96) external returns (int24 tick);

    function modifyLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        returns (int256 callerDelta, int256 feesAccrued);

    function updateDynamicLPFee(PoolKey memory key, uint24 newDynamicLPFee) external;
}

/// @title V4PositionMinter
/// @notice Adds liquidity positions to Uniswap V4 pools (v4-core's PoolManager) for the devnet's seeding and for
/// tests, through the manager's `unlock`: it pays what each call owes from the caller (approve this contract for both
/// currencies first; the native coin comes with the call, the rest is refunded). Positions are held by this contract
/// under a salt naming the payer, so one payer's positions never merge with another's. It holds nothing between calls.
contract V4PositionMinter is IV4UnlockCallback {
    using SafeERC20 for IERC20;

    /// @notice A position's range and the liquidity to add.
    struct Position {
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
    }

    /// @notice `unlockCallback` came from an account other than the manager.
    error NotPoolManager(address caller);

    /// @notice The native coin sent does not cover what the positions owe.
    error NativeShort(uint256 owed, uint256 sent);

    /// @notice Positions were added to a pool.
    /// @param poolId The pool's id.
    /// @param payer Who paid for them.
    /// @param amount0 The currency0 paid.
    /// @param amount1 The currency1 paid.
    event PositionsAdded(bytes32 indexed poolId, address indexed payer, uint256 amount0, uint256 amount1);

    /// @notice The PoolManager whose pools this contract adds liquidity to.
    IV4PoolManagerAdmin public immutable manager;

    /// @param manager_ The PoolManager.
    constructor(IV4PoolManagerAdmin manager_) {
        manager = manager_;
    }

    /// @notice Accepts the native coin the manager pays back (none: payments are exact) and refunds.
    receive() external payable {}

    /// @notice Initializes a pool at `sqrtPriceX96` (unless `sqrtPriceX96` is 0: the pool exists) and adds
    /// `positions`, paid by the caller.
    /// @return amount0 The currency0 paid.
    /// @return amount1 The currency1 paid.
    function addPositions(IV4PoolManager.PoolKey calldata key, uint160 sqrtPriceX96, Position[] calldata positions)
        external
        payable
        returns (uint256 amount0, uint256 amount1)
    {
        if (sqrtPriceX96 != 0) manager.initialize(key, sqrtPriceX96);
        (amount0, amount1) =
            abi.decode(manager.unlock(abi.encode(msg.sender, msg.value, key, positions)), (uint256, uint256));
        uint256 refund = address(this).balance;
        if (refund != 0) {
            (bool sent,) = msg.sender.call{value: refund}("");
            require(sent, "refund failed");
        }
        emit PositionsAdded(keccak256(abi.encode(key)), msg.sender, amount0, amount1);
    }

    /// @inheritdoc IV4UnlockCallback
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(manager)) revert NotPoolManager(msg.sender);
        (address payer, uint256 value, IV4PoolManager.PoolKey memory key, Position[] memory positions) =
            abi.decode(data, (address, uint256, IV4PoolManager.PoolKey, Position[]));
        int256 owed0;
        int256 owed1;
        bytes32 salt = bytes32(uint256(uint160(payer)));
        for (uint256 i; i < positions.length; ++i) {
            Position memory p = positions[i];
            IV4PoolManagerAdmin.ModifyLiquidityParams memory params = IV4PoolManagerAdmin.ModifyLiquidityParams({
                tickLower: p.tickLower,
                tickUpper: p.tickUpper,
                liquidityDelta: SafeCast.toInt256(p.liquidity),
                salt: salt
            });
            (int256 delta,) = manager.modifyLiquidity(key, params, "");
            owed0 -= delta >> 128;
            owed1 -= int256(int128(delta));
        }
        uint256 amount0 = _settle(key.currency0, payer, owed0, value);
        uint256 amount1 = _settle(key.currency1, payer, owed1, value);
        return abi.encode(amount0, amount1);
    }

    /// @dev Pays the manager what the positions owe in `currency` (adding liquidity owes, never earns).
    function _settle(address currency, address payer, int256 owed, uint256 value) private returns (uint256 amount) {
        if (owed <= 0) return 0;
        amount = SafeCast.toUint256(owed);
        if (currency == address(0)) {
            if (amount > value) revert NativeShort(amount, value);
            manager.settle{value: amount}();
            return amount;
        }
        manager.sync(currency);
        IERC20(currency).safeTransferFrom(payer, address(manager), amount);
        manager.settle();
    }
}
