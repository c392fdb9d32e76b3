// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchpadFixture} from "../fixtures/LaunchpadFixture.sol";
import {RouterV2} from "../../../src/router/RouterV2.sol";
import {IRouterV2} from "../../../src/router/interfaces/IRouterV2.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice The launchpad's transactions fit a HyperEVM small block (chain 999): 2,000,000 gas. Big blocks come
/// once a minute and only to accounts that opted in, so a creator or a buyer on chain 999 must not need one.
///
/// Each test measures one transaction from the same kind of fixture state: forge runs every test function as its
/// own transaction after `setUp`, so every account and slot the call touches starts cold, as in a real
/// transaction. A transaction's gas is counted as a wallet must budget it: 21,000, plus the calldata (4 gas per
/// zero byte, 16 per other byte), plus the execution before the end-of-transaction refund, measured with
/// `gasleft()` around the call (which also counts the call's own cold-account and value-transfer costs, a
/// transaction's target being warm: a few thousand gas of margin). The figures are logged (`forge test -vv`).
contract LaunchpadGasTest is LaunchpadFixture {
    event log_named_uint(string key, uint256 val);

    /// @notice A HyperEVM small block's gas limit: no launchpad transaction may need more.
    uint256 internal constant SMALL_BLOCK_GAS_LIMIT = 2_000_000;

    /// @notice `test_gas_transfer_byAHolderWhoIsNotTheCreator` measured on the token before the creator's sell
    /// lock: the lock may add at most 5% to it.
    uint256 internal constant TRANSFER_GAS_BEFORE_THE_LOCK = 42_408;

    /// @dev A creation's metadata as a launch page fills it: an IPFS image, a 280-character description, links.
    string internal constant NAME = "Hyper Liquid Frog Coin";
    string internal constant SYMBOL = "HLFROG";
    string internal constant IMAGE = "ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku";
    string internal constant DESCRIPTION = "The frog that hops across every block of the chain. Community owned, no team allocation, no presale: "
        "every token is bought on the curve, and at graduation the pool opens at the curve's last price. Join "
        "the pond, and ribbit responsibly. Not financial advice; frogs cannot give any.";
    string internal constant WEBSITE = "https://hyperliquidfrog.example.com";
    string internal constant TWITTER = "https://x.com/hyperliquidfrog";
    string internal constant TELEGRAM = "https://t.me/hyperliquidfrog";
    string internal constant DISCORD = "https://discord.gg/hyperliquidfrog";

    RouterV2 internal router;
    /// @dev A token with a few trades on its curve.
    address internal token;
    /// @dev Like `token`, one buy short of selling out.
    address internal nearlySoldOut;
    /// @dev A token whose curve sold out before its pair was deployed.
    address internal soldOut;

    function setUp() public override {
        super.setUp();
        assertEq(bytes(DESCRIPTION).length, 280);
        router = new RouterV2(owner, address(wrapped), makeAddr("treasury"));
        router.setSource(4, IRouterV2.SourceKind.Launchpad, address(launchpad), 100);
        vm.deal(creator, 10_000 ether);

        token = _create(bob, 1 ether);
        _buy(alice, token, 20 ether);
        nearlySoldOut = _create(bob, 1 ether);
        _buy(alice, nearlySoldOut, 500 ether);
        soldOut = _create(bob, 1 ether);
        _sellOut(alice, soldOut);
        // The balances these transactions pay to are not new accounts.
        vm.deal(alice, 1 ether);
        _buy(bob, token, 1 ether);
    }

    // ---------------------------------------------------------------- createToken

    function test_gas_createToken_withoutPurchase() public {
        uint256 gas = _createToken(0, DESCRIPTION);
        emit log_named_uint("createToken, no purchase", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    function test_gas_createToken_withTheCreatorsPurchase() public {
        uint256 gas = _createToken(10 ether, DESCRIPTION);
        emit log_named_uint("createToken, creator's purchase", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The heaviest creation: the creator's purchase sells out the curve and, the pair being deployed
    /// (anyone may deploy it in advance), graduates the token in the same call.
    function test_gas_createToken_sellingOutAndGraduating() public {
        factory.createPair(_predictToken(creator, NAME, SYMBOL), address(wrapped));
        uint256 gas = _createToken(SELL_OUT, DESCRIPTION);
        assertTrue(launchpad.getTokenState(_lastToken()).graduated);
        emit log_named_uint("createToken, purchase selling out and graduating", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The metadata is stored, so it is what a creation's gas grows with: about 660 gas a byte (a 32-byte
    /// storage word, plus calldata and the creation event). Logged.
    function test_gas_createToken_costOfLongerMetadata() public {
        string memory longer = _text(800);
        uint256 base = _createToken(10 ether, DESCRIPTION);
        uint256 more = _createToken(10 ether, longer);
        uint256 perByte = (more - base) / (bytes(longer).length - bytes(DESCRIPTION).length);
        emit log_named_uint("createToken, creator's purchase, 800-byte description", more);
        emit log_named_uint("gas per added metadata byte", perByte);
        assertLe(more, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The heaviest creation the limits allow: every metadata field at its limit, and a purchase that
    /// sells out the curve and graduates the token into its pair deployed in advance.
    function test_gas_createToken_metadataAtItsLimits_sellingOutAndGraduating() public {
        string memory name = _text(32);
        string memory symbol = _text(16);
        factory.createPair(_predictToken(creator, name, symbol), address(wrapped));
        bytes memory data = abi.encodeCall(
            launchpad.createToken,
            (name, symbol, _text(200), _text(800), _text(100), _text(100), _text(100), _text(100), 0)
        );
        uint256 gas = _send(creator, address(launchpad), SELL_OUT, data);
        assertTrue(launchpad.getTokenState(_lastToken()).graduated);
        emit log_named_uint("createToken, metadata at its limits, selling out and graduating", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice A metadata update with every field at its limit.
    function test_gas_updateTokenMetadata_atItsLimits() public {
        bytes memory data = abi.encodeCall(
            launchpad.updateTokenMetadata,
            (token, _text(200), _text(800), _text(100), _text(100), _text(100), _text(100))
        );
        uint256 gas = _send(bob, address(launchpad), 0, data);
        emit log_named_uint("updateTokenMetadata, fields at their limits", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    // ---------------------------------------------------------------- buys

    function test_gas_buyTokens() public {
        uint256 gas = _buyTokens(alice, token, 1 ether);
        emit log_named_uint("buyTokens", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The graduating buy, its pair deployed: it sells out the curve, refunds the rest and graduates the
    /// token (wraps the raised coin, seeds the pair, mints the LP shares).
    function test_gas_graduatingBuy() public {
        factory.createPair(nearlySoldOut, address(wrapped));
        uint256 gas = _buyTokens(alice, nearlySoldOut, SELL_OUT);
        assertTrue(launchpad.getTokenState(nearlySoldOut).graduated);
        emit log_named_uint("buyTokens, selling out and graduating", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The sell-out buy when nobody deployed the pair: the curve freezes, `graduate` follows.
    function test_gas_sellOutBuy_pairNotDeployed() public {
        uint256 gas = _buyTokens(alice, nearlySoldOut, SELL_OUT);
        assertFalse(launchpad.getTokenState(nearlySoldOut).graduated);
        emit log_named_uint("buyTokens, selling out (pair not deployed)", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice The graduating buy through the aggregator's RouterV2 (native coin in, `launchpad` source).
    function test_gas_graduatingBuy_throughRouterV2() public {
        factory.createPair(nearlySoldOut, address(wrapped));
        address[] memory tokens = new address[](2);
        tokens[1] = nearlySoldOut;
        IRouterV2.Swap[][] memory hops = new IRouterV2.Swap[][](1);
        hops[0] = new IRouterV2.Swap[](1);
        hops[0][0] = IRouterV2.Swap({
            pool: address(launchpad),
            tokenIn: address(wrapped),
            tokenOut: nearlySoldOut,
            routerIndex: 4,
            amountIn: SELL_OUT,
            data: ""
        });
        bytes memory data =
            abi.encodeCall(RouterV2.executeSwaps, (tokens, SELL_OUT, 1, 0, hops, uint256(0), address(0)));
        vm.deal(alice, alice.balance + SELL_OUT);
        uint256 gas = _send(alice, address(router), SELL_OUT, data);
        assertTrue(launchpad.getTokenState(nearlySoldOut).graduated);
        emit log_named_uint("RouterV2 buy, selling out and graduating", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    // ---------------------------------------------------------------- graduate

    /// @notice `graduate` after a sell-out that found no pair: deploys the pair (most of the cost) and seeds it.
    function test_gas_graduate_deployingThePair() public {
        uint256 gas = _send(bob, address(launchpad), 0, abi.encodeCall(launchpad.graduate, (soldOut)));
        assertTrue(launchpad.getTokenState(soldOut).graduated);
        emit log_named_uint("graduate, deploying the pair", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice `graduate` when someone deployed the pair after the sell-out.
    function test_gas_graduate_pairDeployed() public {
        factory.createPair(soldOut, address(wrapped));
        uint256 gas = _send(bob, address(launchpad), 0, abi.encodeCall(launchpad.graduate, (soldOut)));
        assertTrue(launchpad.getTokenState(soldOut).graduated);
        emit log_named_uint("graduate, pair deployed", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    /// @notice Deploying a token's pair through the DEX factory, as anyone may before graduation.
    function test_gas_deployingAPairThroughTheFactory() public {
        uint256 gas = _send(bob, address(factory), 0, abi.encodeCall(factory.createPair, (token, address(wrapped))));
        emit log_named_uint("DEX factory createPair", gas);
        assertLe(gas, SMALL_BLOCK_GAS_LIMIT);
    }

    // ---------------------------------------------------------------- token transfers

    /// @notice A plain transfer of a launched token by a holder who is not its creator, to an address that
    /// already holds some: what every holder pays on every transfer. The creator's sell lock adds one comparison
    /// to it; the figure must stay within 5% of TRANSFER_GAS_BEFORE_THE_LOCK, the same transfer measured with
    /// this bench before the token carried the lock.
    function test_gas_transfer_byAHolderWhoIsNotTheCreator() public {
        // `token`'s holders: alice bought on its curve, bob created it with a first purchase.
        bytes memory data = abi.encodeCall(IERC20.transfer, (bob, 1e6));
        uint256 gas = _send(alice, token, 0, data);
        emit log_named_uint("transfer by a holder who is not the creator", gas);
        assertLe(gas, TRANSFER_GAS_BEFORE_THE_LOCK * 105 / 100);
    }

    // ---------------------------------------------------------------- helpers

    function _createToken(uint256 value, string memory description) internal returns (uint256) {
        bytes memory data = abi.encodeCall(
            launchpad.createToken, (NAME, SYMBOL, IMAGE, description, WEBSITE, TWITTER, TELEGRAM, DISCORD, 0)
        );
        return _send(creator, address(launchpad), value, data);
    }

    function _buyTokens(address who, address token_, uint256 value) internal returns (uint256) {
        vm.deal(who, who.balance + value);
        return _send(who, address(launchpad), value, abi.encodeCall(launchpad.buyTokens, (token_)));
    }

    function _lastToken() internal view returns (address) {
        (address[] memory tokens,) = launchpad.getPaginatedTokensWithMetadata(launchpad.getTokenCount() - 1, 1);
        return tokens[0];
    }

    /// @dev Sends `data` with `value` from `from` to `to` and returns the transaction's gas: intrinsic, calldata
    /// and execution (before the refund).
    function _send(address from, address to, uint256 value, bytes memory data) internal returns (uint256) {
        vm.deal(address(this), address(this).balance + value);
        vm.prank(from);
        uint256 before = gasleft();
        (bool ok, bytes memory result) = to.call{value: value}(data);
        uint256 execution = before - gasleft();
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
        return 21_000 + _calldataGas(data) + execution;
    }

    function _calldataGas(bytes memory data) internal pure returns (uint256 gas) {
        for (uint256 i; i < data.length; ++i) {
            gas += data[i] == 0 ? 4 : 16;
        }
    }
}
