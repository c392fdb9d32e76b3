// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What RouterV2 calls of a Curve StableswapNG factory (CurveStableSwapFactoryNG.vy), the contract of a
/// `CurveStableswapNG` source. Written from the Vyper's declarations.
interface ICurveStableswapNGFactory {
    /// @notice The indices of `_from` and `_to` in `_pool`. Reverts for a pool the factory did not deploy and for
    /// coins it does not hold.
    /// @return i The index of `_from`.
    /// @return j The index of `_to`.
    /// @return isUnderlying False for a metapool's own two coins; true otherwise: a metapool's underlying coins, and
    /// (NG answers so on its plain-pool path) every pair of a plain pool.
    function get_coin_indices(address _pool, address _from, address _to)
        external
        view
        returns (int128 i, int128 j, bool isUnderlying);

    /// @notice Whether `_pool` is a metapool (its base pool is set).
    function is_meta(address _pool) external view returns (bool);
}

/// @notice What RouterV2 calls of a Curve StableswapNG pool (CurveStableSwapNG.vy): the receiver overloads of the
/// exchanges (Vyper's default arguments are overloads; only these are declared, so that their selectors are unique).
interface ICurveStableswapNGPool {
    /// @notice Swaps `_dx` of coin `i`, pulled from the caller (it must have approved the pool), for coin `j`, paid to
    /// `_receiver`; reverts below `_min_dy`.
    function exchange(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver) external returns (uint256);

    /// @notice Swaps what the pool received of coin `i` above its stored balance (at least `_dx`) for coin `j`, paid
    /// to `_receiver`. Refused by a pool holding a rebasing coin.
    function exchange_received(int128 i, int128 j, uint256 _dx, uint256 _min_dy, address _receiver)
        external
        returns (uint256);

    /// @notice The output of a swap of `dx` of coin `i` for coin `j` at the pool's current state.
    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256);
}

/// @notice What RouterV2 calls of a Curve TwocryptoNG factory (TwocryptoFactory.vy), the contract of a
/// `CurveTwocryptoNG` source.
interface ICurveTwocryptoNGFactory {
    /// @notice The indices of `_from` and `_to` in `_pool` (0, 1 or 1, 0). Reverts ("Coins not found") for a pool the
    /// factory did not deploy and for coins it does not hold.
    function get_coin_indices(address _pool, address _from, address _to) external view returns (uint256, uint256);
}

/// @notice What RouterV2 calls of a Curve TwocryptoNG pool (Twocrypto.vy): the receiver overloads of the exchanges.
interface ICurveTwocryptoNGPool {
    /// @notice Swaps `dx` of coin `i`, pulled from the caller, for coin `j`, paid to `receiver`.
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver) external returns (uint256);

    /// @notice Swaps what the pool received of coin `i` above its stored balance (at least `dx`) for coin `j`, paid to
    /// `receiver`.
    function exchange_received(uint256 i, uint256 j, uint256 dx, uint256 min_dy, address receiver)
        external
        returns (uint256);

    /// @notice The output of a swap of `dx` of coin `i` for coin `j` at the pool's current state.
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256);
}
