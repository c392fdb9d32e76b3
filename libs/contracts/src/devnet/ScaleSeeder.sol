// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {TestERC20} from "../TestERC20.sol";

/// @notice The pair factories the seeder creates pools on (Uniswap V2 and Solidly-style stable).
interface IScaleV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IScaleStableFactory {
    function createPair(address tokenA, address tokenB, bool stable) external returns (address pool);
}

interface IScaleMintablePool {
    function mint(address to) external returns (uint256 liquidity);
}

/// @title ScaleSeeder
/// @notice Devnet only: creates many test tokens and seeded pools in a few transactions, for the devnet's scale
/// profile (thousands of pools). It owns the tokens it creates and pays every deposit from its own balances.
contract ScaleSeeder {
    /// @notice The account allowed to seed.
    address public immutable owner;
    /// @notice Every token this seeder created, in creation order.
    address[] public tokens;

    /// @notice Only the owner seeds.
    error NotOwner();
    /// @notice The per-pool arrays differ in length.
    error LengthMismatch();
    /// @notice A token transfer failed.
    error TransferFailed(address token);

    /// @notice Emitted after tokens were created.
    /// @param first The index of the first created token in `tokens`.
    /// @param count How many were created.
    event TokensCreated(uint256 first, uint256 count);

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @notice How many tokens the seeder created.
    /// @return The count.
    function tokenCount() external view returns (uint256) {
        return tokens.length;
    }

    /// @notice Deploys `count` test tokens named `<prefix><index>` with `decimals_` decimals and mints `supply`
    /// base units of each to this contract.
    /// @param prefix The name and symbol prefix.
    /// @param count How many tokens.
    /// @param decimals_ Their decimals.
    /// @param supply Base units minted of each.
    /// @return created The new tokens.
    function createTokens(string calldata prefix, uint256 count, uint8 decimals_, uint256 supply)
        external
        onlyOwner
        returns (address[] memory created)
    {
        created = new address[](count);
        uint256 first = tokens.length;
        for (uint256 i = 0; i < count; ++i) {
            string memory name = string.concat(prefix, Strings.toString(first + i));
            TestERC20 token = new TestERC20(name, name, decimals_);
            token.mint(address(this), supply);
            tokens.push(address(token));
            created[i] = address(token);
        }
        emit TokensCreated(first, count);
    }

    /// @notice Creates a pool of `factory` for each `(a[i], b[i])` and seeds it with `amountA[i]` and `amountB[i]`
    /// from this contract's balances; the LP shares go to `lpTo`.
    /// @param factory A Uniswap V2 factory, or a stable factory when `stable`.
    /// @param stable Whether `factory` is a stable-pool factory.
    /// @param a The first token of each pool.
    /// @param b The second token of each pool.
    /// @param amountA The deposit of `a[i]`.
    /// @param amountB The deposit of `b[i]`.
    /// @param lpTo The receiver of the LP shares.
    /// @return pools The created pools.
    function seedPools(
        address factory,
        bool stable,
        address[] calldata a,
        address[] calldata b,
        uint256[] calldata amountA,
        uint256[] calldata amountB,
        address lpTo
    ) external onlyOwner returns (address[] memory pools) {
        uint256 n = a.length;
        if (b.length != n || amountA.length != n || amountB.length != n) revert LengthMismatch();
        pools = new address[](n);
        for (uint256 i = 0; i < n; ++i) {
            address pool = stable
                ? IScaleStableFactory(factory).createPair(a[i], b[i], true)
                : IScaleV2Factory(factory).createPair(a[i], b[i]);
            _send(a[i], pool, amountA[i]);
            _send(b[i], pool, amountB[i]);
            IScaleMintablePool(pool).mint(lpTo);
            pools[i] = pool;
        }
    }

    /// @notice Sends `amounts[j]` of `tokenList[j]` to each of `accounts`.
    /// @param tokenList The tokens.
    /// @param accounts The receivers.
    /// @param amounts The amount of each token each receiver gets.
    function fund(address[] calldata tokenList, address[] calldata accounts, uint256[] calldata amounts)
        external
        onlyOwner
    {
        if (amounts.length != tokenList.length) revert LengthMismatch();
        for (uint256 j = 0; j < tokenList.length; ++j) {
            for (uint256 k = 0; k < accounts.length; ++k) {
                _send(tokenList[j], accounts[k], amounts[j]);
            }
        }
    }

    function _send(address token, address to, uint256 amount) private {
        if (!IERC20(token).transfer(to, amount)) revert TransferFailed(token);
    }
}
