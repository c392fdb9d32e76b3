// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IAmmPool} from "../../../src/amm/interfaces/IAmmPool.sol";
import {IAmmRouter} from "../../../src/amm/interfaces/IAmmRouter.sol";

/// @notice Stands in for a HyperCore read precompile when etched at its address: the fallback decodes the
/// uint32 index and returns the configured uint64 price (or reverts when told to fail).
contract PrecompileStub {
    error PrecompileFailed();

    mapping(uint32 index => uint64) public prices;
    bool public failing;

    function setPrice(uint32 index, uint64 price) external {
        prices[index] = price;
    }

    function setFailing(bool failing_) external {
        failing = failing_;
    }

    fallback(bytes calldata input) external returns (bytes memory) {
        if (failing) revert PrecompileFailed();
        uint32 index = abi.decode(input, (uint32));
        return abi.encode(prices[index]);
    }
}

/// @notice An oracle that always reverts.
contract RevertingOracle {
    error Down();

    function getPriceUsd(address) external pure returns (uint256, uint256) {
        revert Down();
    }
}

/// @notice An oracle that answers one word instead of two.
contract MalformedOracle {
    fallback() external {
        assembly {
            mstore(0, 1)
            return(0, 32)
        }
    }
}

/// @notice An ERC20 whose `transfer` and `transferFrom` return false instead of moving tokens; anyone mints.
contract ReturnsFalseToken is ERC20 {
    constructor() ERC20("Returns False", "FALSE") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function transfer(address, uint256) public pure override returns (bool) {
        return false;
    }

    function transferFrom(address, address, uint256) public pure override returns (bool) {
        return false;
    }
}

/// @notice An ERC20 that, once armed, calls back into a pool from `transferFrom` (a token with a transfer hook)
/// and records the revert selector it got; then completes the transfer normally. Anyone mints.
contract ReentrantToken is ERC20 {
    IAmmPool public pool;
    bytes4 public caught;
    bool public armed;

    constructor() ERC20("Reentrant", "REENT") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function arm(IAmmPool pool_) external {
        pool = pool_;
        armed = true;
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (armed) {
            armed = false;
            (address t0, address t1) = pool.getTokens();
            try pool.swap(t0, t1, 1, 0) {}
            catch (bytes memory reason) {
                // The first four bytes of the revert data: its selector.
                // forge-lint: disable-next-line(unsafe-typecast)
                caught = bytes4(reason);
            }
        }
        return super.transferFrom(from, to, value);
    }
}

/// @notice What RouterV2's `core` branch will do: check that the AMM router vouches for the pool, approve it
/// exactly `amountIn`, call its swap and keep the output.
contract CoreSourceCaller {
    error PoolNotVouched(address pool);

    function swapVia(
        IAmmRouter ammRouter,
        address pool,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        bytes32 refCode
    ) external returns (uint256 amountOut) {
        if (pool == address(0) || ammRouter.getPoolForPair(tokenIn, tokenOut) != pool) {
            revert PoolNotVouched(pool);
        }
        ERC20(tokenIn).approve(pool, amountIn);
        amountOut = refCode == bytes32(0)
            ? IAmmPool(pool).swap(tokenIn, tokenOut, amountIn, minOut)
            : IAmmPool(pool).swap(tokenIn, tokenOut, amountIn, minOut, refCode);
    }
}

/// @notice An ERC20 whose transfers out can be frozen (a token with a blocklist or a pause); anyone mints.
contract FreezableToken is ERC20 {
    error Frozen();

    bool public frozen;

    constructor() ERC20("Freezable", "FRZ") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setFrozen(bool frozen_) external {
        frozen = frozen_;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        if (frozen) revert Frozen();
        return super.transfer(to, value);
    }
}
