// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {LaunchpadFixture, VmLogs} from "../fixtures/LaunchpadFixture.sol";
import {
    NativeRefuser,
    ReentrantTrader,
    FalseReturningWrappedNative,
    MisreportingFactory,
    HashlessV2Factory,
    ListingFactory
} from "../mocks/LaunchpadMocks.sol";
import {Launchpad} from "../../../src/launchpad/Launchpad.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {UniswapV2Factory} from "../../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

contract LaunchpadTest is LaunchpadFixture {
    /// @dev The non-indexed fields of TokenCreated, in order, for decoding its data.
    struct TokenCreatedData {
        string name;
        string symbol;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
        uint256 creationTimestamp;
        uint256 startingLiquidity;
        uint256 currentHypeReserves;
        uint256 currentTokenReserves;
        uint256 totalSupply;
        uint256 currentPrice;
        uint256 initialPurchaseAmount;
    }

    /// @dev The non-indexed fields of TokenMetadataUpdated, in order.
    struct MetadataUpdatedData {
        string name;
        string symbol;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
        uint256 timestamp;
    }

    // ---------------------------------------------------------------- constants and construction

    function test_constants() public view {
        assertEq(launchpad.VIRTUAL_HYPE_LIQUIDITY(), 300 ether);
        assertEq(launchpad.TOTAL_SUPPLY(), 1e15);
        assertEq(launchpad.CURVE_SALE_SUPPLY() + launchpad.DEX_RESERVE_SUPPLY(), launchpad.TOTAL_SUPPLY());
        assertEq(launchpad.INITIAL_VIRTUAL_TOKEN_RESERVE(), Y0);
        assertEq(launchpad.GRADUATION_TOKEN_RESERVE(), Y0 - launchpad.CURVE_SALE_SUPPLY());
        assertEq(launchpad.FEE_BPS(), 100);
        assertEq(launchpad.CREATOR_SELL_LOCK(), 1 hours);
        // The curve's final price equals the pool's opening price: raised / reserved = x_end / y_end.
        uint256 xEnd = V * Y0 / Y_END;
        assertEq((xEnd - V) * Y_END, xEnd * RESERVED);
        assertEq(xEnd - V, 600 ether);
    }

    function test_constructor() public view {
        assertEq(launchpad.wrappedNative(), address(wrapped));
        assertEq(launchpad.protocolFeeRecipient(), protocol);
        assertEq(launchpad.dexCount(), 1);
        assertEq(launchpad.dexes(0), address(factory));
        assertEq(launchpad.dexPairCodeHash(0), keccak256(type(UniswapV2Pair).creationCode));
        assertEq(launchpad.owner(), owner);
        assertEq(LaunchpadToken(launchpad.tokenImplementation()).launchpad(), address(launchpad));
        assertEq(launchpad.getTokenCount(), 0);
    }

    function test_constructor_revertsOnZeroAddresses() public {
        vm.expectRevert(ILaunchpad.ZeroAddress.selector);
        new Launchpad(address(0), address(factory), pairCodeHash, protocol);
        vm.expectRevert(ILaunchpad.ZeroAddress.selector);
        new Launchpad(address(wrapped), address(0), pairCodeHash, protocol);
        vm.expectRevert(ILaunchpad.ZeroAddress.selector);
        new Launchpad(address(wrapped), address(factory), pairCodeHash, address(0));
    }

    function test_constructor_verifiesThePairCodeHash() public {
        bytes32 wrong = keccak256("wrong");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashMismatch.selector, address(factory), wrong));
        new Launchpad(address(wrapped), address(factory), wrong, protocol);
        HashlessV2Factory hashless = new HashlessV2Factory();
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashUnverifiable.selector, address(hashless)));
        new Launchpad(address(wrapped), address(hashless), pairCodeHash, protocol);
        hashless.createPair(makeAddr("a"), makeAddr("b"));
        Launchpad lp = new Launchpad(address(wrapped), address(hashless), pairCodeHash, protocol);
        assertEq(lp.dexes(0), address(hashless));
        assertEq(lp.dexPairCodeHash(0), pairCodeHash);
    }

    // ---------------------------------------------------------------- owner functions

    function test_setDex_replacesAndAppends() public {
        address other = address(new UniswapV2Factory(owner, 25));
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.DexSet(1, other);
        launchpad.setDex(1, other, pairCodeHash);
        assertEq(launchpad.dexCount(), 2);
        assertEq(launchpad.dexes(1), other);
        assertEq(launchpad.dexPairCodeHash(1), pairCodeHash);
        launchpad.setDex(0, other, pairCodeHash);
        assertEq(launchpad.dexes(0), other);
        assertEq(launchpad.dexCount(), 2);
    }

    function test_setDex_reverts() public {
        vm.expectRevert(ILaunchpad.ZeroAddress.selector);
        launchpad.setDex(0, address(0), pairCodeHash);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.UnsupportedDexIndex.selector, uint8(2)));
        launchpad.setDex(2, address(factory), pairCodeHash);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        launchpad.setDex(0, address(factory), pairCodeHash);
    }

    // ---------------------------------------------------------------- setDex: pair code hash verification

    /// @notice A factory with pairs: the hash must put its first pair at that pair's address.
    function test_setDex_factoryWithPairs_verifiesTheHashAgainstItsFirstPair() public {
        UniswapV2Factory other = new UniswapV2Factory(owner, 25);
        other.createPair(makeAddr("a"), makeAddr("b"));
        launchpad.setDex(1, address(other), pairCodeHash);
        assertEq(launchpad.dexPairCodeHash(1), pairCodeHash);
        bytes32 wrong = keccak256("wrong");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashMismatch.selector, address(other), wrong));
        launchpad.setDex(1, address(other), wrong);
        assertEq(launchpad.dexPairCodeHash(1), pairCodeHash);
    }

    /// @notice A factory without INIT_CODE_PAIR_HASH and without a pair cannot be checked, even with the right
    /// hash; once it has a pair, the pair decides.
    function test_setDex_factoryWithoutTheGetter() public {
        HashlessV2Factory hashless = new HashlessV2Factory();
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashUnverifiable.selector, address(hashless)));
        launchpad.setDex(1, address(hashless), pairCodeHash);
        assertEq(launchpad.dexCount(), 1);

        hashless.createPair(makeAddr("b"), makeAddr("a"));
        bytes32 wrong = keccak256("wrong");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashMismatch.selector, address(hashless), wrong));
        launchpad.setDex(1, address(hashless), wrong);
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.DexSet(1, address(hashless));
        launchpad.setDex(1, address(hashless), pairCodeHash);
        assertEq(launchpad.dexes(1), address(hashless));
        assertEq(launchpad.dexPairCodeHash(1), pairCodeHash);
    }

    /// @notice A factory with INIT_CODE_PAIR_HASH and no pair: the hash must equal the reported one.
    function test_setDex_factoryWithTheGetterAndNoPair() public {
        UniswapV2Factory other = new UniswapV2Factory(owner, 25);
        assertEq(other.allPairsLength(), 0);
        bytes32 wrong = keccak256("wrong");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashMismatch.selector, address(other), wrong));
        launchpad.setDex(1, address(other), wrong);
        launchpad.setDex(1, address(other), pairCodeHash);
        assertEq(launchpad.dexPairCodeHash(1), pairCodeHash);
    }

    /// @notice When the factory has pairs, its first pair outweighs what it reports: a reported hash that matches
    /// the given one does not help if the first pair is not where that hash puts it.
    function test_setDex_theFirstPairOutweighsTheReportedHash() public {
        UniswapV2Factory other = new UniswapV2Factory(owner, 25);
        address pair = other.createPair(makeAddr("a"), makeAddr("b"));
        ListingFactory listing = new ListingFactory(pair, pairCodeHash);
        vm.expectRevert(
            abi.encodeWithSelector(ILaunchpad.PairCodeHashMismatch.selector, address(listing), pairCodeHash)
        );
        launchpad.setDex(1, address(listing), pairCodeHash);
    }

    /// @notice A first pair that does not answer token0 / token1, or a factory without code, cannot be checked.
    function test_setDex_revertsWhenNothingCanBeChecked() public {
        ListingFactory listing = new ListingFactory(makeAddr("not a pair"), pairCodeHash);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashUnverifiable.selector, address(listing)));
        launchpad.setDex(1, address(listing), pairCodeHash);
        address eoa = makeAddr("eoa");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.PairCodeHashUnverifiable.selector, eoa));
        launchpad.setDex(1, eoa, pairCodeHash);
    }

    /// @notice A token created on a factory without INIT_CODE_PAIR_HASH (registered through its first pair) locks
    /// the address that factory deploys its pair at, and graduates into it.
    function test_setDex_factoryWithoutTheGetter_tokensGraduate() public {
        HashlessV2Factory hashless = new HashlessV2Factory();
        hashless.createPair(makeAddr("a"), makeAddr("b"));
        launchpad.setDex(0, address(hashless), pairCodeHash);
        address token = _create(creator, 1 ether);
        address locked = launchpad.getTokenState(token).pair;
        UniswapV2Pair pair = _graduate(alice, token);
        assertEq(address(pair), locked);
        assertEq(hashless.getPair(token, address(wrapped)), locked);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertGt(pair.balanceOf(address(launchpad)), 0);
    }

    function test_setDex_tokensKeepTheirPair() public {
        address token = _create(creator, 0);
        address pair = launchpad.getTokenState(token).pair;
        launchpad.setDex(0, address(new UniswapV2Factory(owner, 25)), pairCodeHash);
        _graduate(alice, token);
        assertEq(launchpad.getTokenState(token).pair, pair);
        assertGt(UniswapV2Pair(pair).balanceOf(address(launchpad)), 0);
    }

    function test_setProtocolFeeRecipient() public {
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.ProtocolFeeRecipientUpdated(bob);
        launchpad.setProtocolFeeRecipient(bob);
        assertEq(launchpad.protocolFeeRecipient(), bob);
        vm.expectRevert(ILaunchpad.ZeroAddress.selector);
        launchpad.setProtocolFeeRecipient(address(0));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        launchpad.setProtocolFeeRecipient(alice);
    }

    // ---------------------------------------------------------------- createToken

    function test_createToken_withoutValue() public {
        vm.warp(1_000_000);
        address token = _create(creator, 0, "Moon", "MOON");
        assertEq(launchpad.getTokenCount(), 1);
        assertEq(launchpad.getTokenCreator(token), creator);
        assertTrue(launchpad.isLaunchpadToken(token));

        LaunchpadToken t = LaunchpadToken(token);
        assertEq(t.name(), "Moon");
        assertEq(t.symbol(), "MOON");
        assertEq(uint256(t.decimals()), 6);
        assertEq(t.totalSupply(), SUPPLY);
        assertEq(t.balanceOf(address(launchpad)), SUPPLY);
        assertEq(t.launchpad(), address(launchpad));

        ILaunchpad.TokenMetadata memory m = launchpad.getTokenMetadata(token);
        assertEq(m.name, "Moon");
        assertEq(m.symbol, "MOON");
        assertEq(m.image_uri, "ipfs://image");
        assertEq(m.description, "a description");
        assertEq(m.website, "https://site");
        assertEq(m.twitter, "@tkn");
        assertEq(m.telegram, "t.me/tkn");
        assertEq(m.discord, "discord.gg/tkn");
        assertEq(m.creator, creator);
        assertEq(m.creationTimestamp, 1_000_000);
        assertEq(m.startingLiquidity, V);
        assertEq(uint256(m.dexIndex), 0);

        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        assertEq(x, V);
        assertEq(y, Y0);
        // The pair's address is fixed and locked in the token, but the pair is not deployed yet.
        ILaunchpad.TokenState memory s = launchpad.getTokenState(token);
        assertEq(s.pair, _pairAddress(factory, token));
        assertEq(t.pool(), s.pair);
        assertEq(s.pair.code.length, 0);
        assertEq(factory.getPair(token, address(wrapped)), address(0));
        assertFalse(s.graduated);
        assertEq(launchpad.getRealHypeReserve(token), 0);
        assertEq(launchpad.getTokensForSale(token), launchpad.CURVE_SALE_SUPPLY());
    }

    function test_createToken_creatorBuysFirstInTheSameCall() public {
        uint256 value = 5 ether;
        (uint256 expected, uint256 newX) = _refBuy(V, Y0, value);
        address token = _create(creator, value);
        assertEq(LaunchpadToken(token).balanceOf(creator), expected);
        assertEq(creator.balance, 0);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        assertEq(x, newX);
        assertEq(y, Y0 - expected);
        assertEq(address(launchpad).balance, value);
        assertEq(launchpad.getRealHypeReserve(token), value - _fee(value));
        assertEq(launchpad.creatorFees(creator) + launchpad.protocolFees(), _fee(value));
    }

    function test_createToken_emitsTokenCreatedWithEveryField() public {
        vm.warp(2_000_000);
        uint256 value = 2 ether;
        (uint256 bought, uint256 newX) = _refBuy(V, Y0, value);
        vmLogs.recordLogs();
        address token = _create(creator, value, "Moon", "MOON");
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();
        VmLogs.Log memory log = _findLog(logs, ILaunchpad.TokenCreated.selector);
        assertEq(log.topics.length, 3);
        assertEq(log.topics[1], bytes32(uint256(uint160(token))));
        assertEq(log.topics[2], bytes32(uint256(uint160(creator))));
        TokenCreatedData memory d = abi.decode(bytes.concat(bytes32(uint256(0x20)), log.data), (TokenCreatedData));
        assertEq(d.name, "Moon");
        assertEq(d.symbol, "MOON");
        assertEq(d.image_uri, "ipfs://image");
        assertEq(d.description, "a description");
        assertEq(d.website, "https://site");
        assertEq(d.twitter, "@tkn");
        assertEq(d.telegram, "t.me/tkn");
        assertEq(d.discord, "discord.gg/tkn");
        assertEq(d.creationTimestamp, 2_000_000);
        assertEq(d.startingLiquidity, V);
        assertEq(d.currentHypeReserves, newX);
        assertEq(d.currentTokenReserves, Y0 - bought);
        assertEq(d.totalSupply, SUPPLY);
        assertEq(d.currentPrice, newX * 1e6 / (Y0 - bought));
        assertEq(d.initialPurchaseAmount, bought);
        // The data is exactly the standard encoding of the event's fields.
        assertEq(log.data.length + 32, abi.encode(d).length);
        // The creation is logged before the creator's purchase.
        uint256 createdAt;
        uint256 purchasedAt;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != address(launchpad)) continue;
            if (logs[i].topics[0] == ILaunchpad.TokenCreated.selector) createdAt = i;
            if (logs[i].topics[0] == ILaunchpad.TokensPurchased.selector) purchasedAt = i;
        }
        assertLt(createdAt, purchasedAt);
    }

    function test_createToken_withoutValue_emitsNoPurchase() public {
        vmLogs.recordLogs();
        _create(creator, 0);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();
        assertEq(_countLogs(logs, ILaunchpad.TokenCreated.selector), 1);
        assertEq(_countLogs(logs, ILaunchpad.TokensPurchased.selector), 0);
        TokenCreatedData memory d = abi.decode(
            bytes.concat(bytes32(uint256(0x20)), _findLog(logs, ILaunchpad.TokenCreated.selector).data),
            (TokenCreatedData)
        );
        assertEq(d.currentHypeReserves, V);
        assertEq(d.currentTokenReserves, Y0);
        assertEq(d.initialPurchaseAmount, 0);
    }

    function test_createToken_revertsOnOtherDexIndex() public {
        launchpad.setDex(1, address(new UniswapV2Factory(owner, 25)), pairCodeHash);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.UnsupportedDexIndex.selector, uint8(1)));
        launchpad.createToken("A", "A", "", "", "", "", "", "", 1);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.UnsupportedDexIndex.selector, uint8(255)));
        launchpad.createToken("A", "A", "", "", "", "", "", "", 255);
    }

    function test_createToken_revertsOnEmptyNameOrSymbol() public {
        vm.expectRevert(ILaunchpad.EmptyNameOrSymbol.selector);
        launchpad.createToken("", "A", "", "", "", "", "", "", 0);
        vm.expectRevert(ILaunchpad.EmptyNameOrSymbol.selector);
        launchpad.createToken("A", "", "", "", "", "", "", "", 0);
    }

    function test_createToken_acceptsMetadataAtItsLimits() public {
        vm.prank(creator);
        address token = launchpad.createToken(
            _text(32), _text(16), _text(200), _text(800), _text(100), _text(100), _text(100), _text(100), 0
        );
        ILaunchpad.TokenMetadata memory m = launchpad.getTokenMetadata(token);
        assertEq(bytes(m.name).length, 32);
        assertEq(bytes(m.symbol).length, 16);
        assertEq(bytes(m.description).length, 800);
        assertEq(bytes(m.discord).length, 100);
    }

    function test_createToken_revertsMetadataTooLongNamingTheField() public {
        string[8] memory fields =
            ["name", "symbol", "image_uri", "description", "website", "twitter", "telegram", "discord"];
        uint256[8] memory limits = [uint256(32), 16, 200, 800, 100, 100, 100, 100];
        for (uint256 i; i < 8; ++i) {
            string[8] memory values = ["A", "A", "", "", "", "", "", ""];
            values[i] = _text(limits[i] + 1);
            vm.expectRevert(
                abi.encodeWithSelector(ILaunchpad.MetadataTooLong.selector, fields[i], limits[i] + 1, limits[i])
            );
            vm.prank(creator);
            launchpad.createToken(
                values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7], 0
            );
        }
    }

    function test_createToken_countsTheLimitsInBytes() public {
        // "é" is two bytes of UTF-8: 17 of them are 34 bytes, over the name's 32.
        string memory name =
            "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.MetadataTooLong.selector, "name", 34, 32));
        vm.prank(creator);
        launchpad.createToken(name, "A", "", "", "", "", "", "", 0);
    }

    function test_createToken_revertsWhenThePurchaseBuysNothing() public {
        vm.deal(creator, 1);
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenPurchaseFailed.selector, uint256(1)));
        launchpad.createToken{value: 1}("A", "A", "", "", "", "", "", "", 0);
    }

    function test_createToken_revertsTokenCreationFailedWhenDeploymentFails() public {
        // Occupy the address the token would be deployed at, so CREATE2 fails.
        address predicted = _predictToken(creator, "Token", "TKN");
        vm.etch(predicted, hex"00");
        vm.prank(creator);
        vm.expectRevert(ILaunchpad.TokenCreationFailed.selector);
        launchpad.createToken("Token", "TKN", "", "", "", "", "", "", 0);
    }

    function test_createToken_predictedAddressMatches() public {
        address predicted = _predictToken(creator, "Token", "TKN");
        assertEq(_create(creator, 0), predicted);
    }

    function test_createToken_reusesAPairCreatedInAdvance() public {
        address predicted = _predictToken(creator, "Token", "TKN");
        address pair = factory.createPair(predicted, address(wrapped));
        address token = _create(creator, 1 ether);
        assertEq(token, predicted);
        assertEq(launchpad.getTokenState(token).pair, pair);
        _graduate(alice, token);
        assertTrue(launchpad.getTokenState(token).graduated);
    }

    function test_createToken_sellsOutWithAHugeValueAndRefunds() public {
        address token = _create(creator, 5000 ether);
        // Sold out in the creation: the curve is frozen; the pair is not deployed, so `graduate` completes it.
        assertEq(launchpad.getTokensForSale(token), 0);
        assertFalse(launchpad.getTokenState(token).graduated);
        assertEq(LaunchpadToken(token).balanceOf(creator), launchpad.CURVE_SALE_SUPPLY());
        assertGt(creator.balance, 5000 ether - 700 ether);
        launchpad.graduate(token);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees());
    }

    function test_createToken_sellsOutAndGraduatesAtOnceWhenThePairIsDeployed() public {
        factory.createPair(_predictToken(creator, "Token", "TKN"), address(wrapped));
        address token = _create(creator, 5000 ether);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees());
    }

    // ---------------------------------------------------------------- buyTokens

    function test_buyTokens_paysTheEstimateAndEmits() public {
        address token = _create(creator, 1 ether);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        uint256 value = 3 ether;
        uint256 estimate = launchpad.estimateBuy(token, value);
        (uint256 expected, uint256 newX) = _refBuy(x, y, value);
        assertEq(estimate, expected);
        uint256 newY = y - expected;

        vm.warp(block.timestamp + 5);
        vm.deal(alice, value);
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.TokensPurchased(
            token, alice, value, expected, newX * 1e6 / newY, block.timestamp, newX, newY, SUPPLY, "Token", "TKN"
        );
        vm.prank(alice);
        launchpad.buyTokens{value: value}(token);
        assertEq(LaunchpadToken(token).balanceOf(alice), expected);
        assertEq(alice.balance, 0);
        (x, y) = launchpad.getLiquidity(token);
        assertEq(x, newX);
        assertEq(y, newY);
    }

    function test_buyTokens_splitsTheFeeHalfAndHalf() public {
        address token = _create(creator, 0);
        uint256 value = 1 ether + 1; // fee = ceil(1% of it) = 0.01 ether + 1, odd
        _buy(alice, token, value);
        uint256 fee = _fee(value);
        assertEq(fee, 0.01 ether + 1);
        assertEq(launchpad.creatorFees(creator), fee / 2);
        assertEq(launchpad.protocolFees(), fee - fee / 2);
        assertEq(launchpad.getRealHypeReserve(token), value - fee);
    }

    function test_buyTokens_reverts() public {
        address token = _create(creator, 0);
        vm.expectRevert(ILaunchpad.ZeroAmount.selector);
        launchpad.buyTokens(token);

        vm.deal(alice, 10 ether);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, bob));
        launchpad.buyTokens{value: 1 ether}(bob);

        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenPurchaseFailed.selector, uint256(100)));
        launchpad.buyTokens{value: 100}(token);

        _graduate(bob, token);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.buyTokens{value: 1 ether}(token);
    }

    function test_buyTokens_sellOutIsFilledPartiallyAndRefunded() public {
        address token = _create(creator, 10 ether);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        uint256 remaining = launchpad.getTokensForSale(token);
        assertEq(remaining, y - Y_END);
        // The least native coin that buys the rest, fee included.
        uint256 netNeeded = (x * y + Y_END - 1) / Y_END - x;
        uint256 gross = (netNeeded * 10_000 + 9899) / 9900;
        if (gross - _fee(gross) < netNeeded) ++gross;
        assertLt(gross - 1 - _fee(gross - 1), netNeeded);

        uint256 value = 2000 ether;
        assertEq(launchpad.estimateBuy(token, value), remaining);
        vm.deal(alice, value);
        vmLogs.recordLogs();
        vm.prank(alice);
        launchpad.buyTokens{value: value}(token);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();

        assertEq(LaunchpadToken(token).balanceOf(alice), remaining);
        assertEq(alice.balance, value - gross, "refund");
        (uint256 hypeIn, uint256 tokensOut) =
            abi.decode(_findLog(logs, ILaunchpad.TokensPurchased.selector).data, (uint256, uint256));
        assertEq(hypeIn, gross);
        assertEq(tokensOut, remaining);
        // The pair is not deployed: the curve is frozen and the graduation waits for `graduate`.
        assertEq(_countLogs(logs, ILaunchpad.TokenGraduated.selector), 0);
        assertFalse(launchpad.getTokenState(token).graduated);
        assertEq(launchpad.getTokensForSale(token), 0);
        assertEq(launchpad.getRealHypeReserve(token), x + gross - _fee(gross) - V);
    }

    function test_buyTokens_refundToARefusingBuyerReverts() public {
        address token = _create(creator, 0);
        NativeRefuser refuser = new NativeRefuser(launchpad);
        vm.deal(address(this), SELL_OUT);
        vm.expectRevert();
        refuser.buy{value: SELL_OUT}(token);
        // Without a refund the same buyer is served.
        refuser.buy{value: 1 ether}(token);
        assertGt(LaunchpadToken(token).balanceOf(address(refuser)), 0);
    }

    // ---------------------------------------------------------------- graduation

    function test_graduation_seedsThePoolAndFreezes() public {
        address token = _create(creator, 1 ether);
        vm.warp(block.timestamp + 2 hours);
        _buy(alice, token, 100 ether);
        _sell(alice, token, LaunchpadToken(token).balanceOf(alice) / 3);
        uint256 raisedBefore = launchpad.getRealHypeReserve(token);
        assertGt(raisedBefore, 0);

        vmLogs.recordLogs();
        UniswapV2Pair pair = _graduate(bob, token);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();
        assertTrue(launchpad.getTokenState(token).graduated);
        assertTrue(LaunchpadToken(token).graduated());
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        assertEq(y, Y_END);
        uint256 raised = x - V;
        assertGe(raised, 600 ether);
        assertLt(raised, 600 ether + 0.001 ether);

        // Pool: all the raised native coin (wrapped) and the reserved tokens; the launchpad holds every LP share
        // except the pair's locked minimum.
        (uint256 tokenReserve, uint256 wrappedReserve) = _pairReserves(pair, token);
        assertEq(wrappedReserve, raised);
        assertEq(tokenReserve, RESERVED);
        assertEq(pair.balanceOf(address(launchpad)), pair.totalSupply() - 1000);
        assertEq(LaunchpadToken(token).balanceOf(address(launchpad)), 0);
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees());
        assertEq(launchpad.getRealHypeReserve(token), 0);
        // The pool opens at the curve's final price (within rounding).
        assertApproxEqAbs(wrappedReserve * 1e6 / tokenReserve, x * 1e6 / y, 1e6);

        _checkGraduatedLog(logs, token, pair, raised);
    }

    function _checkGraduatedLog(VmLogs.Log[] memory logs, address token, UniswapV2Pair pair, uint256 raised)
        internal
        view
    {
        VmLogs.Log memory log = _findLog(logs, ILaunchpad.TokenGraduated.selector);
        assertEq(log.topics[1], bytes32(uint256(uint160(token))));
        assertEq(log.topics[2], bytes32(uint256(uint160(address(pair)))));
        (uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity) = abi.decode(log.data, (uint256, uint256, uint256));
        assertEq(hypeAmount, raised);
        assertEq(tokenAmount, RESERVED);
        assertEq(liquidity, pair.balanceOf(address(launchpad)));
        assertEq(launchpad.getTokenState(token).lpPrincipal, _positionValue(pair));
    }

    function test_graduate_completesAGraduationTheSellOutCouldNotDo() public {
        address token = _create(creator, 1 ether);
        address pair = launchpad.getTokenState(token).pair;
        _sellOut(bob, token);
        // Frozen, not graduated: the pair is not deployed, the token still refuses deposits into it, the raised
        // coin is still held here.
        assertFalse(launchpad.getTokenState(token).graduated);
        assertFalse(LaunchpadToken(token).graduated());
        assertEq(pair.code.length, 0);
        uint256 raised = launchpad.getRealHypeReserve(token);
        assertGe(raised, 600 ether);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.estimateBuy(token, 1 ether);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.sellTokens(token, 1e6);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotGraduated.selector, token));
        launchpad.claimFees(token);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.PoolLockedUntilGraduation.selector, pair));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        LaunchpadToken(token).transfer(pair, 1);

        // Anyone completes it: the pair is deployed at the locked address and seeded.
        vm.expectEmit(true, true, false, false, address(launchpad));
        emit ILaunchpad.TokenGraduated(token, pair, 0, 0, 0);
        vm.prank(makeAddr("anyone"));
        launchpad.graduate(token);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertEq(factory.getPair(token, address(wrapped)), pair);
        (uint256 tokenReserve, uint256 wrappedReserve) = _pairReserves(UniswapV2Pair(pair), token);
        assertEq(wrappedReserve, raised);
        assertEq(tokenReserve, RESERVED);
        assertEq(UniswapV2Pair(pair).balanceOf(address(launchpad)), UniswapV2Pair(pair).totalSupply() - 1000);
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees());
        assertEq(launchpad.getRealHypeReserve(token), 0);
    }

    function test_graduate_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, alice));
        launchpad.graduate(alice);
        address token = _create(creator, 1 ether);
        // Still trading.
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.GraduationNotPending.selector, token));
        launchpad.graduate(token);
        // Already graduated (in the sell-out, its pair being deployed).
        factory.createPair(token, address(wrapped));
        _sellOut(bob, token);
        assertTrue(launchpad.getTokenState(token).graduated);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.GraduationNotPending.selector, token));
        launchpad.graduate(token);
    }

    /// @notice A DEX that deploys its pairs elsewhere than its INIT_CODE_PAIR_HASH says, registered before it
    /// listed a pair (so only its own report could be checked), is caught: the token's lock guards the predicted
    /// address, so the launchpad refuses to seed any other pair.
    function test_graduate_refusesAPairAtAnotherAddress() public {
        MisreportingFactory misreporting = new MisreportingFactory(factory);
        launchpad.setDex(0, address(misreporting), misreporting.INIT_CODE_PAIR_HASH());
        address token = _create(creator, 0);
        address locked = launchpad.getTokenState(token).pair;
        _sellOut(bob, token);
        address actual = _pairAddress(factory, token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.UnexpectedPair.selector, locked, actual));
        launchpad.graduate(token);
    }

    function test_graduation_freezesTheCurve() public {
        address token = _create(creator, 1 ether);
        UniswapV2Pair pair = _graduate(bob, token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.estimateBuy(token, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.estimateSell(token, 1e6);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenFrozen.selector, token));
        launchpad.sellTokens(token, 1e6);
        // The token now trades freely on the pair.
        assertGt(_pairSell(bob, pair, token, 1_000_000e6), 0);
    }

    // ---------------------------------------------------------------- sellTokens

    function test_sellTokens_needsNoApprovalPaysTheEstimateAndEmits() public {
        address token = _create(creator, 0);
        uint256 bought = _buy(alice, token, 10 ether);
        uint256 amount = bought / 2;
        assertEq(LaunchpadToken(token).allowance(alice, address(launchpad)), 0);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        (uint256 expected, uint256 newX) = _refSell(x, y, amount);
        assertEq(launchpad.estimateSell(token, amount), expected);
        uint256 newY = y + amount;

        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.TokensSold(
            token, alice, amount, expected, newX * 1e6 / newY, block.timestamp, newX, newY, SUPPLY, "Token", "TKN"
        );
        uint256 out = _sell(alice, token, amount);
        assertEq(out, expected);
        assertEq(LaunchpadToken(token).balanceOf(alice), bought - amount);
        (x, y) = launchpad.getLiquidity(token);
        assertEq(x, newX);
        assertEq(y, newY);
    }

    function test_sellTokens_feeIsTakenFromTheOutput() public {
        address token = _create(creator, 0);
        uint256 bought = _buy(alice, token, 10 ether);
        uint256 feesBefore = launchpad.creatorFees(creator) + launchpad.protocolFees();
        uint256 reserveBefore = launchpad.getRealHypeReserve(token);
        uint256 out = _sell(alice, token, bought);
        uint256 gross = reserveBefore - launchpad.getRealHypeReserve(token);
        assertEq(out, gross - _fee(gross));
        assertEq(launchpad.creatorFees(creator) + launchpad.protocolFees() - feesBefore, _fee(gross));
        assertLt(out, 10 ether);
        assertEq(
            address(launchpad).balance,
            launchpad.getRealHypeReserve(token) + launchpad.creatorFees(creator) + launchpad.protocolFees()
        );
    }

    function test_sellTokens_reverts() public {
        address token = _create(creator, 0);
        _buy(alice, token, 1 ether);
        vm.startPrank(alice);
        vm.expectRevert(ILaunchpad.ZeroAmount.selector);
        launchpad.sellTokens(token, 0);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, bob));
        launchpad.sellTokens(bob, 1);
        uint256 balance = LaunchpadToken(token).balanceOf(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.InsufficientBalance.selector, balance, balance + 1));
        launchpad.sellTokens(token, balance + 1);
        vm.stopPrank();
    }

    function test_sellTokens_creatorIsLockedForAnHour() public {
        vm.warp(10_000);
        address token = _create(creator, 1 ether);
        uint256 unlock = 10_000 + 1 hours;
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
        launchpad.sellTokens(token, 1e6);

        // Through a contract in a transaction the creator sends (e.g. a router), the lock holds too, even on
        // tokens that never were the creator's (the creator's own cannot leave its address: LaunchpadToken).
        NativeRefuser relay = new NativeRefuser(launchpad);
        _buy(alice, token, 0.1 ether);
        vm.prank(alice);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        LaunchpadToken(token).transfer(address(relay), 1e6);
        vm.prank(creator, creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
        relay.sell(token, 1e6);

        vm.warp(unlock - 1);
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
        launchpad.sellTokens(token, 1e6);

        vm.warp(unlock);
        assertGt(_sell(creator, token, 1e6), 0);
    }

    function test_sellTokens_payoutToARefuserReverts() public {
        address token = _create(creator, 0);
        NativeRefuser refuser = new NativeRefuser(launchpad);
        vm.deal(address(this), 1 ether);
        refuser.buy{value: 1 ether}(token);
        uint256 amount = LaunchpadToken(token).balanceOf(address(refuser));
        (uint256 expected,) = _refSell(V + 1 ether - _fee(1 ether), Y0 - amount, amount);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.EthTransferFailed.selector, address(refuser), expected));
        refuser.sell(token, amount);
    }

    function test_sellTokens_reentryIsRefused() public {
        address token = _create(creator, 0);
        ReentrantTrader trader = new ReentrantTrader(launchpad);
        vm.deal(address(this), 1 ether);
        trader.buy{value: 1 ether}(token);
        uint256 balance = LaunchpadToken(token).balanceOf(address(trader));
        // The payout's reentrant sale hits the guard, so the payout and the whole sale fail.
        vm.expectRevert(
            abi.encodeWithSelector(ILaunchpad.EthTransferFailed.selector, address(trader), _sellOut(token, balance / 2))
        );
        trader.sellReentering(token, balance / 2);
        assertEq(LaunchpadToken(token).balanceOf(address(trader)), balance);
    }

    function test_estimateSell_revertsWhenTheCurveCannotPay() public {
        address token = _create(creator, 1 ether);
        uint256 sold = Y0 - launchpad.getTokenState(token).tokenReserve;
        // Selling back everything sold is always covered; more than that is not.
        launchpad.estimateSell(token, sold);
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        uint256 amount = sold * 3;
        uint256 gross = x - (x * y + y + amount - 1) / (y + amount);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.InsufficientLiquidity.selector, gross, x - V));
        launchpad.estimateSell(token, amount);
    }

    function test_estimates_zeroAmountsAndUnknownTokens() public {
        address token = _create(creator, 0);
        assertEq(launchpad.estimateBuy(token, 0), 0);
        assertEq(launchpad.estimateBuy(token, 100), 0);
        assertEq(launchpad.estimateSell(token, 0), 0);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, alice));
        launchpad.estimateBuy(alice, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, alice));
        launchpad.estimateSell(alice, 1);
    }

    // ---------------------------------------------------------------- trading fees

    function test_withdrawCreatorFees() public {
        address token = _create(creator, 0);
        _buy(alice, token, 10 ether);
        uint256 accrued = launchpad.creatorFees(creator);
        assertEq(accrued, _fee(10 ether) / 2);
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.CreatorFeesWithdrawn(creator, accrued);
        vm.prank(creator);
        assertEq(launchpad.withdrawCreatorFees(), accrued);
        assertEq(creator.balance, accrued);
        assertEq(launchpad.creatorFees(creator), 0);
        vm.prank(creator);
        assertEq(launchpad.withdrawCreatorFees(), 0);
        vm.prank(alice);
        assertEq(launchpad.withdrawCreatorFees(), 0);
    }

    function test_withdrawCreatorFees_toARefuserReverts() public {
        NativeRefuser refuser = new NativeRefuser(launchpad);
        address token = refuser.create();
        _buy(alice, token, 1 ether);
        uint256 accrued = launchpad.creatorFees(address(refuser));
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.EthTransferFailed.selector, address(refuser), accrued));
        refuser.withdrawCreatorFees();
    }

    function test_withdrawProtocolFees() public {
        address token = _create(creator, 0);
        _buy(alice, token, 10 ether);
        uint256 accrued = launchpad.protocolFees();
        assertEq(accrued, _fee(10 ether) - _fee(10 ether) / 2);
        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.ProtocolFeesWithdrawn(protocol, accrued);
        vm.prank(bob);
        assertEq(launchpad.withdrawProtocolFees(), accrued);
        assertEq(protocol.balance, accrued);
        assertEq(bob.balance, 0);
        assertEq(launchpad.withdrawProtocolFees(), 0);
    }

    // ---------------------------------------------------------------- claimFees

    function test_claimFees_reverts() public {
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotCreatedByFactory.selector, alice));
        launchpad.claimFees(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotCreatedByFactory.selector, alice));
        launchpad.previewClaimFees(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotCreatedByFactory.selector, alice));
        launchpad.getClaimedFeesAndBurnedTokens(alice);
        address token = _create(creator, 0);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotGraduated.selector, token));
        launchpad.claimFees(token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotGraduated.selector, token));
        launchpad.previewClaimFees(token);
    }

    function test_claimFees_nothingRightAfterGraduation() public {
        address token = _create(creator, 0);
        _graduate(alice, token);
        (uint256 w, uint256 t) = launchpad.previewClaimFees(token);
        assertEq(w + t, 0);
        assertEq(launchpad.claimFees(token), 0);
    }

    function test_claimFees_collectsTheLpFees() public {
        address token = _create(creator, 0);
        UniswapV2Pair pair = _graduate(alice, token);
        uint256 principal = launchpad.getTokenState(token).lpPrincipal;
        // Trading on the pair earns fees.
        for (uint256 i; i < 5; ++i) {
            uint256 out = _pairBuy(bob, pair, 50 ether);
            _pairSell(bob, pair, token, out);
        }
        uint256 supplyBefore = LaunchpadToken(token).totalSupply();
        uint256 lpBefore = pair.balanceOf(address(launchpad));

        (uint256 previewW, uint256 previewT) = launchpad.previewClaimFees(token);
        assertGt(previewW, 0);
        assertGt(previewT, 0);
        // The preview changed nothing.
        assertEq(pair.balanceOf(address(launchpad)), lpBefore);
        assertEq(LaunchpadToken(token).totalSupply(), supplyBefore);

        vm.expectEmit(true, true, true, true, address(launchpad));
        emit ILaunchpad.FeesClaimed(token, bob, previewW, previewW / 2, previewW - previewW / 2, previewT);
        uint256 callerWrapped = wrapped.balanceOf(bob);
        uint256 callerTokens = LaunchpadToken(token).balanceOf(bob);
        vm.prank(bob);
        uint256 received = launchpad.claimFees(token);
        assertEq(received, previewW);
        // The caller gets nothing.
        assertEq(wrapped.balanceOf(bob), callerWrapped);
        assertEq(LaunchpadToken(token).balanceOf(bob), callerTokens);
        assertEq(wrapped.balanceOf(creator), previewW / 2);
        assertEq(wrapped.balanceOf(protocol), previewW - previewW / 2);
        assertEq(LaunchpadToken(token).totalSupply(), supplyBefore - previewT);
        assertEq(LaunchpadToken(token).balanceOf(address(launchpad)), 0);
        (uint256 claimed, uint256 burned) = launchpad.getClaimedFeesAndBurnedTokens(token);
        assertEq(claimed, previewW);
        assertEq(burned, previewT);
        // The principal stays in the pool: the position is still worth at least what it was at graduation.
        assertGe(_positionValue(pair), principal);
        assertLt(_positionValue(pair) - principal, 1e6);
        // A fee earned is about 0.3% of the volume on the LP's side; the position's share of it is collected.
        // 10 trades of ~50 ether-equivalent at 0.3%: about 1.5 ether of value, half of it in wrapped coin.
        assertGt(previewW, 0.5 ether);
        assertLt(previewW, 1 ether);

        // Nothing more until more trading.
        assertEq(launchpad.claimFees(token), 0);
        _pairBuy(bob, pair, 100 ether);
        assertGt(launchpad.claimFees(token), 0);
        (uint256 claimed2,) = launchpad.getClaimedFeesAndBurnedTokens(token);
        assertGt(claimed2, claimed);
    }

    function test_simulateClaimFees_alwaysReverts() public {
        address token = _create(creator, 0);
        UniswapV2Pair pair = _graduate(alice, token);
        uint256 out = _pairBuy(bob, pair, 50 ether);
        _pairSell(bob, pair, token, out);
        (uint256 w, uint256 t) = launchpad.previewClaimFees(token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.ClaimFeesPreview.selector, w, t));
        launchpad.simulateClaimFees(token);
    }

    function test_claimFees_failingWrappedTransferReverts() public {
        FalseReturningWrappedNative bad = new FalseReturningWrappedNative();
        Launchpad lp = new Launchpad(address(bad), address(factory), pairCodeHash, protocol);
        vm.deal(creator, 1 ether);
        vm.prank(creator);
        address token = lp.createToken{value: 1 ether}("A", "A", "", "", "", "", "", "", 0);
        vm.deal(alice, SELL_OUT);
        vm.prank(alice);
        lp.buyTokens{value: SELL_OUT}(token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenTransferFailed.selector, address(bad)));
        lp.graduate(token);
    }

    // ---------------------------------------------------------------- metadata

    function test_updateTokenMetadata() public {
        address token = _create(creator, 0, "Moon", "MOON");
        vm.warp(block.timestamp + 100);
        vmLogs.recordLogs();
        vm.prank(creator);
        launchpad.updateTokenMetadata(token, "ipfs://new", "new description", "https://new", "@new", "t.me/new", "");
        VmLogs.Log memory log = _findLog(vmLogs.getRecordedLogs(), ILaunchpad.TokenMetadataUpdated.selector);
        assertEq(log.topics[1], bytes32(uint256(uint160(token))));
        assertEq(log.topics[2], bytes32(uint256(uint160(creator))));
        MetadataUpdatedData memory d = abi.decode(bytes.concat(bytes32(uint256(0x20)), log.data), (MetadataUpdatedData));
        assertEq(d.name, "Moon");
        assertEq(d.symbol, "MOON");
        assertEq(d.image_uri, "ipfs://new");
        assertEq(d.description, "new description");
        assertEq(d.website, "https://new");
        assertEq(d.twitter, "@new");
        assertEq(d.telegram, "t.me/new");
        assertEq(d.discord, "");
        assertEq(d.timestamp, block.timestamp);

        ILaunchpad.TokenMetadata memory m = launchpad.getTokenMetadata(token);
        assertEq(m.name, "Moon");
        assertEq(m.symbol, "MOON");
        assertEq(m.image_uri, "ipfs://new");
        assertEq(m.description, "new description");
        assertEq(m.website, "https://new");
        assertEq(m.twitter, "@new");
        assertEq(m.telegram, "t.me/new");
        assertEq(m.discord, "");
        assertEq(m.creator, creator);
        assertEq(m.creationTimestamp, block.timestamp - 100);
    }

    function test_updateTokenMetadata_reverts() public {
        address token = _create(creator, 0);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.UnauthorizedMetadataUpdate.selector, alice));
        launchpad.updateTokenMetadata(token, "x", "", "", "", "", "");
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, alice));
        launchpad.updateTokenMetadata(alice, "x", "", "", "", "", "");
    }

    function test_updateTokenMetadata_revertsMetadataTooLong() public {
        address token = _create(creator, 0);
        vm.startPrank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.MetadataTooLong.selector, "image_uri", 201, 200));
        launchpad.updateTokenMetadata(token, _text(201), "", "", "", "", "");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.MetadataTooLong.selector, "description", 801, 800));
        launchpad.updateTokenMetadata(token, "", _text(801), "", "", "", "");
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.MetadataTooLong.selector, "discord", 101, 100));
        launchpad.updateTokenMetadata(token, "", "", "", "", "", _text(101));
        launchpad.updateTokenMetadata(token, _text(200), _text(800), _text(100), _text(100), _text(100), _text(100));
        vm.stopPrank();
        assertEq(bytes(launchpad.getTokenMetadata(token).description).length, 800);
    }

    function test_updateTokenMetadata_worksAfterGraduation() public {
        address token = _create(creator, 0);
        _graduate(alice, token);
        vm.prank(creator);
        launchpad.updateTokenMetadata(token, "ipfs://later", "", "", "", "", "");
        assertEq(launchpad.getTokenMetadata(token).image_uri, "ipfs://later");
    }

    // ---------------------------------------------------------------- views

    function test_views_revertTokenNotFound() public {
        bytes memory err = abi.encodeWithSelector(ILaunchpad.TokenNotFound.selector, alice);
        vm.expectRevert(err);
        launchpad.getLiquidity(alice);
        vm.expectRevert(err);
        launchpad.getTokenMetadata(alice);
        vm.expectRevert(err);
        launchpad.getTokenCreator(alice);
        vm.expectRevert(err);
        launchpad.getTokenState(alice);
        vm.expectRevert(err);
        launchpad.getRealHypeReserve(alice);
        vm.expectRevert(err);
        launchpad.getTokensForSale(alice);
        assertFalse(launchpad.isLaunchpadToken(alice));
    }

    function test_getPaginatedTokensWithMetadata() public {
        address[] memory created = new address[](5);
        for (uint256 i; i < 5; ++i) {
            created[i] = _create(i % 2 == 0 ? creator : alice, 0, string.concat("T", vm.toString(i)), "SYM");
        }
        assertEq(launchpad.getTokenCount(), 5);

        (address[] memory tokens, ILaunchpad.TokenMetadata[] memory metadata) =
            launchpad.getPaginatedTokensWithMetadata(0, 2);
        assertEq(tokens.length, 2);
        assertEq(metadata.length, 2);
        assertEq(tokens[0], created[0]);
        assertEq(tokens[1], created[1]);
        assertEq(metadata[1].name, "T1");
        assertEq(metadata[1].creator, alice);

        (tokens, metadata) = launchpad.getPaginatedTokensWithMetadata(3, 10);
        assertEq(tokens.length, 2);
        assertEq(tokens[1], created[4]);
        assertEq(metadata[1].name, "T4");
        assertEq(metadata[1].creator, creator);

        (tokens, metadata) = launchpad.getPaginatedTokensWithMetadata(5, 1);
        assertEq(tokens.length + metadata.length, 0);
        (tokens, metadata) = launchpad.getPaginatedTokensWithMetadata(100, type(uint256).max);
        assertEq(tokens.length, 0);
        (tokens,) = launchpad.getPaginatedTokensWithMetadata(1, 0);
        assertEq(tokens.length, 0);
        (tokens,) = launchpad.getPaginatedTokensWithMetadata(0, type(uint256).max);
        assertEq(tokens.length, 5);
    }

    // ---------------------------------------------------------------- helpers

    function _pairReserves(UniswapV2Pair pair, address token)
        internal
        view
        returns (uint256 tokenReserve, uint256 wrappedReserve)
    {
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (tokenReserve, wrappedReserve) =
            pair.token0() == token ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    function _sellOut(address token, uint256 amount) internal view returns (uint256) {
        return launchpad.estimateSell(token, amount);
    }

    function test_simulateClaimFees_passesOnOtherErrors() public {
        address token = _create(creator, 0);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotGraduated.selector, token));
        launchpad.simulateClaimFees(token);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.TokenNotCreatedByFactory.selector, alice));
        launchpad.simulateClaimFees(alice);
    }
}
