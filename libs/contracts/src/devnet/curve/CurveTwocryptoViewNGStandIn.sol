// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// STAND-IN for Curve TwocryptoNG's views contract (curvefi/twocrypto-ng, contracts/main/TwocryptoView.vy at the
// repository's HEAD 0fcca0d, Vyper 0.4.1). Curve's contracts are Vyper and no installable package ships their bytecode,
// so the devnet runs this Solidity transliteration instead: the same external functions (each taking the pool as
// `swap`) and the same integer maths, to the wei. It is not Curve's code and is not audited; it exists only for the
// devnet. As on chain, the factory names one views contract (`views_implementation`) and its pools delegate get_dy,
// get_dx and calc_token_amount to it; it rebuilds the pool's state from the pool's getters (balances, price_scale, A,
// gamma, D, precisions, totalSupply; D recomputed from the balances during a ramp) and asks the pool for its fees
// (`fee_calc`, `calc_token_fee`).
//
// As in the Vyper: get_dy is exactly what the pool's exchange pays; get_dx is an estimate (five rounds of adding the
// fee to the output); calc_token_amount scales the amounts themselves (the pool the balances), so it may differ from
// add_liquidity by a few wei. calc_withdraw_one_coin and calc_fee_withdraw_one_coin here are the previous version's
// (a fee on D, and this contract's own `_fee`, the previous fee formula): the HEAD pool does not use them and computes
// calc_withdraw_one_coin itself, so they do not match what remove_liquidity_one_coin pays. Reverts: the Vyper's reason
// strings are kept; its arithmetic reverts are Solidity panics.

/// @notice The pool getters the views contract reads.
interface ICurveTwocryptoNGPoolLike {
    /// @notice 10 ** (18 - decimals) of each coin.
    function precisions() external view returns (uint256[2] memory);

    /// @notice The LP token supply.
    function totalSupply() external view returns (uint256);

    /// @notice The pool's balance of coin `i` by its own accounting.
    function balances(uint256 i) external view returns (uint256);

    /// @notice The price scale (a nonreentrant view).
    function price_scale() external view returns (uint256);

    /// @notice A * N**N * A_MULTIPLIER, interpolated during a ramp.
    function A() external view returns (uint256);

    /// @notice gamma, interpolated during a ramp.
    function gamma() external view returns (uint256);

    /// @notice The stored invariant.
    function D() external view returns (uint256);

    /// @notice When the current ramp ends.
    function future_A_gamma_time() external view returns (uint256);

    /// @notice The pool's math contract.
    function MATH() external view returns (address);

    /// @notice The swap fee at the scaled balances `xp`, 1e10 precision.
    function fee_calc(uint256[2] calldata xp) external view returns (uint256);

    /// @notice The add_liquidity fee of the scaled `amounts` at the scaled balances `xp`, 1e10 precision.
    function calc_token_fee(uint256[2] calldata amounts, uint256[2] calldata xp) external view returns (uint256);

    /// @notice mid_fee << 128 | out_fee << 64 | fee_gamma.
    function packed_fee_params() external view returns (uint256);
}

/// @notice The math contract calls the views contract makes.
interface ICurveTwocryptoNGMathViewLike {
    /// @notice The invariant of the scaled balances `x_unsorted`.
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted, uint256 K0_prev)
        external
        view
        returns (uint256);

    /// @notice The scaled balance of coin `i` at invariant `_D`, and K0 there.
    function get_y(uint256 _ANN, uint256 _gamma, uint256[2] calldata _x, uint256 _D, uint256 i)
        external
        view
        returns (uint256[2] memory);
}

