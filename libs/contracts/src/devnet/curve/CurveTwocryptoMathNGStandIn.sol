// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

// STAND-IN for Curve TwocryptoNG's math contract (curvefi/twocrypto-ng, contracts/main/TwocryptoMath.vy at the
// repository's HEAD 0fcca0d, "v2.1.0", Vyper 0.4.1, with snekmate 0.1.1's math._wad_exp). Curve's contracts are Vyper
// and no installable package ships their bytecode, so the devnet runs this Solidity transliteration instead: the same
// external functions (names, selectors, return shapes) and the same integer maths, to the wei. It is not Curve's code
// and is not audited; it exists only for the devnet. As on chain, the factory holds one math contract
// (`math_implementation`) and passes it to every pool it deploys, which calls it for all its invariant maths.
//
// Transliterated: newton_D (Newton's method for the invariant, with K0_prev as the initial guess when given), get_y
// (the analytical solution of the cubic for y, falling back to newton_y when its discriminant is not positive),
// newton_y, get_p (the state price dx/dy at a point of the curve, before the price_scale multiplication), wad_exp, and
// the cube root and log2 they use. Vyper's checked arithmetic is Solidity's (overflow and division by zero revert:
// Vyper with empty data, Solidity with a Panic), Vyper's unsafe_* builtins are `unchecked` blocks, and where Vyper's
// unsafe_div may meet a zero divisor it returns 0 here too (`_div0`, `_sdiv0`). Vyper's `convert` of a negative int256
// to uint256 (or of a uint256 above 2**255 - 1 to int256) reverts: so does `_toUint` (`_toInt`). Vyper's signed `//`
// truncates towards zero, as Solidity's `/` does. The reason strings are the Vyper's.

