// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// A test actor for Uniswap V4's PoolManager (v4-core's own bytecode): it initializes pools and adds positions
// through `unlock`, settling what it owes in ERC-20 tokens or the native currency, changes positions, swaps and
// donates on pools that stay (`modify`, `swap`, `donate`), and quotes batches of swaps two ways in one call each:
// through V4Quoter (v4-periphery) and through the PoolManager's own swap inside an `unlock` that reverts with what
// the swap did (amounts and the price after), so that nothing of it stays.

struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

struct SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

struct QuoteExactSingleParams {
    PoolKey poolKey;
    bool zeroForOne;
    uint128 exactAmount;
    bytes hookData;
}

interface IPoolManagerLike {
    function unlock(bytes calldata data) external returns (bytes memory);
    function initialize(PoolKey memory key, uint160 sqrtPriceX96) external returns (int24 tick);
    function modifyLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, bytes calldata hookData) external returns (int256 callerDelta, int256 feesAccrued);
    function swap(PoolKey memory key, SwapParams memory params, bytes calldata hookData) external returns (int256 swapDelta);
    function donate(PoolKey memory key, uint256 amount0, uint256 amount1, bytes calldata hookData) external returns (int256 delta);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
    function extsload(bytes32 slot) external view returns (bytes32 value);
}

interface IV4QuoterLike {
    function quoteExactInputSingle(QuoteExactSingleParams memory params) external returns (uint256 amountOut, uint256 gasEstimate);
    function quoteExactOutputSingle(QuoteExactSingleParams memory params) external returns (uint256 amountIn, uint256 gasEstimate);
}

interface IERC20Like {
    function transfer(address to, uint256 amount) external returns (bool);
}

