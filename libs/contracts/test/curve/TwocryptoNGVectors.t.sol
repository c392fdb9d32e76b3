// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TwocryptoNGFixture} from "./TwocryptoNGFixture.sol";
import {CurveTwocryptoNGVectors as V} from "./TwocryptoNGVectors.sol";
import {ICurveTwocryptoMathNG, ICurveTwocryptoNG} from "./ICurveTwocryptoNG.sol";
import {TestERC20} from "../../src/TestERC20.sol";

/// @notice The TwocryptoNG stand-ins against the reference model of the Vyper maths (test/curve/reference/
/// twocrypto_ng.py), to the wei: each case deploys a pool like the model's through the factory, makes the same first
/// deposit, then replays the model's operations (with time passing), checking every quote (get_dy, get_dx,
/// calc_token_amount, calc_withdraw_one_coin, calc_withdraw_fixed_out, the views contract's calc_withdraw_one_coin),
/// every amount paid, minted or burnt, each TokenExchange event, and at checkpoints the whole state (price_scale,
/// price_oracle, last_prices, D, virtual_price, xcp_profit, xcp_profit_a, get_virtual_price, lp_price, fee, the supply,
/// the balances, A, gamma, last_timestamp, the fee receiver's coins). The math contract is checked on its own too.
contract TwocryptoNGVectorsTest is TwocryptoNGFixture {
    // Operation kinds (see the reference script).
    uint8 internal constant OP_SWAP = 0;
    uint8 internal constant OP_SWAP_RECEIVED = 1;
    uint8 internal constant OP_GET_DX = 2;
    uint8 internal constant OP_ADD = 3;
    uint8 internal constant OP_CALC_WITHDRAW = 4;
    uint8 internal constant OP_REMOVE_ONE = 5;
    uint8 internal constant OP_REMOVE_FIXED_OUT = 6;
    uint8 internal constant OP_REMOVE = 7;
    uint8 internal constant OP_WARP = 8;
    uint8 internal constant OP_RAMP = 9;
    uint8 internal constant OP_STATE = 10;

    function test_vectors_crypto_18_18_balanced() public {
        _run(0);
    }

    function test_vectors_crypto_6_18_balanced() public {
        _run(1);
    }

    function test_vectors_crypto_18_6_imbalanced() public {
        _run(2);
    }

    function test_vectors_forex_6_6_balanced() public {
        _run(3);
    }

    function test_vectors_lsd_18_18_imbalanced() public {
        _run(4);
    }

    function test_vectors_largeGamma_18_6_balanced() public {
        _run(5);
    }

    function test_vectors_customA_6_18_cheapCoin1() public {
        _run(6);
    }

    function test_vectors_crypto_18_8_imbalanced() public {
        _run(7);
    }

    function test_vectors_repeg_crypto_uptrend() public {
        _run(8);
    }

    function test_vectors_repeg_crypto_6_18_downtrend() public {
        _run(9);
    }

    function test_vectors_repeg_forex_uptrend() public {
        _run(10);
    }

    function test_vectors_ramp_crypto_AUp_gammaDown() public {
        _run(11);
    }

    function test_vectors_ramp_lsd_ADown_gammaUp() public {
        _run(12);
    }

    function test_vectors_coverEveryCase() public pure {
        assertEq(V.CASES, 13);
    }

    /// @notice newton_D, get_y (its analytical answer and its Newton fallback), newton_y, get_p and wad_exp of the math
    /// contract, called through the Vyper's interface, against the model: values and reverts.
    function test_vectors_math() public view {
        V.MathOp[] memory ops = V.mathOps();
        ICurveTwocryptoMathNG m = ICurveTwocryptoMathNG(address(math));
        for (uint256 k; k < ops.length; ++k) {
            V.MathOp memory o = ops[k];
            string memory where = string.concat("math op ", vm.toString(k));
            (bool ok, bytes memory ret) = address(m).staticcall(_mathCall(o));
            assertEq(ok, !o.reverts, string.concat(where, ": reverts"));
            if (!ok) continue;
            if (o.kind == 1) {
                uint256[2] memory y = abi.decode(ret, (uint256[2]));
                assertEq(y[0], o.out0, string.concat(where, ": get_y y"));
                assertEq(y[1], o.out1, string.concat(where, ": get_y K0"));
            } else {
                assertEq(abi.decode(ret, (uint256)), o.out0, where);
            }
        }
    }

    function _mathCall(V.MathOp memory o) internal pure returns (bytes memory) {
        uint256[2] memory x = [o.x0, o.x1];
        if (o.kind == 0) {
            if (o.arg == 0) return abi.encodeWithSignature("newton_D(uint256,uint256,uint256[2])", o.ANN, o.gamma, x);
            return abi.encodeWithSignature("newton_D(uint256,uint256,uint256[2],uint256)", o.ANN, o.gamma, x, o.arg);
        }
        if (o.kind == 1) return abi.encodeCall(ICurveTwocryptoMathNG.get_y, (o.ANN, o.gamma, x, o.arg, o.i));
        if (o.kind == 2) return abi.encodeCall(ICurveTwocryptoMathNG.newton_y, (o.ANN, o.gamma, x, o.arg, o.i));
        if (o.kind == 3) return abi.encodeCall(ICurveTwocryptoMathNG.get_p, (x, o.arg, [o.ANN, o.gamma]));
        // casting to 'int256' reinterprets the model's two's complement encoding of the exponent
        // forge-lint: disable-next-line(unsafe-typecast)
        return abi.encodeCall(ICurveTwocryptoMathNG.wad_exp, (int256(o.arg)));
    }

    // ---------------------------------------------------------------- replay

    function _run(uint256 index) internal {
        V.Case memory c = V.get(index);
        assertEq(c.name, c.name); // keeps the case's name in the trace
        address[2] memory coins = _coins(c.decimals[0], c.decimals[1], 1e15);
        uint256[8] memory p;
        for (uint256 k; k < 8; ++k) {
            p[k] = c.params[k];
        }
        ICurveTwocryptoNG pool = _pool(coins, p, c.initialPrice);

        assertEq(pool.add_liquidity([c.deposit[0], c.deposit[1]], 0), c.minted, "first deposit");

        for (uint256 k; k < c.ops.length; ++k) {
            _apply(pool, c.ops[k], k);
        }
    }

    function _apply(ICurveTwocryptoNG pool, V.Op memory op, uint256 k) internal {
        string memory where = string.concat("op ", vm.toString(k));
        if (op.kind == OP_SWAP || op.kind == OP_SWAP_RECEIVED) {
            _swap(pool, op, where);
        } else if (op.kind == OP_GET_DX) {
            assertEq(pool.get_dx(op.i, op.j, op.amount), op.expected, string.concat(where, ": get_dx"));
        } else if (op.kind == OP_ADD) {
            uint256[2] memory amounts = [op.amounts[0], op.amounts[1]];
            assertEq(pool.calc_token_amount(amounts, true), op.expected, string.concat(where, ": calc_token_amount"));
            assertEq(pool.add_liquidity(amounts, op.expected2), op.expected2, string.concat(where, ": add_liquidity"));
        } else if (op.kind == OP_CALC_WITHDRAW) {
            uint256[2] memory amounts = [op.amounts[0], op.amounts[1]];
            assertEq(pool.calc_token_amount(amounts, false), op.expected, string.concat(where, ": calc_token_amount"));
        } else if (op.kind == OP_REMOVE_ONE) {
            assertEq(pool.calc_withdraw_one_coin(op.amount, op.i), op.expected, string.concat(where, ": calc_withdraw"));
            assertEq(
                views.calc_withdraw_one_coin(op.amount, op.i, address(pool)),
                op.amounts[0],
                string.concat(where, ": views calc_withdraw_one_coin")
            );
            _paid(pool, op.i, pool.remove_liquidity_one_coin(op.amount, op.i, op.expected2), op.expected2, where);
        } else if (op.kind == OP_REMOVE_FIXED_OUT) {
            assertEq(
                pool.calc_withdraw_fixed_out(op.amount, op.i, op.amounts[0]),
                op.expected,
                string.concat(where, ": calc_withdraw_fixed_out")
            );
            _paid(
                pool,
                op.j,
                pool.remove_liquidity_fixed_out(op.amount, op.i, op.amounts[0], op.expected2),
                op.expected2,
                where
            );
        } else if (op.kind == OP_REMOVE) {
            uint256[2] memory paid = pool.remove_liquidity(op.amount, [op.amounts[0], op.amounts[1]]);
            assertEq(paid[0], op.amounts[0], string.concat(where, ": remove_liquidity 0"));
            assertEq(paid[1], op.amounts[1], string.concat(where, ": remove_liquidity 1"));
        } else if (op.kind == OP_WARP) {
            vm.warp(op.amount);
        } else if (op.kind == OP_RAMP) {
            pool.ramp_A_gamma(op.amounts[0], op.amounts[1], op.amounts[2]);
        } else if (op.kind == OP_STATE) {
            _state(pool, op.amounts, where);
        } else {
            revert("unknown op");
        }
    }

    function _swap(ICurveTwocryptoNG pool, V.Op memory op, string memory where) internal {
        assertEq(pool.get_dy(op.i, op.j, op.amount), op.expected, string.concat(where, ": get_dy"));
        if (op.kind == OP_SWAP_RECEIVED) assertTrue(TestERC20(pool.coins(op.i)).transfer(address(pool), op.amount));
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.TokenExchange(
            address(this), op.i, op.amount, op.j, op.expected2, op.amounts[0], op.amounts[1]
        );
        uint256 paid = op.kind == OP_SWAP
            ? pool.exchange(op.i, op.j, op.amount, op.expected2)
            : pool.exchange_received(op.i, op.j, op.amount, op.expected2);
        assertEq(paid, op.expected2, string.concat(where, ": exchange"));
    }

    function _paid(ICurveTwocryptoNG pool, uint256 coin, uint256 paid, uint256 expected, string memory where)
        internal
        view
    {
        assertEq(paid, expected, string.concat(where, ": paid"));
        assertEq(_balance(pool.coins(coin), address(pool)), pool.balances(coin), string.concat(where, ": holdings"));
    }

    /// @dev The state fields, in the model's STATE_FIELDS order.
    function _state(ICurveTwocryptoNG pool, uint256[] memory s, string memory where) internal view {
        assertEq(pool.price_scale(), s[0], string.concat(where, ": price_scale"));
        assertEq(pool.price_oracle(), s[1], string.concat(where, ": price_oracle"));
        assertEq(pool.last_prices(), s[2], string.concat(where, ": last_prices"));
        assertEq(pool.D(), s[3], string.concat(where, ": D"));
        assertEq(pool.virtual_price(), s[4], string.concat(where, ": virtual_price"));
        assertEq(pool.xcp_profit(), s[5], string.concat(where, ": xcp_profit"));
        assertEq(pool.xcp_profit_a(), s[6], string.concat(where, ": xcp_profit_a"));
        assertEq(pool.get_virtual_price(), s[7], string.concat(where, ": get_virtual_price"));
        assertEq(pool.lp_price(), s[8], string.concat(where, ": lp_price"));
        assertEq(pool.fee(), s[9], string.concat(where, ": fee"));
        assertEq(pool.totalSupply(), s[10], string.concat(where, ": totalSupply"));
        assertEq(pool.balances(0), s[11], string.concat(where, ": balances 0"));
        assertEq(pool.balances(1), s[12], string.concat(where, ": balances 1"));
        assertEq(pool.A(), s[13], string.concat(where, ": A"));
        assertEq(pool.gamma(), s[14], string.concat(where, ": gamma"));
        assertEq(pool.last_timestamp(), s[15], string.concat(where, ": last_timestamp"));
        assertEq(_balance(pool.coins(0), feeReceiver), s[16], string.concat(where, ": fee receiver 0"));
        assertEq(_balance(pool.coins(1), feeReceiver), s[17], string.concat(where, ": fee receiver 1"));
        // The pool holds what it accounts for.
        assertEq(_balance(pool.coins(0), address(pool)), s[11], string.concat(where, ": holdings 0"));
        assertEq(_balance(pool.coins(1), address(pool)), s[12], string.concat(where, ": holdings 1"));
    }
}
