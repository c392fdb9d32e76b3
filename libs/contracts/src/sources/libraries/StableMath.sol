// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title StableMath
/// @notice The Solidly stable invariant k = x^3*y + y^3*x on amounts normalised to 18 decimals, every product
/// rounded down as Solidly and Velodrome compute it, and the Newton solver for y given x and k.
library StableMath {
    /// @notice The Newton iteration did not converge within 255 steps.
    error StableMathNoConvergence();

    uint256 internal constant ONE = 1e18;

    /// @notice The invariant of normalised amounts: x*y*(x^2 + y^2), in 18-decimal fixed point.
    /// @param x The normalised amount of one token.
    /// @param y The normalised amount of the other.
    /// @return The invariant.
    function k(uint256 x, uint256 y) internal pure returns (uint256) {
        uint256 a = (x * y) / ONE;
        uint256 b = (x * x) / ONE + (y * y) / ONE;
        return (a * b) / ONE;
    }

    /// @notice The y for which `k(x0, y) >= xy` with y - 1 short of it (or k exactly met), by Newton's method
    /// from the guess `y`. Give the current output reserve as the guess: the iteration then starts above the
    /// answer. The steps and exits are Solidly's and Velodrome's, so the result is theirs wherever their
    /// iteration converges; where the rounded steps would oscillate forever (their `!y` revert), a bracket of
    /// the answer takes over and bisects.
    /// @param x0 The normalised amount of the input token after the swap.
    /// @param xy The invariant to keep.
    /// @param y The starting guess.
    /// @return The normalised amount of the output token the pool must keep.
    function getY(uint256 x0, uint256 xy, uint256 y) internal pure returns (uint256) {
        // Bracket: k(x0, lo) < xy <= k(x0, hi). k(x0, 0) = 0, so lo = 0 is a valid start for any xy > 0.
        uint256 lo;
        uint256 hi = type(uint256).max;
        for (uint256 i; i < 255; ++i) {
            uint256 current = k(x0, y);
            uint256 slope = _dkdy(x0, y);
            // A zero slope only occurs for dust amounts; a unit slope turns the step into a jump to the bracket.
            if (slope == 0) slope = 1;
            uint256 next;
            if (current < xy) {
                lo = y;
                // Rounded down; when the step rounds to zero, y is within one unit of the answer.
                uint256 dy = ((xy - current) * ONE) / slope;
                if (dy == 0) {
                    if (k(x0, y + 1) > xy) return y + 1;
                    dy = 1;
                }
                next = y + dy;
            } else {
                hi = y;
                uint256 dy = ((current - xy) * ONE) / slope;
                if (dy == 0) {
                    if (current == xy || k(x0, y - 1) < xy) return y;
                    dy = 1;
                }
                next = dy < y ? y - dy : 0;
            }
            if (next <= lo || next >= hi) {
                // The step left the bracket: the answer is hi once the bracket is closed, else bisect.
                if (hi - lo <= 1) return hi;
                next = lo + (hi - lo) / 2;
            }
            y = next;
        }
        revert StableMathNoConvergence();
    }

    /// @dev dk/dy = 3*x0*y^2 + x0^3, in 18-decimal fixed point.
    function _dkdy(uint256 x0, uint256 y) private pure returns (uint256) {
        // Rounded step by step exactly as Solidly and Velodrome do, so that quotes match theirs to the unit.
        // forge-lint: disable-next-line(divide-before-multiply)
        return (3 * x0 * ((y * y) / ONE)) / ONE + ((((x0 * x0) / ONE) * x0) / ONE);
    }
}
