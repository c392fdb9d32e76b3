// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CurveNGFixture} from "./CurveNGFixture.sol";
import {CurveNGVectors} from "./CurveNGVectors.sol";
import {MockRateOracle} from "./CurveNGMocks.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {CurveStableSwapNGStandIn} from "../../src/devnet/curve/CurveStableSwapNGStandIn.sol";

/// @notice The stand-in pool against the reference model of NG's Vyper maths (test/curve/reference/stableswap_ng.py),
/// to the wei: each case deploys a pool like the model's, makes the same first deposit (and A ramp), then replays the
/// model's operations, checking every quote (get_dy, get_dx, dynamic_fee, calc_token_amount, calc_withdraw_one_coin,
/// get_virtual_price, A) and every amount paid, minted or burnt.
contract CurveStableSwapNGVectorsTest is CurveNGFixture {
    // Operation kinds (see the reference script).
    uint8 internal constant OP_SWAP = 0;
    uint8 internal constant OP_GET_DX = 1;
    uint8 internal constant OP_DYNAMIC_FEE = 2;
    uint8 internal constant OP_ADD = 3;
    uint8 internal constant OP_REMOVE_ONE = 4;
    uint8 internal constant OP_REMOVE_IMBALANCE = 5;
    uint8 internal constant OP_WARP = 6;
    uint8 internal constant OP_VIRTUAL_PRICE = 7;
    uint8 internal constant OP_REMOVE = 8;

    function test_vectors_2coins_18_18_balanced() public {
        _run(0);
    }

    function test_vectors_2coins_6_18_balanced_highA() public {
        _run(1);
    }

    function test_vectors_2coins_18_6_imbalanced() public {
        _run(2);
    }

    function test_vectors_2coins_6_6_veryImbalanced_lowA_highFee() public {
        _run(3);
    }

    function test_vectors_2coins_staticFee_imbalanced() public {
        _run(4);
    }

    function test_vectors_2coins_rampUp() public {
        _run(5);
    }

    function test_vectors_2coins_rampDown() public {
        _run(6);
    }

    function test_vectors_2coins_oracleRate() public {
        _run(7);
    }

    function test_vectors_3coins_balanced() public {
        _run(8);
    }

    function test_vectors_3coins_imbalanced() public {
        _run(9);
    }

    function test_vectors_3coins_rampUp() public {
        _run(10);
    }

    function test_vectors_4coins_balanced() public {
        _run(11);
    }

    function test_vectors_4coins_imbalanced() public {
        _run(12);
    }

    function test_vectors_4coins_rampDown_oracleRate() public {
        _run(13);
    }

    function test_vectors_8coins_balanced() public {
        _run(14);
    }

    function test_vectors_8coins_imbalanced() public {
        _run(15);
    }

    function test_vectors_8coins_rampUp() public {
        _run(16);
    }

    function test_vectors_coverEveryCase() public pure {
        assertEq(CurveNGVectors.CASES, 17);
    }

    // ---------------------------------------------------------------- replay

    function _run(uint256 index) internal {
        CurveNGVectors.Case memory c = CurveNGVectors.get(index);
        assertEq(c.name, c.name); // keeps the case's name in the trace
        CurveStableSwapNGStandIn pool = _deployCase(c);

        uint256 minted = pool.add_liquidity(c.deposit, 0);
        assertEq(minted, c.minted, "first deposit");

        if (c.ramp) {
            vm.warp(c.rampStart);
            pool.ramp_A(c.futureA, c.rampEnd);
        }

        for (uint256 k; k < c.ops.length; ++k) {
            _apply(pool, c.ops[k], k);
        }
    }

    function _deployCase(CurveNGVectors.Case memory c) internal returns (CurveStableSwapNGStandIn) {
        uint256 n = c.decimals.length;
        address[] memory coins = _coins(c.decimals, 1e12);
        uint8[] memory assetTypes = new uint8[](n);
        bytes4[] memory methodIds = new bytes4[](n);
        address[] memory oracles = new address[](n);
        for (uint256 k; k < n; ++k) {
            if (c.oracleRates[k] != 0) {
                assetTypes[k] = 1;
                methodIds[k] = bytes4(keccak256("rate()"));
                oracles[k] = address(new MockRateOracle(c.oracleRates[k]));
            }
        }
        return _pool(coins, assetTypes, methodIds, oracles, c.A, c.fee, c.offpeg);
    }

    function _apply(CurveStableSwapNGStandIn pool, CurveNGVectors.Op memory op, uint256 k) internal {
        string memory where = string.concat("op ", vm.toString(k));
        int128 i = _i128(op.i);
        int128 j = _i128(op.j);
        if (op.kind == OP_SWAP) {
            assertEq(pool.get_dy(i, j, op.amount), op.expected, string.concat(where, ": get_dy"));
            address out = pool.coins(op.j);
            uint256 before = _balance(out, address(this));
            uint256 paid = pool.exchange(i, j, op.amount, op.expected2);
            assertEq(paid, op.expected2, string.concat(where, ": exchange"));
            assertEq(_balance(out, address(this)) - before, paid, string.concat(where, ": exchange transfer"));
        } else if (op.kind == OP_GET_DX) {
            assertEq(pool.get_dx(i, j, op.amount), op.expected, string.concat(where, ": get_dx"));
        } else if (op.kind == OP_DYNAMIC_FEE) {
            assertEq(pool.dynamic_fee(i, j), op.expected, string.concat(where, ": dynamic_fee"));
        } else if (op.kind == OP_ADD) {
            assertEq(pool.calc_token_amount(op.amounts, true), op.expected, string.concat(where, ": calc_token_amount"));
            assertEq(
                pool.add_liquidity(op.amounts, op.expected2), op.expected2, string.concat(where, ": add_liquidity")
            );
        } else if (op.kind == OP_REMOVE_ONE) {
            assertEq(pool.calc_withdraw_one_coin(op.amount, i), op.expected, string.concat(where, ": calc_withdraw"));
            assertEq(
                pool.remove_liquidity_one_coin(op.amount, i, op.expected2),
                op.expected2,
                string.concat(where, ": remove_liquidity_one_coin")
            );
        } else if (op.kind == OP_REMOVE_IMBALANCE) {
            assertEq(
                pool.calc_token_amount(op.amounts, false), op.expected, string.concat(where, ": calc_token_amount")
            );
            assertEq(
                pool.remove_liquidity_imbalance(op.amounts, op.expected2),
                op.expected2,
                string.concat(where, ": remove_liquidity_imbalance")
            );
        } else if (op.kind == OP_WARP) {
            vm.warp(op.amount);
            assertEq(pool.A_precise(), op.expected, string.concat(where, ": A_precise"));
            assertEq(pool.A(), op.expected2, string.concat(where, ": A"));
        } else if (op.kind == OP_VIRTUAL_PRICE) {
            assertEq(pool.get_virtual_price(), op.expected, string.concat(where, ": get_virtual_price"));
        } else if (op.kind == OP_REMOVE) {
            _removeAll(pool, op, where);
        } else {
            revert("unknown op");
        }
    }

    /// @dev A proportional withdrawal: the coins match the model, and the admin fees leave to the fee receiver.
    function _removeAll(CurveStableSwapNGStandIn pool, CurveNGVectors.Op memory op, string memory where) internal {
        uint256 n = pool.N_COINS();
        uint256[] memory adminFees = new uint256[](n);
        for (uint256 k; k < n; ++k) {
            adminFees[k] = pool.admin_balances(k);
        }
        uint256[] memory paid = pool.remove_liquidity(op.amount, op.amounts);
        for (uint256 k; k < n; ++k) {
            assertEq(paid[k], op.amounts[k], string.concat(where, ": remove_liquidity"));
            assertEq(_balance(pool.coins(k), feeReceiver), adminFees[k], string.concat(where, ": admin fee"));
            assertEq(pool.admin_balances(k), 0, string.concat(where, ": admin balance"));
        }
    }
}