/// @title CurveTwocryptoViewNGStandIn
/// @notice Devnet stand-in for TwocryptoNG's views contract (TwocryptoView.vy): quotes of a pool computed from its
/// getters (see the header of this file).
contract CurveTwocryptoViewNGStandIn {
    uint256 private constant N_COINS = 2;
    uint256 private constant WAD = 10 ** 18;
    uint256 private constant MAX_UINT64 = 2 ** 64 - 1;

    /// @dev The pool state the quotes start from (TwocryptoView._prep_calc).
    struct State {
        uint256[2] xp;
        uint256 D;
        uint256 tokenSupply;
        uint256 priceScale;
        uint256 A;
        uint256 gamma;
        uint256[2] precisions;
        ICurveTwocryptoNGMathViewLike math;
    }

    // ---------------------------------------------------------------- quotes

    /// @notice The output of swapping `dx` of coin `i` for coin `j` on `swap`, fee included.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @param swap The pool.
    /// @return dy The amount of coin `j`.
    function get_dy(uint256 i, uint256 j, uint256 dx, address swap) external view returns (uint256 dy) {
        uint256[2] memory xp;
        // dy = (get_y(x + dx) - y) * (1 - fee)
        (dy, xp) = _getDyNoFee(i, j, dx, swap);
        dy -= ICurveTwocryptoNGPoolLike(swap).fee_calc(xp) * dy / 10 ** 10;
    }

    /// @notice The input of coin `i` that buys `dy` of coin `j` on `swap` (an estimate: 5 rounds of adding the fee at
    /// the previous round's point to the output).
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dy The amount bought.
    /// @param swap The pool.
    /// @return dx The amount of coin `i`.
    function get_dx(uint256 i, uint256 j, uint256 dy, address swap) external view returns (uint256 dx) {
        uint256[2] memory xp;
        uint256 dyWithFee = dy;
        // for more precise dx (but never exact), increase num loops
        for (uint256 k; k < 5; ++k) {
            (dx, xp) = _getDxFee(i, j, dyWithFee, swap);
            uint256 feeDy = ICurveTwocryptoNGPoolLike(swap).fee_calc(xp) * dyWithFee / 10 ** 10;
            dyWithFee = dy + feeDy + 1;
        }
    }

    /// @notice The previous version's single-coin withdrawal quote (not what the HEAD pool pays: see the header).
    /// @param token_amount The LP tokens burnt.
    /// @param i The coin withdrawn.
    /// @param swap The pool.
    /// @return The amount of coin `i`.
    function calc_withdraw_one_coin(uint256 token_amount, uint256 i, address swap) external view returns (uint256) {
        (uint256 dy,) = _calcWithdrawOneCoin(token_amount, i, swap);
        return dy;
    }

    /// @notice The LP minted by depositing, or burnt by withdrawing, `amounts` on `swap`, fee included.
    /// @param amounts The amount of each coin.
    /// @param deposit True for a deposit, false for a withdrawal.
    /// @param swap The pool.
    /// @return dToken The LP tokens.
    function calc_token_amount(uint256[2] calldata amounts, bool deposit, address swap)
        external
        view
        returns (uint256 dToken)
    {
        uint256[2] memory amountsp;
        uint256[2] memory xp;
        (dToken, amountsp, xp) = _calcDTokenNoFee(amounts, deposit, swap);
        dToken -= ICurveTwocryptoNGPoolLike(swap).calc_token_fee(amountsp, xp) * dToken / 10 ** 10 + 1;
    }

    /// @notice The fee get_dy takes from the output, in coin `j`.
    /// @param i The index of the coin sold.
    /// @param j The index of the coin bought.
    /// @param dx The amount sold.
    /// @param swap The pool.
    /// @return The fee.
    function calc_fee_get_dy(uint256 i, uint256 j, uint256 dx, address swap) external view returns (uint256) {
        (uint256 dy, uint256[2] memory xp) = _getDyNoFee(i, j, dx, swap);
        return ICurveTwocryptoNGPoolLike(swap).fee_calc(xp) * dy / 10 ** 10;
    }

    /// @notice The previous version's single-coin withdrawal fee estimate.
    /// @param token_amount The LP tokens burnt.
    /// @param i The coin withdrawn.
    /// @param swap The pool.
    /// @return The fee.
    function calc_fee_withdraw_one_coin(uint256 token_amount, uint256 i, address swap) external view returns (uint256) {
        (, uint256 approxFee) = _calcWithdrawOneCoin(token_amount, i, swap);
        return approxFee;
    }

    /// @notice The LP fee calc_token_amount takes.
    /// @param amounts The amount of each coin.
    /// @param deposit True for a deposit, false for a withdrawal.
    /// @param swap The pool.
    /// @return The fee, in LP tokens.
    function calc_fee_token_amount(uint256[2] calldata amounts, bool deposit, address swap)
        external
        view
        returns (uint256)
    {
        (uint256 dToken, uint256[2] memory amountsp, uint256[2] memory xp) = _calcDTokenNoFee(amounts, deposit, swap);
        return ICurveTwocryptoNGPoolLike(swap).calc_token_fee(amountsp, xp) * dToken / 10 ** 10 + 1;
    }

    // ---------------------------------------------------------------- internals

    /// @dev TwocryptoView._prep_calc (with _calc_D_ramp).
    function _prepCalc(address swap) private view returns (State memory s) {
        ICurveTwocryptoNGPoolLike pool = ICurveTwocryptoNGPoolLike(swap);
        s.precisions = pool.precisions();
        s.tokenSupply = pool.totalSupply();
        s.xp[0] = pool.balances(0);
        s.xp[1] = pool.balances(1);
        s.priceScale = pool.price_scale();
        s.A = pool.A();
        s.gamma = pool.gamma();

        // _calc_D_ramp
        s.math = ICurveTwocryptoNGMathViewLike(pool.MATH());
        s.D = pool.D();
        // forge-lint: disable-next-line(block-timestamp)
        if (pool.future_A_gamma_time() > block.timestamp) {
            uint256[2] memory xp = [s.xp[0] * s.precisions[0], s.xp[1] * s.priceScale * s.precisions[1] / WAD];
            s.D = s.math.newton_D(s.A, s.gamma, xp, 0);
        }
    }

    /// @dev TwocryptoView._get_dy_nofee: the output without the fee (less 1 wei), and the scaled balances after.
    function _getDyNoFee(uint256 i, uint256 j, uint256 dx, address swap)
        private
        view
        returns (uint256 dy, uint256[2] memory xp)
    {
        require(i != j && i < N_COINS && j < N_COINS, "coin index out of range");
        require(dx > 0, "do not exchange 0 coins");

        State memory s = _prepCalc(swap);

        // adjust xp with input dx
        s.xp[i] += dx;
        xp = [s.xp[0] * s.precisions[0], s.xp[1] * s.priceScale * s.precisions[1] / WAD];

        uint256[2] memory yOut = s.math.get_y(s.A, s.gamma, xp, s.D, j);
        dy = xp[j] - yOut[0] - 1;
        xp[j] = yOut[0];
        if (j > 0) dy = dy * WAD / s.priceScale;
        dy /= s.precisions[j];
    }

    /// @dev TwocryptoView._get_dx_fee: the input for an output `dy` that already includes the fee.
    function _getDxFee(uint256 i, uint256 j, uint256 dy, address swap)
        private
        view
        returns (uint256 dx, uint256[2] memory xp)
    {
        require(i != j && i < N_COINS && j < N_COINS, "coin index out of range");
        require(dy > 0, "do not exchange out 0 coins");

        State memory s = _prepCalc(swap);

        // adjust xp with output dy. dy contains fee element, which we handle later
        s.xp[j] -= dy;
        xp = [s.xp[0] * s.precisions[0], s.xp[1] * s.priceScale * s.precisions[1] / WAD];

        uint256[2] memory xOut = s.math.get_y(s.A, s.gamma, xp, s.D, i);
        dx = xOut[0] - xp[i];
        xp[i] = xOut[0];
        if (i > 0) dx = dx * WAD / s.priceScale;
        dx /= s.precisions[i];
    }

    /// @dev TwocryptoView._calc_dtoken_nofee: the LP for a deposit or withdrawal without the fee, the scaled amounts
    /// and the scaled balances after.
    function _calcDTokenNoFee(uint256[2] calldata amounts, bool deposit, address swap)
        private
        view
        returns (uint256 dToken, uint256[2] memory amountsp, uint256[2] memory xp)
    {
        State memory s = _prepCalc(swap);

        for (uint256 k; k < N_COINS; ++k) {
            if (deposit) s.xp[k] += amounts[k];
            else s.xp[k] -= amounts[k];
        }
        xp = [s.xp[0] * s.precisions[0], s.xp[1] * s.priceScale * s.precisions[1] / WAD];
        amountsp = [amounts[0] * s.precisions[0], amounts[1] * s.priceScale * s.precisions[1] / WAD];

        uint256 newD = s.math.newton_D(s.A, s.gamma, xp, 0);
        dToken = s.tokenSupply * newD / s.D;
        if (deposit) dToken -= s.tokenSupply;
        else dToken = s.tokenSupply - dToken;
    }

    /// @dev TwocryptoView._calc_withdraw_one_coin: the previous version's single-coin withdrawal (a fee on D).
    function _calcWithdrawOneCoin(uint256 tokenAmount, uint256 i, address swap)
        private
        view
        returns (uint256 dy, uint256 approxFee)
    {
        ICurveTwocryptoNGPoolLike pool = ICurveTwocryptoNGPoolLike(swap);
        uint256 tokenSupply = pool.totalSupply();
        require(tokenAmount <= tokenSupply, "token amount more than supply");
        require(i < N_COINS, "coin out of range");

        State memory s;
        s.math = ICurveTwocryptoNGMathViewLike(pool.MATH());
        uint256[2] memory xx = [pool.balances(0), pool.balances(1)];
        s.precisions = pool.precisions();
        s.A = pool.A();
        s.gamma = pool.gamma();

        // (s.priceScale holds price_scale_i: the price scale of coin i times its precision)
        s.priceScale = pool.price_scale() * s.precisions[1];
        s.xp[0] = xx[0] * s.precisions[0];
        {
            uint256 x1 = xx[1] * s.priceScale;
            unchecked {
                s.xp[1] = x1 / WAD;
            }
        }
        if (i == 0) s.priceScale = WAD * s.precisions[0];

        // forge-lint: disable-next-line(block-timestamp)
        if (pool.future_A_gamma_time() > block.timestamp) s.D = s.math.newton_D(s.A, s.gamma, s.xp, 0);
        else s.D = pool.D();

        s.tokenSupply = tokenSupply;
        return _withdrawOneCoin(s, tokenAmount, i, xx[i], pool.packed_fee_params());
    }

    /// @dev The second half of _calc_withdraw_one_coin: the fee on D, then y at the reduced D.
    function _withdrawOneCoin(State memory s, uint256 tokenAmount, uint256 i, uint256 xxi, uint256 packedFeeParams)
        private
        view
        returns (uint256 dy, uint256 approxFee)
    {
        uint256 fee_ = _fee(s.xp, packedFeeParams);
        uint256 dD = tokenAmount * s.D / s.tokenSupply;
        uint256 DFee = fee_ * dD / (2 * 10 ** 10) + 1;
        approxFee = N_COINS * DFee * xxi / s.D;

        uint256 newD = s.D - (dD - DFee);
        uint256[2] memory yOut = s.math.get_y(s.A, s.gamma, s.xp, newD, i);
        dy = (s.xp[i] - yOut[0]) * WAD / s.priceScale;
    }

    /// @dev TwocryptoView._fee: the previous fee formula, f = fee_gamma / (fee_gamma + 1 - B).
    function _fee(uint256[2] memory xp, uint256 packedFeeParams) private pure returns (uint256) {
        uint256 f = xp[0] + xp[1];
        f = (packedFeeParams & MAX_UINT64) * 10 ** 18
            / ((packedFeeParams & MAX_UINT64) + 10 ** 18 - (10 ** 18 * N_COINS ** N_COINS) * xp[0] / f * xp[1] / f);
        return (((packedFeeParams >> 128) & MAX_UINT64) * f + ((packedFeeParams >> 64) & MAX_UINT64) * (10 ** 18 - f))
            / 10 ** 18;
    }
}
