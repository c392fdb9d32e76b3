// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {LiquidityToken} from "../LiquidityToken.sol";
import {SqrtMath} from "../libraries/SqrtMath.sol";
import {IUniswapV2Pair} from "./interfaces/IUniswapV2Pair.sol";
import {IUniswapV2Factory} from "./interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Callee} from "./interfaces/IUniswapV2Callee.sol";

/// @title UniswapV2Pair
/// @notice A constant-product pool of two tokens with the Uniswap V2 external interface. The swap fee is taken
/// from the input at the factory's `swapFeeBps` and stays in the pool; when the factory's `feeTo` is set, a
/// sixth of the growth of sqrt(k) is minted to it on liquidity events, as in Uniswap V2.
/// @dev Created by the factory with CREATE2 and no constructor arguments, so every pair has the same init code
/// hash (`UniswapV2Factory.INIT_CODE_PAIR_HASH`) whatever its factory's fee.
contract UniswapV2Pair is IUniswapV2Pair, LiquidityToken, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @dev The fee and K-check denominator.
    uint256 private constant BPS = 10_000;

    /// @notice The share token's name.
    string public constant name = "V2 Liquidity";

    /// @notice The share token's symbol.
    string public constant symbol = "V2-LP";

    /// @inheritdoc IUniswapV2Pair
    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    /// @inheritdoc IUniswapV2Pair
    address public immutable factory;

    /// @inheritdoc IUniswapV2Pair
    uint256 public immutable swapFeeBps;

    /// @inheritdoc IUniswapV2Pair
    address public token0;

    /// @inheritdoc IUniswapV2Pair
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    /// @inheritdoc IUniswapV2Pair
    uint256 public price0CumulativeLast;

    /// @inheritdoc IUniswapV2Pair
    uint256 public price1CumulativeLast;

    /// @inheritdoc IUniswapV2Pair
    uint256 public kLast;

    /// @notice Records the creating factory and reads its swap fee.
    constructor() {
        factory = msg.sender;
        swapFeeBps = IUniswapV2Factory(msg.sender).swapFeeBps();
    }

    /// @inheritdoc IUniswapV2Pair
    function initialize(address token0_, address token1_) external {
        if (msg.sender != factory) revert Forbidden();
        token0 = token0_;
        token1 = token1_;
    }

    /// @inheritdoc IUniswapV2Pair
    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// @inheritdoc IUniswapV2Pair
    function mint(address to) external nonReentrant returns (uint256 liquidity) {
        (uint112 reserve0_, uint112 reserve1_,) = getReserves();
        uint256 balance0 = IERC20(token0).balanceOf(address(this));
        uint256 balance1 = IERC20(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0_;
        uint256 amount1 = balance1 - reserve1_;

        bool feeOn = _mintFee(reserve0_, reserve1_);
        // Read after _mintFee, which may mint.
        uint256 supply = totalSupply;
        if (supply == 0) {
            liquidity = SqrtMath.sqrt(amount0 * amount1);
            if (liquidity <= MINIMUM_LIQUIDITY) revert InsufficientLiquidityMinted();
            // Cannot underflow: checked just above.
            unchecked {
                liquidity -= MINIMUM_LIQUIDITY;
            }
            _mint(address(0), MINIMUM_LIQUIDITY);
        } else {
            liquidity = SqrtMath.min(amount0 * supply / reserve0_, amount1 * supply / reserve1_);
        }
        if (liquidity == 0) revert InsufficientLiquidityMinted();
        _mint(to, liquidity);

        _update(balance0, balance1, reserve0_, reserve1_);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Mint(msg.sender, amount0, amount1);
    }

    /// @inheritdoc IUniswapV2Pair
    function burn(address to) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        (uint112 reserve0_, uint112 reserve1_,) = getReserves();
        (address token0_, address token1_) = (token0, token1);
        uint256 balance0 = IERC20(token0_).balanceOf(address(this));
        uint256 balance1 = IERC20(token1_).balanceOf(address(this));
        uint256 liquidity = balanceOf[address(this)];

        bool feeOn = _mintFee(reserve0_, reserve1_);
        // Read after _mintFee, which may mint. Rounding down pays the withdrawer no more than its share.
        uint256 supply = totalSupply;
        amount0 = liquidity * balance0 / supply;
        amount1 = liquidity * balance1 / supply;
        if (amount0 == 0 || amount1 == 0) revert InsufficientLiquidityBurned();
        _burn(address(this), liquidity);
        IERC20(token0_).safeTransfer(to, amount0);
        IERC20(token1_).safeTransfer(to, amount1);
        balance0 = IERC20(token0_).balanceOf(address(this));
        balance1 = IERC20(token1_).balanceOf(address(this));

        _update(balance0, balance1, reserve0_, reserve1_);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// @inheritdoc IUniswapV2Pair
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external nonReentrant {
        if (amount0Out == 0 && amount1Out == 0) revert InsufficientOutputAmount();
        (uint112 reserve0_, uint112 reserve1_,) = getReserves();
        if (amount0Out >= reserve0_ || amount1Out >= reserve1_) revert InsufficientLiquidity();

        uint256 balance0;
        uint256 balance1;
        {
            (address token0_, address token1_) = (token0, token1);
            if (to == token0_ || to == token1_) revert InvalidTo();
            // Optimistic transfers: the K check below reverts everything if the pair is not paid.
            if (amount0Out > 0) IERC20(token0_).safeTransfer(to, amount0Out);
            if (amount1Out > 0) IERC20(token1_).safeTransfer(to, amount1Out);
            if (data.length > 0) IUniswapV2Callee(to).uniswapV2Call(msg.sender, amount0Out, amount1Out, data);
            balance0 = IERC20(token0_).balanceOf(address(this));
            balance1 = IERC20(token1_).balanceOf(address(this));
        }
        // Checked here rather than only in _update so that the products below cannot overflow.
        if (balance0 > type(uint112).max || balance1 > type(uint112).max) revert Overflow();

        // amountOut < reserve, so reserve - amountOut cannot underflow.
        uint256 amount0In = balance0 > reserve0_ - amount0Out ? balance0 - (reserve0_ - amount0Out) : 0;
        uint256 amount1In = balance1 > reserve1_ - amount1Out ? balance1 - (reserve1_ - amount1Out) : 0;
        if (amount0In == 0 && amount1In == 0) revert InsufficientInputAmount();
        {
            uint256 fee = swapFeeBps;
            // amountIn <= balance and fee < BPS, so these cannot underflow; all factors are below 2^126.
            uint256 balance0Adjusted = balance0 * BPS - amount0In * fee;
            uint256 balance1Adjusted = balance1 * BPS - amount1In * fee;
            if (balance0Adjusted * balance1Adjusted < uint256(reserve0_) * reserve1_ * (BPS * BPS)) revert K();
        }

        _update(balance0, balance1, reserve0_, reserve1_);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    /// @inheritdoc IUniswapV2Pair
    function skim(address to) external nonReentrant {
        (address token0_, address token1_) = (token0, token1);
        IERC20(token0_).safeTransfer(to, IERC20(token0_).balanceOf(address(this)) - reserve0);
        IERC20(token1_).safeTransfer(to, IERC20(token1_).balanceOf(address(this)) - reserve1);
    }

    /// @inheritdoc IUniswapV2Pair
    function sync() external nonReentrant {
        _update(IERC20(token0).balanceOf(address(this)), IERC20(token1).balanceOf(address(this)), reserve0, reserve1);
    }

    /// @dev Sets the reserves to the balances and, on the first call of a block, advances the price
    /// accumulators by the old reserves' prices times the time elapsed.
    function _update(uint256 balance0, uint256 balance1, uint112 reserve0_, uint112 reserve1_) private {
        if (balance0 > type(uint112).max || balance1 > type(uint112).max) revert Overflow();
        uint32 blockTimestamp = uint32(block.timestamp % 2 ** 32);
        // Wrapping is intended: the timestamp and the accumulators are read as differences modulo 2^32 and
        // 2^256, as in Uniswap V2. Each price is below 2^224 and timeElapsed below 2^32, so no product wraps.
        unchecked {
            uint32 timeElapsed = blockTimestamp - blockTimestampLast;
            if (timeElapsed > 0 && reserve0_ != 0 && reserve1_ != 0) {
                // The price is a UQ112x112 quotient first, then weighted by time, exactly as Uniswap V2 does.
                // forge-lint: disable-next-line(divide-before-multiply)
                price0CumulativeLast += ((uint256(reserve1_) << 112) / reserve0_) * timeElapsed;
                // forge-lint: disable-next-line(divide-before-multiply)
                price1CumulativeLast += ((uint256(reserve0_) << 112) / reserve1_) * timeElapsed;
            }
        }
        // casting to 'uint112' is safe because both balances were checked against type(uint112).max above.
        // forge-lint: disable-next-line(unsafe-typecast)
        reserve0 = uint112(balance0);
        // forge-lint: disable-next-line(unsafe-typecast)
        reserve1 = uint112(balance1);
        blockTimestampLast = blockTimestamp;
        emit Sync(reserve0, reserve1);
    }

    /// @dev When the protocol fee is on, mints `feeTo` a sixth of the growth of sqrt(k) since the last
    /// liquidity event; when it is off, clears `kLast`. Returns whether it is on.
    function _mintFee(uint112 reserve0_, uint112 reserve1_) private returns (bool feeOn) {
        address feeTo = IUniswapV2Factory(factory).feeTo();
        feeOn = feeTo != address(0);
        uint256 kLast_ = kLast;
        if (feeOn) {
            if (kLast_ != 0) {
                uint256 rootK = SqrtMath.sqrt(uint256(reserve0_) * reserve1_);
                uint256 rootKLast = SqrtMath.sqrt(kLast_);
                if (rootK > rootKLast) {
                    uint256 liquidity = totalSupply * (rootK - rootKLast) / (rootK * 5 + rootKLast);
                    if (liquidity > 0) _mint(feeTo, liquidity);
                }
            }
        } else if (kLast_ != 0) {
            kLast = 0;
        }
    }
}