/// @title CurveTwocryptoMathNGStandIn
/// @notice Devnet stand-in for TwocryptoNG's math contract (TwocryptoMath.vy v2.1.0): the 2-coin cryptoswap invariant's
/// solvers, with the Vyper's external interface and integer maths (see the header of this file).
contract CurveTwocryptoMathNGStandIn {
    /// @notice The number of coins of the pools this math serves.
    uint256 public constant N_COINS = 2;

    /// @notice The TwocryptoMath version this contract stands in for.
    string public constant version = "v2.1.0";

    // ---------------------------------------------------------------- constants (constants.vy)

    uint256 private constant MIN_GAMMA = 10 ** 10;
    uint256 private constant MAX_GAMMA_SMALL = 2 * 10 ** 16;
    uint256 private constant MAX_GAMMA = 199 * 10 ** 15;
    uint256 private constant A_MULTIPLIER = 10000;
    uint256 private constant MIN_A = N_COINS ** N_COINS * A_MULTIPLIER / 10;
    uint256 private constant MAX_A = N_COINS ** N_COINS * A_MULTIPLIER * 1000;

    /// @dev _cbrt's thresholds: (2**256 - 1) / 10**36 and that times 10**18.
    uint256 private constant CBRT_LIMIT_LOW = 115792089237316195423570985008687907853269;
    uint256 private constant CBRT_LIMIT_HIGH = 115792089237316195423570985008687907853269 * 10 ** 18;

    /// @dev The cubic's coefficients and discriminant terms in get_y (kept in memory to stay within the stack).
    struct Cubic {
        int256 a;
        int256 b;
        int256 c;
        int256 d;
        int256 delta0;
        int256 delta1;
    }

    // ---------------------------------------------------------------- external maths

    /// @notice The invariant D of the scaled balances `x_unsorted` (Newton's method from the constant-product guess).
    /// @param ANN A * N**N * A_MULTIPLIER (the pool's `A()`).
    /// @param gamma The pool's gamma.
    /// @param x_unsorted The balances, scaled to 18 decimals and (coin 1) by price_scale.
    /// @return D.
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted) external pure returns (uint256) {
        return _newtonD(ANN, gamma, x_unsorted, 0);
    }

    /// @notice newton_D starting from the guess K0_prev gives (get_y's second output; 0 for the constant-product
    /// guess).
    /// @param ANN A * N**N * A_MULTIPLIER.
    /// @param gamma The pool's gamma.
    /// @param x_unsorted The scaled balances.
    /// @param K0_prev K0 at the previous point, 1e18 precision, or 0.
    /// @return D.
    function newton_D(uint256 ANN, uint256 gamma, uint256[2] calldata x_unsorted, uint256 K0_prev)
        external
        pure
        returns (uint256)
    {
        return _newtonD(ANN, gamma, x_unsorted, K0_prev);
    }

    /// @notice The scaled balance of coin `i` that keeps the invariant at `_D` given the other balance, solved
    /// analytically (Newton's method when the cubic's discriminant is not positive).
    /// @param _ANN A * N**N * A_MULTIPLIER.
    /// @param _gamma The pool's gamma.
    /// @param _x The scaled balances (only x[1 - i] is read).
    /// @param _D The invariant.
    /// @param i The coin solved for.
    /// @return The balance y and K0 at the new point (0 when Newton's method answered).
    function get_y(uint256 _ANN, uint256 _gamma, uint256[2] memory _x, uint256 _D, uint256 i)
        public
        pure
        returns (uint256[2] memory)
    {
        uint256 limMul = _checkParams(_ANN, _gamma, _D);
        Cubic memory q = _cubic(_ANN, _gamma, _x, _D, i, _toInt(limMul));
        _scaleDown(q);

        // sqrt_arg: int256 = delta1**2 + 4*delta0**2/b*delta0
        int256 sqrtArg = _sqrtArg(q.delta0, q.delta1, q.b);
        if (sqrtArg <= 0) {
            return [_newtonY(_ANN, _gamma, _x, _D, i, limMul), uint256(0)];
        }
        // casting to 'uint256' is safe because sqrtArg > 0
        // forge-lint: disable-next-line(unsafe-typecast)
        int256 sqrtVal = _toInt(Math.sqrt(uint256(sqrtArg)));

        int256 bCbrt;
        if (q.b > 0) bCbrt = _toInt(_cbrt(uint256(q.b)));
        else bCbrt = -_toInt(_cbrt(_toUint(-q.b)));

        int256 secondCbrt;
        if (q.delta1 > 0) {
            int256 sum;
            unchecked {
                sum = q.delta1 + sqrtVal;
            }
            secondCbrt = _toInt(_cbrt(_toUint(sum) / 2));
        } else {
            int256 diff;
            unchecked {
                diff = sqrtVal - q.delta1;
            }
            secondCbrt = -_toInt(_cbrt(_toUint(diff) / 2));
        }

        return _root(q, bCbrt, secondCbrt, _D, _x[1 - i], limMul);
    }

    /// @notice y by Newton's method only (the fallback of get_y), with get_y's safety checks.
    /// @param ANN A * N**N * A_MULTIPLIER.
    /// @param gamma The pool's gamma.
    /// @param x The scaled balances (only x[1 - i] is read).
    /// @param D The invariant.
    /// @param i The coin solved for.
    /// @return y.
    function newton_y(uint256 ANN, uint256 gamma, uint256[2] calldata x, uint256 D, uint256 i)
        external
        pure
        returns (uint256)
    {
        uint256 limMul = _checkParams(ANN, gamma, D);
        uint256 y = _newtonY(ANN, gamma, x, D, i, limMul);
        uint256 frac = y * 10 ** 18 / D;
        require(frac >= _div0(10 ** 36 / N_COINS, limMul) && frac <= _div0(limMul, N_COINS), "unsafe value for y");
        return y;
    }

    /// @notice The state price dx/dy (coin 0 per coin 1 in scaled units) at the point `_xp` of the curve: multiply by
    /// price_scale / 1e18 for the price in coin units.
    /// @param _xp The scaled balances.
    /// @param _D The invariant at `_xp`.
    /// @param _A_gamma A and gamma.
    /// @return The price, 1e18 precision.
    function get_p(uint256[2] calldata _xp, uint256 _D, uint256[2] calldata _A_gamma) external pure returns (uint256) {
        require(_D > 10 ** 17 - 1 && _D < 10 ** 15 * 10 ** 18 + 1, "unsafe D values");

        // K0 = P * N**N / D**N, 1e36 precision.
        uint256 K0 = _checkedK0(_xp, _D);

        // GK0 = 2 * K0**3 / 1e72 + (gamma + 1e18)**2 - K0**2 / 1e36 * (2 * gamma + 3e18) / 1e18, 1e36 precision.
        uint256 gamma = _A_gamma[1];
        uint256 GK0;
        {
            uint256 t = _checked2KK(K0) * K0;
            uint256 g1;
            uint256 k2;
            uint256 g2;
            unchecked {
                t = t / 10 ** 36;
                g1 = (gamma + 10 ** 18) * (gamma + 10 ** 18);
                k2 = (K0 * K0) / 10 ** 36;
                g2 = 2 * gamma + 3 * 10 ** 18;
            }
            uint256 t4 = k2 * g2;
            unchecked {
                t4 = t4 / 10 ** 18;
            }
            GK0 = t + g1 - t4;
        }

        uint256 NNAG2;
        unchecked {
            NNAG2 = (_A_gamma[0] * (gamma * gamma)) / A_MULTIPLIER;
        }

        uint256 denominator = GK0 + _mulDivTerm(NNAG2, _xp[0], _D, K0);
        uint256 numerator = _xp[0] * (GK0 + _mulDivTerm(NNAG2, _xp[1], _D, K0)) / _xp[1] * 10 ** 18;
        return _div0(numerator, denominator);
    }

    /// @notice e**(x / 1e18) * 1e18 (snekmate's wad_exp): 0 for x <= ~-41.45e18, reverting from ~135.3e18 up.
    /// @param x The exponent, 1e18 precision.
    /// @return The result, 1e18 precision.
    function wad_exp(int256 x) external pure returns (uint256) {
        return _toUint(_wadExp(x));
    }

    // ---------------------------------------------------------------- newton_D

    function _newtonD(uint256 ANN, uint256 gamma, uint256[2] calldata xUnsorted, uint256 K0Prev)
        private
        pure
        returns (uint256 D)
    {
        require(ANN > MIN_A - 1 && ANN < MAX_A + 1, "unsafe values A");
        require(gamma > MIN_GAMMA - 1 && gamma < MAX_GAMMA + 1, "unsafe values gamma");

        // Initial value of invariant D is that for constant-product invariant
        uint256[2] memory x = [xUnsorted[0], xUnsorted[1]];
        if (x[0] < x[1]) x = [xUnsorted[1], xUnsorted[0]];

        require(x[0] > 10 ** 9 - 1 && x[0] < 10 ** 15 * 10 ** 18 + 1, "unsafe values x[0]");
        require(x[1] * 10 ** 18 / x[0] > 10 ** 14 - 1, "unsafe values x[i] (input)");

        uint256 S;
        unchecked {
            S = x[0] + x[1]; // can unsafe add here because we checked x[0] bounds
        }

        if (K0Prev == 0) {
            uint256 p;
            unchecked {
                p = x[0] * x[1];
            }
            D = N_COINS * Math.sqrt(p);
        } else {
            // D = isqrt(x[0] * x[1] * 4 / K0_prev * 10**18)
            uint256 p;
            unchecked {
                // The Vyper's rounding, kept.
                // forge-lint: disable-next-line(divide-before-multiply)
                p = (4 * x[0] * x[1] / K0Prev) * 10 ** 18;
            }
            D = Math.sqrt(p);
            if (S < D) D = S;
        }

        uint256 g1k0Base = gamma + 10 ** 18;

        for (uint256 k; k < 255; ++k) {
            uint256 DPrev = D;
            require(D > 0, "D==0");
            uint256 K0 = _k0(x, D);
            (uint256 mul1, uint256 mul2) = _newtonDMuls(ANN, gamma, g1k0Base, K0, D);

            // neg_fprime = (S + S * mul2 / 1e18) + mul1 * N_COINS / K0 - mul2 * D / 1e18
            uint256 negFprime;
            {
                uint256 sMul2 = S * mul2;
                uint256 mul2D = mul2 * D;
                unchecked {
                    sMul2 = sMul2 / 10 ** 18;
                    mul2D = mul2D / 10 ** 18;
                }
                negFprime = (S + sMul2) + mul1 * N_COINS / K0 - mul2D;
            }

            // D -= f / fprime
            uint256 DPlus = D * (negFprime + S) / negFprime;
            uint256 DMinus = D * D;
            unchecked {
                DMinus = DMinus / negFprime;
            }
            uint256 corr;
            {
                uint256 m;
                unchecked {
                    m = mul1 / negFprime;
                }
                m = D * m;
                unchecked {
                    m = m / 10 ** 18;
                }
                if (10 ** 18 > K0) {
                    unchecked {
                        corr = 10 ** 18 - K0;
                    }
                } else {
                    unchecked {
                        corr = K0 - 10 ** 18;
                    }
                }
                corr = m * corr;
                unchecked {
                    corr = corr / K0;
                }
            }
            if (10 ** 18 > K0) DMinus += corr;
            else DMinus -= corr;

            unchecked {
                if (DPlus > DMinus) D = DPlus - DMinus;
                else D = (DMinus - DPlus) / 2;
            }

            uint256 diff;
            unchecked {
                diff = D > DPrev ? D - DPrev : DPrev - D;
            }
            if (diff * 10 ** 14 < Math.max(10 ** 16, D)) {
                // Could reduce precision for gas efficiency here
                for (uint256 n; n < 2; ++n) {
                    uint256 frac = x[n] * 10 ** 18 / D;
                    require(frac > 10 ** 16 / N_COINS - 1 && frac < 10 ** 20 / N_COINS + 1, "unsafe values x[i]");
                }
                return D;
            }
        }
        revert("Did not converge");
    }

    /// @dev K0 = 4e18 * x0 / D * x1 / D (the products checked, the divisions unsafe, as in the Vyper).
    function _k0(uint256[2] memory x, uint256 D) private pure returns (uint256 K0) {
        K0 = (10 ** 18 * N_COINS ** 2) * x[0];
        unchecked {
            K0 = K0 / D;
        }
        K0 = K0 * x[1];
        unchecked {
            K0 = K0 / D;
        }
    }

    /// @dev newton_D's mul1 (D / (A * N**N) * _g1k0**2 / gamma**2) and mul2 (2 * N * K0 / _g1k0).
    function _newtonDMuls(uint256 ANN, uint256 gamma, uint256 g1k0Base, uint256 K0, uint256 D)
        private
        pure
        returns (uint256 mul1, uint256 mul2)
    {
        uint256 g1k0;
        unchecked {
            g1k0 = g1k0Base > K0 ? g1k0Base - K0 + 1 : K0 - g1k0Base + 1;
        }
        mul1 = 10 ** 18 * D;
        unchecked {
            mul1 = mul1 / gamma;
        }
        mul1 = mul1 * g1k0;
        unchecked {
            mul1 = mul1 / gamma;
        }
        mul1 = mul1 * g1k0 * A_MULTIPLIER;
        unchecked {
            mul1 = mul1 / ANN;
        }
        mul2 = ((2 * 10 ** 18) * N_COINS) * K0;
        unchecked {
            mul2 = mul2 / g1k0;
        }
    }

    // ---------------------------------------------------------------- get_y / newton_y

    /// @dev get_y's and newton_y's safety checks; returns lim_mul (100e18, less for a large gamma).
    function _checkParams(uint256 ANN, uint256 gamma, uint256 D) private pure returns (uint256 limMul) {
        require(ANN > MIN_A - 1 && ANN < MAX_A + 1, "unsafe values A");
        require(gamma > MIN_GAMMA - 1 && gamma < MAX_GAMMA + 1, "unsafe values gamma");
        require(D > 10 ** 17 - 1 && D < 10 ** 15 * 10 ** 18 + 1, "unsafe values D");
        limMul = 100 * 10 ** 18; // 100.0
        if (gamma > MAX_GAMMA_SMALL) {
            unchecked {
                limMul = (limMul * MAX_GAMMA_SMALL) / gamma; // smaller than 100.0
            }
        }
    }

    /// @dev get_y up to the first delta0 / delta1: the cubic a*y**3 + b*y**2 + c*y + d (in K0 units).
    function _cubic(uint256 _ANN, uint256 _gamma, uint256[2] memory _x, uint256 _D, uint256 i, int256 limMulSigned)
        private
        pure
        returns (Cubic memory q)
    {
        int256 ANN = _toInt(_ANN);
        int256 gamma = _toInt(_gamma);
        int256 D = _toInt(_D);
        int256 xj = _toInt(_x[1 - i]);
        int256 gamma2;
        unchecked {
            gamma2 = gamma * gamma;
        }

        // savediv by x_j done here (y = D**2 / (x_j * N_COINS**2), only its reverts matter):
        _consume((D * D) / (xj * 4));

        // K0_i = (10**18 * N_COINS) * x_j / D
        int256 K0i = (10 ** 18 * 2) * xj;
        unchecked {
            K0i = K0i / D;
        }
        int256 lowK0i;
        unchecked {
            lowK0i = 10 ** 36 / limMulSigned;
        }
        require(K0i >= lowK0i && K0i <= limMulSigned, "unsafe values x[i]");

        int256 annGamma2 = ANN * gamma2;

        q.a = 10 ** 32; // a = 10**36 / N_COINS**2

        // b = ANN*D*gamma2/4/10000/x_j/10**4 - 10**32*3 - 2*gamma*10**14
        int256 twoGamma;
        unchecked {
            twoGamma = 2 * gamma * 10 ** 14;
        }
        q.b = D * annGamma2 / 400000000 / xj - (3 * 10 ** 32) - twoGamma;

        // c = 10**32*3 + 4*gamma*10**14 + gamma2/10**4 + 4*ANN*gamma2*x_j/D/10000/4/10**4 - 4*ANN*gamma2/10000/4/10**4
        {
            int256 t0;
            int256 t1;
            int256 t2;
            int256 t4;
            unchecked {
                t0 = 10 ** 32 * 3;
                t1 = 4 * gamma * 10 ** 14;
                t2 = gamma2 / 10 ** 4;
                t4 = (4 * annGamma2) / 400000000;
            }
            int256 t3 = t4 * xj;
            unchecked {
                t3 = t3 / D;
            }
            q.c = t0 + t1 + t2 + t3 - t4;
        }

        // d = -(10**18+gamma)**2 / 10**4
        {
            int256 g1;
            unchecked {
                g1 = 10 ** 18 + gamma;
            }
            int256 g1sq = g1 * g1;
            unchecked {
                g1sq = g1sq / 10 ** 4;
            }
            q.d = -g1sq;
        }

        // delta0 = 3*a*c/b - b
        q.delta0 = 3 * q.a * q.c / q.b - q.b;
        // delta1 = 9*a*c/b - 2*b - 27*a**2/b*d/b
        q.delta1 = 3 * q.delta0 + q.b - 27 * (q.a * q.a) / q.b * q.d / q.b;
    }

    /// @dev get_y's rescaling of the cubic by a power of ten picked from min(|delta0|, |delta1|, a), then delta0 and
    /// delta1 again.
    function _scaleDown(Cubic memory q) private pure {
        int256 divider = 1;
        int256 threshold = _min(_min(_abs(q.delta0), _abs(q.delta1)), q.a);
        if (threshold > 10 ** 48) divider = 10 ** 30;
        else if (threshold > 10 ** 46) divider = 10 ** 28;
        else if (threshold > 10 ** 44) divider = 10 ** 26;
        else if (threshold > 10 ** 42) divider = 10 ** 24;
        else if (threshold > 10 ** 40) divider = 10 ** 22;
        else if (threshold > 10 ** 38) divider = 10 ** 20;
        else if (threshold > 10 ** 36) divider = 10 ** 18;
        else if (threshold > 10 ** 34) divider = 10 ** 16;
        else if (threshold > 10 ** 32) divider = 10 ** 14;
        else if (threshold > 10 ** 30) divider = 10 ** 12;
        else if (threshold > 10 ** 28) divider = 10 ** 10;
        else if (threshold > 10 ** 26) divider = 10 ** 8;
        else if (threshold > 10 ** 24) divider = 10 ** 6;
        else if (threshold > 10 ** 20) divider = 10 ** 2;

        unchecked {
            q.a = q.a / divider;
            q.b = q.b / divider;
            q.c = q.c / divider;
            q.d = q.d / divider;
        }

        // delta0 = 3*a*c/b - b: here we can do more unsafe ops now:
        int256 t;
        unchecked {
            t = _sdiv0(3 * q.a * q.c, q.b);
        }
        q.delta0 = t - q.b;

        // delta1 = 9*a*c/b - 2*b - 27*a**2/b*d/b
        int256 a2 = q.a * q.a;
        int256 u;
        unchecked {
            u = _sdiv0(_sdiv0(27 * a2, q.b) * q.d, q.b);
        }
        q.delta1 = 3 * q.delta0 + q.b - u;
    }

    /// @dev sqrt_arg = delta1**2 + unsafe_mul(unsafe_div(4*delta0**2, b), delta0): the squares and the sum checked.
    function _sqrtArg(int256 delta0, int256 delta1, int256 b) private pure returns (int256) {
        int256 fourD02 = 4 * (delta0 * delta0);
        int256 t;
        unchecked {
            t = _sdiv0(fourD02, b) * delta0;
        }
        return delta1 * delta1 + t;
    }

    /// @dev get_y's last step: C1, the root K0 and y = D**2 / x_j * root / 4 / 1e18, with the final check on y / D.
    function _root(Cubic memory q, int256 bCbrt, int256 secondCbrt, uint256 _D, uint256 _xj, uint256 limMul)
        private
        pure
        returns (uint256[2] memory yOut)
    {
        // C1 = b_cbrt**2/10**18*second_cbrt/10**18
        int256 bc2 = bCbrt * bCbrt;
        int256 C1;
        unchecked {
            // The Vyper's rounding, kept.
            // forge-lint: disable-next-line(divide-before-multiply)
            C1 = ((bc2 / 10 ** 18) * secondCbrt) / 10 ** 18;
        }

        // root = (10**18*C1 - 10**18*b - 10**18*b/C1*delta0)/(3*a), keep 2 safe ops here.
        int256 e18C1;
        int256 e18b;
        int256 threeA;
        unchecked {
            e18C1 = 10 ** 18 * C1;
            e18b = 10 ** 18 * q.b;
            threeA = 3 * q.a;
        }
        int256 root = (e18C1 - e18b - e18b / C1 * q.delta0) / threeA;

        // y = D**2/x_j*root/4/10**18
        int256 D = _toInt(_D);
        int256 D2 = D * D;
        int256 y;
        unchecked {
            // The Vyper's rounding, kept.
            // forge-lint: disable-next-line(divide-before-multiply)
            y = ((D2 / _toInt(_xj)) * root / 4) / 10 ** 18;
        }
        yOut[0] = _toUint(y);
        yOut[1] = _toUint(root);

        uint256 frac = yOut[0] * 10 ** 18;
        unchecked {
            frac = frac / _D;
        }
        require(frac >= _div0(10 ** 36 / N_COINS, limMul) && frac <= _div0(limMul, N_COINS), "unsafe value for y");
    }

    /// @dev TwocryptoMath._newton_y: x[i] given the other balance and D, by Newton's method.
    function _newtonY(uint256 ANN, uint256 gamma, uint256[2] memory x, uint256 D, uint256 i, uint256 limMul)
        private
        pure
        returns (uint256 y)
    {
        uint256 xj = x[1 - i];
        y = D * D / (xj * N_COINS ** 2);
        uint256 K0i = (10 ** 18 * N_COINS) * xj / D;
        require(K0i >= _div0(10 ** 36, limMul) && K0i <= limMul, "unsafe values x[i]");

        uint256 convergenceLimit = Math.max(Math.max(xj / 10 ** 14, D / 10 ** 14), 100);

        for (uint256 k; k < 255; ++k) {
            uint256 yPrev = y;
            bool skipCheck;
            (y, skipCheck) = _newtonYStep(ANN, gamma, D, xj, K0i, y);
            if (skipCheck) continue;

            uint256 diff = y > yPrev ? y - yPrev : yPrev - y;
            if (diff < Math.max(convergenceLimit, y / 10 ** 14)) return y;
        }
        revert("Did not converge");
    }

    /// @dev One round of _newton_y's loop; `skipCheck` when the Vyper `continue`s (halving y without the convergence
    /// check).
    function _newtonYStep(uint256 ANN, uint256 gamma, uint256 D, uint256 xj, uint256 K0i, uint256 y)
        private
        pure
        returns (uint256, bool skipCheck)
    {
        uint256 K0 = K0i * y * N_COINS / D;
        uint256 S = xj + y;

        uint256 g1k0 = gamma + 10 ** 18;
        if (g1k0 > K0) g1k0 = g1k0 - K0 + 1;
        else g1k0 = K0 - g1k0 + 1;

        // D / (A * N**N) * _g1k0**2 / gamma**2
        uint256 mul1 = 10 ** 18 * D / gamma * g1k0 / gamma * g1k0 * A_MULTIPLIER / ANN;
        // 2*K0 / _g1k0
        uint256 mul2 = 10 ** 18 + (2 * 10 ** 18) * K0 / g1k0;

        return _newtonYUpdate(y, S, D, K0, mul1, mul2);
    }

    /// @dev The Newton update of _newton_y's loop from its mul1 and mul2.
    function _newtonYUpdate(uint256 y, uint256 S, uint256 D, uint256 K0, uint256 mul1, uint256 mul2)
        private
        pure
        returns (uint256, bool skipCheck)
    {
        uint256 yfprime = 10 ** 18 * y + S * mul2 + mul1;
        uint256 dyfprime = D * mul2;
        if (yfprime < dyfprime) return (y / 2, true);
        yfprime -= dyfprime;
        uint256 fprime = yfprime / y;

        // y -= f / f_prime;  y = (y * fprime - f) / fprime
        uint256 yMinus = mul1 / fprime;
        uint256 yPlus = (yfprime + 10 ** 18 * D) / fprime + yMinus * 10 ** 18 / K0;
        yMinus += 10 ** 18 * S / fprime;

        if (yPlus < yMinus) return (y / 2, false);
        return (yPlus - yMinus, false);
    }

    // ---------------------------------------------------------------- get_p helpers

    /// @dev unsafe_div(unsafe_div(4 * _xp[0] * _xp[1], _D) * 10**36, _D), the products checked.
    function _checkedK0(uint256[2] calldata xp, uint256 D) private pure returns (uint256 K0) {
        K0 = 4 * xp[0] * xp[1];
        unchecked {
            K0 = K0 / D;
        }
        K0 = K0 * 10 ** 36;
        unchecked {
            K0 = K0 / D;
        }
    }

    /// @dev unsafe_div(2 * K0 * K0, 10**36), the products checked.
    function _checked2KK(uint256 K0) private pure returns (uint256 t) {
        t = 2 * K0 * K0;
        unchecked {
            t = t / 10 ** 36;
        }
    }

    /// @dev unsafe_div(unsafe_div(NNAG2 * x, D) * K0, 10**36), the products checked.
    function _mulDivTerm(uint256 NNAG2, uint256 x, uint256 D, uint256 K0) private pure returns (uint256 t) {
        t = NNAG2 * x;
        unchecked {
            t = t / D;
        }
        t = t * K0;
        unchecked {
            t = t / 10 ** 36;
        }
    }

    // ---------------------------------------------------------------- cube root, exp

    /// @dev TwocryptoMath._cbrt: the cube root of x, 1e18 precision (7 unrolled Newton steps from a log2 guess).
    function _cbrt(uint256 x) private pure returns (uint256 a) {
        uint256 xx;
        unchecked {
            if (x >= CBRT_LIMIT_HIGH) xx = x;
            else if (x >= CBRT_LIMIT_LOW) xx = x * 10 ** 18;
            else xx = x * 10 ** 36;
        }

        uint256 log2x = Math.log2(xx);

        // initial_guess = 2 ** pow * 1260 ** remainder // 1000 ** remainder
        uint256 remainder = log2x % 3;
        unchecked {
            a = (2 ** (log2x / 3) * 1260 ** remainder) / 1000 ** remainder;

            // 7 Newton-Raphson iterations
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;
            a = (2 * a + _div0(xx, a * a)) / 3;

            if (x >= CBRT_LIMIT_HIGH) a = a * 10 ** 12;
            else if (x >= CBRT_LIMIT_LOW) a = a * 10 ** 6;
        }
    }

    /// @dev snekmate 0.1.1's math._wad_exp (Remco Bloemen's rational approximation).
    function _wadExp(int256 x) private pure returns (int256) {
        // If the result is `< 1`, we return zero.
        if (x <= -41_446_531_673_892_822_313) return 0;
        require(x < 135_305_999_368_893_231_589, "math: wad_exp overflow");

        unchecked {
            // Convert to "(-42, 136) * 2**96": a multiplication with "1e18 / 2**96 = 5**18 / 2**78".
            x = (x << 78) / int256(5 ** 18);

            // Reduce the range of `x` to "(-1/2 ln 2, 1/2 ln 2) * 2**96": "exp(x) = exp(x') * 2**k".
            int256 k = ((x << 96) / 54_916_777_467_707_473_351_141_471_128 + 2 ** 95) >> 96;
            x = x - k * 54_916_777_467_707_473_351_141_471_128;

            // A "(6, 7)"-term rational approximation.
            int256 y = (((x + 1_346_386_616_545_796_478_920_950_773_328) * x) >> 96)
                + 57_155_421_227_552_351_082_224_309_758_442;
            int256 p =
                ((((y + x - 94_201_549_194_550_492_254_356_042_504_812) * y) >> 96)
                        + 28_719_021_644_029_726_153_956_944_680_412_240) * x
                    + (4_385_272_521_454_847_904_659_076_985_693_276 << 96);

            int256 q = (((x - 2_855_989_394_907_223_263_936_484_059_900) * x) >> 96)
                + 50_020_603_652_535_783_019_961_831_881_945;
            q = ((q * x) >> 96) - 533_845_033_583_426_703_283_633_433_725_380;
            q = ((q * x) >> 96) + 3_604_857_256_930_695_427_073_651_918_091_429;
            q = ((q * x) >> 96) - 14_423_608_567_350_463_180_887_372_962_807_573;
            q = ((q * x) >> 96) + 26_449_188_498_355_588_339_934_803_723_976_023;

            int256 r = _sdiv0(p, q);

            // r * s * 2**k * 1e18 / 2**96, with s ~6.031367120: one multiplication, one shift.
            uint256 shift = _toUint(195 - k);
            // Reinterpreting r's two's complement bits, as the Vyper's convert(convert(r, bytes32), uint256).
            // forge-lint: disable-next-line(unsafe-typecast)
            return _toInt((uint256(r) * 3_822_833_074_963_236_453_042_738_258_902_158_003_155_416_615_667) >> shift);
        }
    }

    // ---------------------------------------------------------------- helpers

    /// @dev Vyper's unsafe_div for uint256: 0 on a zero divisor.
    function _div0(uint256 a, uint256 b) private pure returns (uint256) {
        unchecked {
            return b == 0 ? 0 : a / b;
        }
    }

    /// @dev Vyper's unsafe_div for int256: sdiv, 0 on a zero divisor.
    function _sdiv0(int256 a, int256 b) private pure returns (int256) {
        unchecked {
            return b == 0 ? int256(0) : a / b;
        }
    }

    /// @dev Vyper's convert(x, int256) of a uint256: reverts above 2**255 - 1.
    function _toInt(uint256 x) private pure returns (int256) {
        if (x > uint256(type(int256).max)) revert();
        // casting to 'int256' is safe because x <= type(int256).max
        // forge-lint: disable-next-line(unsafe-typecast)
        return int256(x);
    }

    /// @dev Vyper's convert(x, uint256) of an int256: reverts on a negative value.
    function _toUint(int256 x) private pure returns (uint256) {
        if (x < 0) revert();
        // casting to 'uint256' is safe because x >= 0
        // forge-lint: disable-next-line(unsafe-typecast)
        return uint256(x);
    }

    /// @dev Vyper's abs: reverts on the minimum int256.
    function _abs(int256 x) private pure returns (int256) {
        return x >= 0 ? x : -x;
    }

    function _min(int256 a, int256 b) private pure returns (int256) {
        return a < b ? a : b;
    }

    /// @dev Keeps a checked expression whose only effect is its revert (get_y's unused first y).
    function _consume(int256) private pure {}
}
