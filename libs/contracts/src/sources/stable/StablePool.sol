// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {LiquidityToken} from "../LiquidityToken.sol";
import {SqrtMath} from "../libraries/SqrtMath.sol";
import {StableMath} from "../libraries/StableMath.sol";
import {IStablePool} from "./interfaces/IStablePool.sol";
import {IStablePoolFactory} from "./interfaces/IStablePoolFactory.sol";
import {IStablePoolCallee} from "./interfaces/IStablePoolCallee.sol";

/// @title StablePool
/// @notice A Solidly/Velodrome-style stable pool of two tokens (invariant x^3*y + y^3*x on balances normalised
/// to 18 decimals). The swap fee is taken from the input at the factory's `swapFeeBps`, rounded down as in
/// Velodrome, and stays in the pool for the liquidity providers. Quotes (`getAmountOut`) and the swap check
/// use the same integer math, so a swap of a quoted amount always passes.
/// @dev Created by the factory with CREATE2 and no constructor arguments; the constructor reads the tokens
/// from the factory (`getInitializable`), so every pool has the same init code hash.
contract StablePool is IStablePool, LiquidityToken, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @dev The fee denominator.
    uint256 private constant BPS = 10_000;

    /// @dev The smallest invariant a first deposit must exceed, as in Velodrome.
    uint256 private constant MINIMUM_K = 1e10;

    /// @inheritdoc IStablePool
    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    /// @inheritdoc IStablePool
    bool public constant stable = true;

    /// @inheritdoc IStablePool
    address public immutable factory;

    /// @inheritdoc IStablePool
    address public immutable token0;

    /// @inheritdoc IStablePool
    address public immutable token1;

    /// @inheritdoc IStablePool
    uint256 public immutable swapFeeBps;

    /// @dev 10^decimals of each token: the normalisation divisors.
    uint256 private immutable decimals0;
    uint256 private immutable decimals1;

    string private _name;
    string private _symbol;

    /// @notice The reserve of token0.
    uint256 public reserve0;

    /// @notice The reserve of token1.
    uint256 public reserve1;

    /// @notice The block timestamp of the last reserve update.
    uint256 public blockTimestampLast;

    /// @inheritdoc IStablePool
    uint256 public reserve0CumulativeLast;

    /// @inheritdoc IStablePool
    uint256 public reserve1CumulativeLast;

    /// @notice Reads the tokens and the fee from the creating factory.
    constructor() {
        factory = msg.sender;
        (address token0_, address token1_) = IStablePoolFactory(msg.sender).getInitializable();
        token0 = token0_;
        token1 = token1_;
        swapFeeBps = IStablePoolFactory(msg.sender).swapFeeBps();
        decimals0 = 10 ** _decimalsOf(token0_);
        decimals1 = 10 ** _decimalsOf(token1_);
        string memory pairSymbols =
            string.concat(IERC20Metadata(token0_).symbol(), "/", IERC20Metadata(token1_).symbol());
        _name = string.concat("Stable AMM - ", pairSymbols);
        _symbol = string.concat("sAMM-", pairSymbols);
    }

    /// @notice The share token's name, e.g. "Stable AMM - USDC/USDT".
    /// @return The name.
    function name() external view returns (string memory) {
        return _name;
    }

    /// @notice The share token's symbol, e.g. "sAMM-USDC/USDT".
    /// @return The symbol.
    function symbol() external view returns (string memory) {
        return _symbol;
    }

    /// @inheritdoc IStablePool
    function tokens() external view returns (address, address) {
        return (token0, token1);
    }

    /// @inheritdoc IStablePool
    function metadata()
        external
        view
        returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)
    {
        return (decimals0, decimals1, reserve0, reserve1, stable, token0, token1);
    }

    /// @inheritdoc IStablePool
    function getReserves() external view returns (uint256, uint256, uint256) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// @inheritdoc IStablePool
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256) {
        if (tokenIn != token0 && tokenIn != token1) revert InvalidToken(tokenIn);
        (uint256 reserve0_, uint256 reserve1_) = (reserve0, reserve1);
        if (reserve0_ == 0 || reserve1_ == 0) return 0;
        // The fee is at most the input: swapFeeBps <= the factory's cap < BPS.
        amountIn -= (amountIn * swapFeeBps) / BPS;
        return _getAmountOut(amountIn, tokenIn, reserve0_, reserve1_);
    }

    /// @inheritdoc IStablePool
    function mint(address to) external nonReentrant returns (uint256 liquidity) {
        (uint256 reserve0_, uint256 reserve1_) = (reserve0, reserve1);
        uint256 balance0 = IERC20(token0).balanceOf(address(this));
        uint256 balance1 = IERC20(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0_;
        uint256 amount1 = balance1 - reserve1_;

        uint256 supply = totalSupply;
        if (supply == 0) {
            // The first deposit fixes the share price; equal normalised amounts keep sqrt(a*b) a fair measure
            // of a stable pool's value, and a minimum invariant makes inflating the share price costly.
            if ((amount0 * 1e18) / decimals0 != (amount1 * 1e18) / decimals1) revert DepositsNotEqual();
            if (_k(amount0, amount1) <= MINIMUM_K) revert BelowMinimumK();
            liquidity = SqrtMath.sqrt(amount0 * amount1);
            if (liquidity <= MINIMUM_LIQUIDITY) revert InsufficientLiquidityMinted();
            // Cannot underflow: checked just above.
            unchecked {
                liquidity -= MINIMUM_LIQUIDITY;
            }
            _mint(address(0), MINIMUM_LIQUIDITY);
        } else {
            liquidity = SqrtMath.min((amount0 * supply) / reserve0_, (amount1 * supply) / reserve1_);
        }
        if (liquidity == 0) revert InsufficientLiquidityMinted();
        _mint(to, liquidity);

        _update(balance0, balance1, reserve0_, reserve1_);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// @inheritdoc IStablePool
    function burn(address to) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        (uint256 reserve0_, uint256 reserve1_) = (reserve0, reserve1);
        (address token0_, address token1_) = (token0, token1);
        uint256 balance0 = IERC20(token0_).balanceOf(address(this));
        uint256 balance1 = IERC20(token1_).balanceOf(address(this));
        uint256 liquidity = balanceOf[address(this)];

        // Rounding down pays the withdrawer no more than its share.
        uint256 supply = totalSupply;
        amount0 = (liquidity * balance0) / supply;
        amount1 = (liquidity * balance1) / supply;
        if (amount0 == 0 || amount1 == 0) revert InsufficientLiquidityBurned();
        _burn(address(this), liquidity);
        IERC20(token0_).safeTransfer(to, amount0);
        IERC20(token1_).safeTransfer(to, amount1);
        balance0 = IERC20(token0_).balanceOf(address(this));
        balance1 = IERC20(token1_).balanceOf(address(this));

        _update(balance0, balance1, reserve0_, reserve1_);
        emit Burn(msg.sender, to, amount0, amount1);
    }

    /// @inheritdoc IStablePool
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external nonReentrant {
        if (amount0Out == 0 && amount1Out == 0) revert InsufficientOutputAmount();
        (uint256 reserve0_, uint256 reserve1_) = (reserve0, reserve1);
        if (amount0Out >= reserve0_ || amount1Out >= reserve1_) revert InsufficientLiquidity();

        uint256 balance0;
        uint256 balance1;
        {
            (address token0_, address token1_) = (token0, token1);
            if (to == token0_ || to == token1_) revert InvalidTo();
            // Optimistic transfers: the invariant check below reverts everything if the pool is not paid.
            if (amount0Out > 0) IERC20(token0_).safeTransfer(to, amount0Out);
            if (amount1Out > 0) IERC20(token1_).safeTransfer(to, amount1Out);
            if (data.length > 0) IStablePoolCallee(to).hook(msg.sender, amount0Out, amount1Out, data);
            balance0 = IERC20(token0_).balanceOf(address(this));
            balance1 = IERC20(token1_).balanceOf(address(this));
        }
        // amountOut < reserve, so reserve - amountOut cannot underflow.
        uint256 amount0In = balance0 > reserve0_ - amount0Out ? balance0 - (reserve0_ - amount0Out) : 0;
        uint256 amount1In = balance1 > reserve1_ - amount1Out ? balance1 - (reserve1_ - amount1Out) : 0;
        if (amount0In == 0 && amount1In == 0) revert InsufficientInputAmount();

        _checkInvariant(balance0, balance1, amount0In, amount1In, reserve0_, reserve1_);

        _update(balance0, balance1, reserve0_, reserve1_);
        emit Swap(msg.sender, to, amount0In, amount1In, amount0Out, amount1Out);
    }

    /// @inheritdoc IStablePool
    function skim(address to) external nonReentrant {
        (address token0_, address token1_) = (token0, token1);
        IERC20(token0_).safeTransfer(to, IERC20(token0_).balanceOf(address(this)) - reserve0);
        IERC20(token1_).safeTransfer(to, IERC20(token1_).balanceOf(address(this)) - reserve1);
    }

    /// @inheritdoc IStablePool
    function sync() external nonReentrant {
        _update(IERC20(token0).balanceOf(address(this)), IERC20(token1).balanceOf(address(this)), reserve0, reserve1);
    }

    /// @dev Takes the fee from each input (rounded down, as getAmountOut does) and requires that the invariant
    /// of the balances without it is not below that of the reserves. The fee stays in the pool.
    function _checkInvariant(
        uint256 balance0,
        uint256 balance1,
        uint256 amount0In,
        uint256 amount1In,
        uint256 reserve0_,
        uint256 reserve1_
    ) private {
        uint256 fee0 = (amount0In * swapFeeBps) / BPS;
        uint256 fee1 = (amount1In * swapFeeBps) / BPS;
        // fee <= amountIn <= balance, so these cannot underflow.
        if (_k(balance0 - fee0, balance1 - fee1) < _k(reserve0_, reserve1_)) revert K();
        if (fee0 > 0 || fee1 > 0) emit Fees(msg.sender, fee0, fee1);
    }

    /// @dev The output for a net input (fee already taken), in the output token's units, rounded down.
    function _getAmountOut(uint256 amountIn, address tokenIn, uint256 reserve0_, uint256 reserve1_)
        private
        view
        returns (uint256)
    {
        uint256 xy = _k(reserve0_, reserve1_);
        uint256 normalised0 = (reserve0_ * 1e18) / decimals0;
        uint256 normalised1 = (reserve1_ * 1e18) / decimals1;
        bool zeroForOne = tokenIn == token0;
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (normalised0, normalised1) : (normalised1, normalised0);
        amountIn = zeroForOne ? (amountIn * 1e18) / decimals0 : (amountIn * 1e18) / decimals1;
        uint256 out = reserveOut - StableMath.getY(amountIn + reserveIn, xy, reserveOut);
        return (out * (zeroForOne ? decimals1 : decimals0)) / 1e18;
    }

    /// @dev The invariant of raw token amounts, normalised to 18 decimals first.
    function _k(uint256 x, uint256 y) private view returns (uint256) {
        return StableMath.k((x * 1e18) / decimals0, (y * 1e18) / decimals1);
    }

    /// @dev Sets the reserves to the balances and, on the first call of a block, advances the reserve
    /// accumulators by the old reserves times the time elapsed.
    function _update(uint256 balance0, uint256 balance1, uint256 reserve0_, uint256 reserve1_) private {
        uint256 timeElapsed = block.timestamp - blockTimestampLast;
        if (timeElapsed > 0 && reserve0_ != 0 && reserve1_ != 0) {
            // Wrapping is intended: the accumulators are read as differences modulo 2^256, as in Solidly.
            unchecked {
                reserve0CumulativeLast += reserve0_ * timeElapsed;
                reserve1CumulativeLast += reserve1_ * timeElapsed;
            }
        }
        reserve0 = balance0;
        reserve1 = balance1;
        blockTimestampLast = block.timestamp;
        emit Sync(balance0, balance1);
    }

    /// @dev The decimals of a token, at most 18.
    function _decimalsOf(address token) private view returns (uint8 decimals_) {
        decimals_ = IERC20Metadata(token).decimals();
        if (decimals_ > 18) revert UnsupportedDecimals(token, decimals_);
    }
}
