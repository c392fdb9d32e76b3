// SPDX-License-Identifier: GPL-2.0-or-later
pragma solidity ^0.8.24;

// Test actor for concentrated-liquidity pools on a private chain (compiled by the tests with solc-js, see
// compileConcentratedActor): creates Uniswap V3 and Algebra Integral pools, mints, burns and swaps on them one call
// at a time (the indexing tests), or sets up a pool with its positions and a first move in one call, reads pools'
// state and quotes batches of swaps through Uniswap's QuoterV2 and through an Algebra pool's own swap (reverted in
// its callback) (the differential tests). It pays any pool that calls back with the tokens it holds: a test
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
    function slot0() external view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool);
    function liquidity() external view returns (uint128);
    function ticks(int24 tick) external view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool initialized);
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
    function liquidity() external view returns (uint128);
    function tickSpacing() external view returns (int24);
    function ticks(int24 tick) external view returns (uint256 liquidityTotal, int128 liquidityDelta, int24 prevTick, int24 nextTick, uint256, uint256);
}

interface IQuoterV2Min {
    struct QuoteExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }
    struct QuoteExactOutputSingleParams {
        address tokenIn;
        address tokenOut;
        uint256 amount;
        uint24 fee;
        uint160 sqrtPriceLimitX96;
    }
    function quoteExactInputSingle(QuoteExactInputSingleParams memory params) external returns (uint256, uint160, uint32, uint256);
    function quoteExactOutputSingle(QuoteExactOutputSingleParams memory params) external returns (uint256, uint160, uint32, uint256);
}