contract UniswapV4Actor {
    struct Position {
        int24 lower;
        int24 upper;
        uint128 liquidity;
    }

    /** A first trade after the positions (inactive: none): to `limit` (0: RouterV2's price limit) or of `amount`. */
    struct Move {
        bool active;
        bool zeroForOne;
        uint256 amount;
        uint160 limit;
    }

    struct Quote {
        bool zeroForOne;
        bool exactInput;
        uint256 amount;
    }

    /** Liquidity added to (> 0) or removed from (< 0) the actor's position [lower, upper) of salt 0. */
    struct Change {
        int24 lower;
        int24 upper;
        int256 liquidityDelta;
    }

    /** The pool's swap (`ok`: it did not revert) and V4Quoter's answer (`quoterOk`: it did not revert). */
    struct Outcome {
        bool ok;
        uint256 amountIn;
        uint256 amountOut;
        uint160 sqrtPriceAfter;
        bool quoterOk;
        uint256 quoterAmount;
    }

    error Swapped(uint256 amountIn, uint256 amountOut, uint160 sqrtPriceAfter);

    uint160 internal constant MIN_SQRT_PRICE = 4295128739;
    uint160 internal constant MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342;
    bytes32 internal constant POOLS_SLOT = bytes32(uint256(6));

    IPoolManagerLike internal manager;

    receive() external payable {}

    function setUp(IPoolManagerLike poolManager, PoolKey calldata key, uint160 sqrtPriceX96, Position[] calldata positions, Move calldata move) external {
        poolManager.initialize(key, sqrtPriceX96);
        manager = poolManager;
        poolManager.unlock(abi.encode(uint8(0), key, positions, move));
        manager = IPoolManagerLike(address(0));
    }

    /** Changes the actor's positions (liquidity added or removed), settling what is owed. */
    function modify(IPoolManagerLike poolManager, PoolKey calldata key, Change[] calldata changes) external {
        _act(poolManager, abi.encode(uint8(2), key, changes));
    }

    /**
     * A swap that stays: `amountSpecified` < 0 an exact input, > 0 an exact output (V4's convention), to `limit` (0:
     * RouterV2's price limit), settled.
     */
    function swap(IPoolManagerLike poolManager, PoolKey calldata key, bool zeroForOne, int256 amountSpecified, uint160 limit) external {
        _act(poolManager, abi.encode(uint8(3), key, zeroForOne, amountSpecified, limit));
    }

    /** Gives the in-range positions `amount0` and `amount1`, settled. */
    function donate(IPoolManagerLike poolManager, PoolKey calldata key, uint256 amount0, uint256 amount1) external {
        _act(poolManager, abi.encode(uint8(4), key, amount0, amount1));
    }

    function _act(IPoolManagerLike poolManager, bytes memory data) internal {
        manager = poolManager;
        poolManager.unlock(data);
        manager = IPoolManagerLike(address(0));
    }

    /** Each quote through V4Quoter and through the pool's own swap, at RouterV2's price limits; nothing stays. */
    function quote(IPoolManagerLike poolManager, IV4QuoterLike quoter, PoolKey calldata key, Quote[] calldata quotes) external returns (Outcome[] memory outcomes) {
        outcomes = new Outcome[](quotes.length);
        manager = poolManager;
        for (uint256 i = 0; i < quotes.length; i++) {
            Quote calldata q = quotes[i];
            Outcome memory o = outcomes[i];
            try poolManager.unlock(abi.encode(uint8(1), key, q)) {} catch (bytes memory reason) {
                if (reason.length == 100 && bytes4(reason) == Swapped.selector) {
                    o.ok = true;
                    (o.amountIn, o.amountOut, o.sqrtPriceAfter) = abi.decode(_tail(reason), (uint256, uint256, uint160));
                }
            }
            QuoteExactSingleParams memory params = QuoteExactSingleParams(key, q.zeroForOne, uint128(q.amount), "");
            if (q.exactInput) {
                try quoter.quoteExactInputSingle(params) returns (uint256 amountOut, uint256) {
                    (o.quoterOk, o.quoterAmount) = (true, amountOut);
                } catch {}
            } else {
                try quoter.quoteExactOutputSingle(params) returns (uint256 amountIn, uint256) {
                    (o.quoterOk, o.quoterAmount) = (true, amountIn);
                } catch {}
            }
        }
        manager = IPoolManagerLike(address(0));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(manager), "not the pool manager");
        uint8 action = abi.decode(data, (uint8));
        if (action == 0) {
            (, PoolKey memory key, Position[] memory positions, Move memory move) = abi.decode(data, (uint8, PoolKey, Position[], Move));
            int256 owed0;
            int256 owed1;
            for (uint256 i = 0; i < positions.length; i++) {
                (int256 delta,) = manager.modifyLiquidity(key, ModifyLiquidityParams(positions[i].lower, positions[i].upper, int256(uint256(positions[i].liquidity)), bytes32(0)), "");
                owed0 += _amount0(delta);
                owed1 += _amount1(delta);
            }
            if (move.active) {
                uint160 limit = move.limit != 0 ? move.limit : (move.zeroForOne ? MIN_SQRT_PRICE + 1 : MAX_SQRT_PRICE - 1);
                int256 delta = manager.swap(key, SwapParams(move.zeroForOne, -int256(move.amount), limit), "");
                owed0 += _amount0(delta);
                owed1 += _amount1(delta);
            }
            _square(key.currency0, owed0);
            _square(key.currency1, owed1);
            return "";
        }
        if (action >= 2) {
            _actCallback(action, data);
            return "";
        }
        (, PoolKey memory k, Quote memory q) = abi.decode(data, (uint8, PoolKey, Quote));
        int256 d = manager.swap(k, SwapParams(q.zeroForOne, q.exactInput ? -int256(q.amount) : int256(q.amount), q.zeroForOne ? MIN_SQRT_PRICE + 1 : MAX_SQRT_PRICE - 1), "");
        (int256 a0, int256 a1) = (_amount0(d), _amount1(d));
        (int256 paid, int256 got) = q.zeroForOne ? (a0, a1) : (a1, a0);
        revert Swapped(uint256(-paid), uint256(got), _sqrtPrice(k));
    }

    /** `modify` (2), `swap` (3), `donate` (4) inside the manager's unlock: the action, then what is owed squared. */
    function _actCallback(uint8 action, bytes calldata data) internal {
        int256 delta;
        PoolKey memory key;
        if (action == 2) {
            Change[] memory changes;
            (, key, changes) = abi.decode(data, (uint8, PoolKey, Change[]));
            (int256 owed0, int256 owed1) = (int256(0), int256(0));
            for (uint256 i = 0; i < changes.length; i++) {
                (int256 d,) = manager.modifyLiquidity(key, ModifyLiquidityParams(changes[i].lower, changes[i].upper, changes[i].liquidityDelta, bytes32(0)), "");
                owed0 += _amount0(d);
                owed1 += _amount1(d);
            }
            _square(key.currency0, owed0);
            _square(key.currency1, owed1);
            return;
        } else if (action == 3) {
            bool zeroForOne;
            int256 amountSpecified;
            uint160 limit;
            (, key, zeroForOne, amountSpecified, limit) = abi.decode(data, (uint8, PoolKey, bool, int256, uint160));
            if (limit == 0) limit = zeroForOne ? MIN_SQRT_PRICE + 1 : MAX_SQRT_PRICE - 1;
            delta = manager.swap(key, SwapParams(zeroForOne, amountSpecified, limit), "");
        } else {
            uint256 amount0;
            uint256 amount1;
            (, key, amount0, amount1) = abi.decode(data, (uint8, PoolKey, uint256, uint256));
            delta = manager.donate(key, amount0, amount1, "");
        }
        _square(key.currency0, _amount0(delta));
        _square(key.currency1, _amount1(delta));
    }

    /** Pays what is owed to the manager (a negative delta) and takes what it owes (a positive one). */
    function _square(address currency, int256 delta) internal {
        if (delta < 0) {
            uint256 owed = uint256(-delta);
            if (currency == address(0)) {
                manager.settle{value: owed}();
            } else {
                manager.sync(currency);
                require(IERC20Like(currency).transfer(address(manager), owed), "transfer");
                manager.settle();
            }
        } else if (delta > 0) {
            manager.take(currency, address(this), uint256(delta));
        }
    }

    function _sqrtPrice(PoolKey memory key) internal view returns (uint160) {
        bytes32 id = keccak256(abi.encode(key));
        return uint160(uint256(manager.extsload(keccak256(abi.encodePacked(id, POOLS_SLOT)))));
    }

    function _amount0(int256 delta) internal pure returns (int256) {
        return int256(int128(delta >> 128));
    }

    function _amount1(int256 delta) internal pure returns (int256) {
        return int256(int128(delta));
    }

    function _tail(bytes memory reason) internal pure returns (bytes memory tail) {
        tail = new bytes(reason.length - 4);
        for (uint256 i = 0; i < tail.length; i++) tail[i] = reason[i + 4];
    }
}
