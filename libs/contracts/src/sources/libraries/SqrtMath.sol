// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SqrtMath
/// @notice Integer square root and minimum, for pool share accounting.
library SqrtMath {
    /// @notice The integer square root of `y`, rounded down (Babylonian method, as in Uniswap V2).
    /// @param y The radicand.
    /// @return z The largest integer whose square is at most `y`.
    function sqrt(uint256 y) internal pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            // y / 2 + 1 cannot overflow for y > 3.
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                // x <= y / 2 + 1 for every iterate, so y / x + x stays far below 2^256.
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }

    /// @notice The smaller of two numbers.
    /// @param a The first number.
    /// @param b The second number.
    /// @return The minimum.
    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }
}