contract ConcentratedActor {
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    struct Position {
        int24 lower;
        int24 upper;
        uint128 liquidity;
    }

    /// A swap that moves the price before the state is read (`limit` 0: RouterV2's limit).
    struct Move {
        bool active;
        bool zeroForOne;
        int256 amount;
        uint160 limit;
    }

    struct Quote {
        bool zeroForOne;
        bool exactInput;
        uint256 amount;
    }

    struct Outcome {
        bool ok;
        /// Exact input: the output; exact output: the input (QuoterV2). Algebra: what the pool takes and pays.
        uint256 amountIn;
        uint256 amountOut;
        uint160 sqrtPriceAfter;
    }

    function _limit(bool zeroForOne, uint160 limit) internal pure returns (uint160) {
        if (limit != 0) return limit;
        return zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1;
    }

    function _pay(int256 amount0, int256 amount1) internal {
        if (amount0 > 0) IERC20Min(IPoolTokens(msg.sender).token0()).transfer(msg.sender, uint256(amount0));
        if (amount1 > 0) IERC20Min(IPoolTokens(msg.sender).token1()).transfer(msg.sender, uint256(amount1));
    }

    // ---- one call at a time (the indexing tests: each call's events in chain order)

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
        if (algebra) IAlgebraPoolMin(pool).swap(address(this), zeroForOne, amount, _limit(zeroForOne, 0), hex"01");
        else IUniswapV3PoolMin(pool).swap(address(this), zeroForOne, amount, _limit(zeroForOne, 0), hex"01");
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

    // ---- many pools and quotes a call (the differential tests)

    /// Creates and initializes a Uniswap V3 pool, mints the positions, makes the move.
    function setUpV3(address factory, address tokenA, address tokenB, uint24 fee, uint160 sqrtPriceX96, Position[] calldata positions, Move calldata move)
        external
        returns (address pool)
    {
        pool = IUniswapV3FactoryMin(factory).createPool(tokenA, tokenB, fee);
        IUniswapV3PoolMin(pool).initialize(sqrtPriceX96);
        for (uint256 i = 0; i < positions.length; i++) {
            IUniswapV3PoolMin(pool).mint(address(this), positions[i].lower, positions[i].upper, positions[i].liquidity, "");
        }
        if (move.active) IUniswapV3PoolMin(pool).swap(address(this), move.zeroForOne, move.amount, _limit(move.zeroForOne, move.limit), hex"01");
    }

    /// Creates and initializes an Algebra pool with a fee and a tick spacing, mints the positions, makes the move.
    function setUpAlgebra(
        address factory,
        address tokenA,
        address tokenB,
        uint16 fee,
        int24 tickSpacing,
        uint160 sqrtPriceX96,
        Position[] calldata positions,
        Move calldata move
    ) external returns (address pool) {
        pool = IAlgebraFactoryMin(factory).createPool(tokenA, tokenB, "");
        IAlgebraPoolMin(pool).initialize(sqrtPriceX96);
        (, , uint16 currentFee, , , ) = IAlgebraPoolMin(pool).globalState();
        if (currentFee != fee) IAlgebraPoolMin(pool).setFee(fee);
        if (IAlgebraPoolMin(pool).tickSpacing() != tickSpacing) IAlgebraPoolMin(pool).setTickSpacing(tickSpacing);
        for (uint256 i = 0; i < positions.length; i++) {
            IAlgebraPoolMin(pool).mint(address(this), address(this), positions[i].lower, positions[i].upper, positions[i].liquidity, "");
        }
        if (move.active) IAlgebraPoolMin(pool).swap(address(this), move.zeroForOne, move.amount, _limit(move.zeroForOne, move.limit), hex"01");
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

    /// Pays for a move (data set); else reverts with the swap's amounts and the price after it (a quote).
    function algebraSwapCallback(int256 amount0, int256 amount1, bytes calldata data) external {
        if (data.length > 0) {
            _pay(amount0, amount1);
            return;
        }
        (uint160 price, , , , , ) = IAlgebraPoolMin(msg.sender).globalState();
        assembly {
            let p := mload(0x40)
            mstore(p, amount0)
            mstore(add(p, 32), amount1)
            mstore(add(p, 64), price)
            revert(p, 96)
        }
    }

    /// Uniswap V3 pool state: price, tick, active liquidity, and liquidityNet at the ticks asked.
    function readV3(address pool, int24[] calldata tickList)
        external
        view
        returns (uint160 sqrtPriceX96, int24 tick, uint128 activeLiquidity, int128[] memory nets, bool[] memory initialized)
    {
        (sqrtPriceX96, tick, , , , , ) = IUniswapV3PoolMin(pool).slot0();
        activeLiquidity = IUniswapV3PoolMin(pool).liquidity();
        nets = new int128[](tickList.length);
        initialized = new bool[](tickList.length);
        for (uint256 i = 0; i < tickList.length; i++) {
            (, nets[i], , , , , , initialized[i]) = IUniswapV3PoolMin(pool).ticks(tickList[i]);
        }
    }

    /// Algebra pool state: price, tick, fee, tick spacing, active liquidity, and liquidityDelta at the ticks asked.
    function readAlgebra(address pool, int24[] calldata tickList)
        external
        view
        returns (uint160 price, int24 tick, uint16 fee, int24 spacing, uint128 activeLiquidity, int128[] memory deltas, bool[] memory initialized)
    {
        (price, tick, fee, , , ) = IAlgebraPoolMin(pool).globalState();
        spacing = IAlgebraPoolMin(pool).tickSpacing();
        activeLiquidity = IAlgebraPoolMin(pool).liquidity();
        deltas = new int128[](tickList.length);
        initialized = new bool[](tickList.length);
        for (uint256 i = 0; i < tickList.length; i++) {
            uint256 total;
            (total, deltas[i], , , , ) = IAlgebraPoolMin(pool).ticks(tickList[i]);
            initialized[i] = total > 0;
        }
    }

    /// QuoterV2's single-pool quotes at RouterV2's limits (QuoterV2's own default for a limit of 0).
    function quoteV3(address quoter, address pool, uint24 fee, Quote[] calldata quotes) external returns (Outcome[] memory outcomes) {
        address token0 = IPoolTokens(pool).token0();
        address token1 = IPoolTokens(pool).token1();
        outcomes = new Outcome[](quotes.length);
        for (uint256 i = 0; i < quotes.length; i++) {
            Quote calldata q = quotes[i];
            (address tokenIn, address tokenOut) = q.zeroForOne ? (token0, token1) : (token1, token0);
            if (q.exactInput) {
                try IQuoterV2Min(quoter).quoteExactInputSingle(IQuoterV2Min.QuoteExactInputSingleParams(tokenIn, tokenOut, q.amount, fee, 0)) returns (
                    uint256 amountOut,
                    uint160 price,
                    uint32,
                    uint256
                ) {
                    outcomes[i] = Outcome(true, q.amount, amountOut, price);
                } catch {}
            } else {
                try IQuoterV2Min(quoter).quoteExactOutputSingle(IQuoterV2Min.QuoteExactOutputSingleParams(tokenIn, tokenOut, q.amount, fee, 0)) returns (
                    uint256 amountIn,
                    uint160 price,
                    uint32,
                    uint256
                ) {
                    outcomes[i] = Outcome(true, amountIn, q.amount, price);
                } catch {}
            }
        }
    }

    /// The Algebra pool's own swaps at RouterV2's limits, each reverted in its callback with its amounts.
    function quoteAlgebra(address pool, Quote[] calldata quotes) external returns (Outcome[] memory outcomes) {
        outcomes = new Outcome[](quotes.length);
        for (uint256 i = 0; i < quotes.length; i++) {
            Quote calldata q = quotes[i];
            int256 amount = q.exactInput ? int256(q.amount) : -int256(q.amount);
            try IAlgebraPoolMin(pool).swap(address(this), q.zeroForOne, amount, _limit(q.zeroForOne, 0), "") {} catch (bytes memory reason) {
                if (reason.length == 96) {
                    (int256 amount0, int256 amount1, uint160 price) = abi.decode(reason, (int256, int256, uint160));
                    (int256 paid, int256 received) = q.zeroForOne ? (amount0, amount1) : (amount1, amount0);
                    outcomes[i] = Outcome(true, uint256(paid), uint256(-received), price);
                }
            }
        }
    }
}
