// SPDX-License-Identifier: GPL-2.0-or-later
pragma solidity ^0.8.24;

// Test actor for the concentrated pools' indexing test (compiled by the test with solc-js): creates Uniswap V3 and
// Algebra Integral pools, mints, burns and swaps on them one call at a time, and quotes an Algebra swap through the
// pool's own swap (reverted in its callback). It pays any pool that calls back with the tokens it holds: a test
// contract on a private chain only.

interface IERC20Min {
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IPoolTokens {
    function token0() external view returns (address);
    function token1() external view returns (address);
}

interface IUniswapV3FactoryMin {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
}

interface IUniswapV3PoolMin is IPoolTokens {
    function initialize(uint160 sqrtPriceX96) external;
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data) external returns (uint256, uint256);
    function burn(int24 tickLower, int24 tickUpper, uint128 amount) external returns (uint256, uint256);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data) external returns (int256, int256);
}

interface IAlgebraFactoryMin {
    function createPool(address tokenA, address tokenB, bytes calldata data) external returns (address pool);
}

interface IAlgebraPoolMin is IPoolTokens {
    function initialize(uint160 initialPrice) external;
    function setFee(uint16 newFee) external;
    function setTickSpacing(int24 newTickSpacing) external;
    function mint(address leftoversRecipient, address recipient, int24 bottomTick, int24 topTick, uint128 liquidityDesired, bytes calldata data)
        external
        returns (uint256, uint256, uint128);
    function burn(int24 bottomTick, int24 topTick, uint128 amount, bytes calldata data) external returns (uint256, uint256);
    function swap(address recipient, bool zeroToOne, int256 amountRequired, uint160 limitSqrtPrice, bytes calldata data) external returns (int256, int256);
    function globalState() external view returns (uint160 price, int24 tick, uint16 lastFee, uint8 pluginConfig, uint16 communityFee, bool unlocked);
}

contract ConcentratedActor {
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    function _limit(bool zeroForOne) internal pure returns (uint160) {
        return zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1;
    }

    function _pay(int256 amount0, int256 amount1) internal {
        if (amount0 > 0) IERC20Min(IPoolTokens(msg.sender).token0()).transfer(msg.sender, uint256(amount0));
        if (amount1 > 0) IERC20Min(IPoolTokens(msg.sender).token1()).transfer(msg.sender, uint256(amount1));
    }

    function createV3(address factory, address tokenA, address tokenB, uint24 fee, uint160 sqrtPriceX96) external returns (address pool) {
        pool = IUniswapV3FactoryMin(factory).createPool(tokenA, tokenB, fee);
        IUniswapV3PoolMin(pool).initialize(sqrtPriceX96);
    }

    function createAlgebra(address factory, address tokenA, address tokenB, uint160 sqrtPriceX96) external returns (address pool) {
        pool = IAlgebraFactoryMin(factory).createPool(tokenA, tokenB, "");
        IAlgebraPoolMin(pool).initialize(sqrtPriceX96);
    }

    function mint(address pool, bool algebra, int24 lower, int24 upper, uint128 liquidity) external {
        if (algebra) IAlgebraPoolMin(pool).mint(address(this), address(this), lower, upper, liquidity, "");
        else IUniswapV3PoolMin(pool).mint(address(this), lower, upper, liquidity, "");
    }

    function burn(address pool, bool algebra, int24 lower, int24 upper, uint128 liquidity) external {
        if (algebra) IAlgebraPoolMin(pool).burn(lower, upper, liquidity, "");
        else IUniswapV3PoolMin(pool).burn(lower, upper, liquidity);
    }

    /// A swap at the widest price limit (exact input for `amount` > 0, exact output for < 0).
    function swap(address pool, bool algebra, bool zeroForOne, int256 amount) external {
        if (algebra) IAlgebraPoolMin(pool).swap(address(this), zeroForOne, amount, _limit(zeroForOne), hex"01");
        else IUniswapV3PoolMin(pool).swap(address(this), zeroForOne, amount, _limit(zeroForOne), hex"01");
    }

    /// A swap to `limit` (exact input of more than the way there takes): ends on that price, often a tick's.
    function swapTo(address pool, bool algebra, bool zeroForOne, uint160 limit) external {
        if (algebra) IAlgebraPoolMin(pool).swap(address(this), zeroForOne, int256(1 << 200), limit, hex"01");
        else IUniswapV3PoolMin(pool).swap(address(this), zeroForOne, int256(1 << 200), limit, hex"01");
    }

    function setFee(address pool, uint16 fee) external {
        IAlgebraPoolMin(pool).setFee(fee);
    }

    function setTickSpacing(address pool, int24 tickSpacing) external {
        IAlgebraPoolMin(pool).setTickSpacing(tickSpacing);
    }

    function uniswapV3MintCallback(uint256 amount0, uint256 amount1, bytes calldata) external {
        _pay(int256(amount0), int256(amount1));
    }

    function algebraMintCallback(uint256 amount0, uint256 amount1, bytes calldata) external {
        _pay(int256(amount0), int256(amount1));
    }

    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external {
        _pay(amount0, amount1);
    }

    /// Pays for a swap (data set); else reverts with the swap's amounts (a quote).
    function algebraSwapCallback(int256 amount0, int256 amount1, bytes calldata data) external {
        if (data.length > 0) {
            _pay(amount0, amount1);
            return;
        }
        assembly {
            let p := mload(0x40)
            mstore(p, amount0)
            mstore(add(p, 32), amount1)
            revert(p, 64)
        }
    }

    /// The Algebra pool's own exact-input swap at the widest limit, reverted in its callback: what it would pay out.
    function quoteAlgebra(address pool, bool zeroForOne, uint256 amountIn) external returns (uint256 amountOut) {
        try IAlgebraPoolMin(pool).swap(address(this), zeroForOne, int256(amountIn), _limit(zeroForOne), "") {} catch (bytes memory reason) {
            if (reason.length != 64) return 0;
            (int256 amount0, int256 amount1) = abi.decode(reason, (int256, int256));
            amountOut = uint256(-(zeroForOne ? amount1 : amount0));
        }
    }
}
