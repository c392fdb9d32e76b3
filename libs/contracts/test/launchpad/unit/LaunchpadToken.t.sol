// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {LaunchpadFixture, VmLogs} from "../fixtures/LaunchpadFixture.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

contract LaunchpadTokenTest is LaunchpadFixture {
    LaunchpadToken internal token;
    address internal pair;

    function setUp() public override {
        super.setUp();
        token = LaunchpadToken(_create(creator, 1 ether));
        pair = launchpad.getTokenState(address(token)).pair;
    }

    function test_metadataAndSupply() public view {
        assertEq(token.name(), "Token");
        assertEq(token.symbol(), "TKN");
        assertEq(token.TOTAL_SUPPLY(), SUPPLY);
        assertEq(token.totalSupply(), SUPPLY);
        assertEq(uint256(token.decimals()), 6);
        assertEq(token.launchpad(), address(launchpad));
        assertEq(token.pool(), pair);
        assertEq(pair, _pairAddress(factory, address(token)));
        assertFalse(token.graduated());
    }

    /// @notice Every token is an EIP-1167 minimal proxy of the one implementation, followed by its immutable
    /// arguments (DEX factory, name length, name, symbol).
    function test_isAMinimalProxyOfTheImplementation() public view {
        address implementation = launchpad.tokenImplementation();
        bytes memory expected = abi.encodePacked(
            hex"363d3d373d3d3d363d73",
            implementation,
            hex"5af43d82803e903d91602b57fd5bf3",
            address(factory),
            creator,
            uint16(5),
            "Token",
            "TKN"
        );
        assertEq(address(token).code, expected);
        assertEq(LaunchpadToken(implementation).launchpad(), address(launchpad));
    }

    /// @notice Names and symbols round-trip through the clone's code at any length the launchpad allows, across
    /// the code's 32-byte words (the name starts at byte 67).
    function test_namesOfAnyLengthRoundTrip() public {
        string memory longName = "A name at the 32-byte name limit";
        LaunchpadToken t = LaunchpadToken(_create(creator, 0, longName, "\u00e9\u00e9"));
        assertEq(t.name(), longName);
        assertEq(t.symbol(), "\u00e9\u00e9");
        assertEq(launchpad.getTokenMetadata(address(t)).name, longName);
        assertEq(launchpad.getTokenMetadata(address(t)).symbol, "\u00e9\u00e9");
        LaunchpadToken one = LaunchpadToken(_create(creator, 0, "N", "S"));
        assertEq(one.name(), "N");
        assertEq(one.symbol(), "S");
    }

    function test_privilegedFunctions_onlyLaunchpad() public {
        bytes memory err = abi.encodeWithSelector(LaunchpadToken.OnlyLaunchpad.selector, alice);
        vm.startPrank(alice);
        vm.expectRevert(err);
        token.graduate();
        vm.expectRevert(err);
        token.launchpadTransfer(creator, alice, 1);
        vm.stopPrank();
    }

    /// @notice A token is initialized once, by the launchpad, in createToken; nobody can initialize it again,
    /// not even the launchpad.
    function test_initialize_onlyOnce() public {
        vm.prank(alice);
        vm.expectRevert(Initializable.InvalidInitialization.selector);
        token.initialize(alice, 1);
        vm.prank(address(launchpad));
        vm.expectRevert(Initializable.InvalidInitialization.selector);
        token.initialize(alice, 1);
        assertEq(token.pool(), pair);
        assertEq(token.creatorUnlockTime(), block.timestamp + 1 hours);
        assertEq(token.totalSupply(), SUPPLY);
    }

    /// @notice Nobody can initialize the implementation (its initializer is disabled at deployment), not even the
    /// launchpad; it holds no supply and no pool.
    function test_implementation_cannotBeInitialized() public {
        LaunchpadToken implementation = LaunchpadToken(launchpad.tokenImplementation());
        vm.prank(alice);
        vm.expectRevert(Initializable.InvalidInitialization.selector);
        implementation.initialize(alice, 1);
        vm.prank(address(launchpad));
        vm.expectRevert(Initializable.InvalidInitialization.selector);
        implementation.initialize(alice, 1);
        assertEq(implementation.totalSupply(), 0);
        assertEq(implementation.pool(), address(0));
    }

    function test_launchpadTransfer_movesWithoutAllowanceUntilGraduation() public {
        // Past the creator's sell lock (see the lock's own tests below).
        vm.warp(token.creatorUnlockTime());
        uint256 balance = token.balanceOf(creator);
        vm.prank(address(launchpad));
        assertTrue(token.launchpadTransfer(creator, address(launchpad), 1e6));
        assertEq(token.balanceOf(creator), balance - 1e6);

        vm.prank(address(launchpad));
        token.graduate();
        vm.prank(address(launchpad));
        vm.expectRevert(LaunchpadToken.AlreadyGraduated.selector);
        token.launchpadTransfer(creator, address(launchpad), 1e6);
        vm.prank(address(launchpad));
        vm.expectRevert(LaunchpadToken.AlreadyGraduated.selector);
        token.graduate();
    }

    function test_poolIsLockedUntilGraduation() public {
        // Past the creator's sell lock, which refuses the creator's transfers first (see its own tests below).
        vm.warp(token.creatorUnlockTime());
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.PoolLockedUntilGraduation.selector, pair));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(pair, 1);
        // Not with an allowance either.
        vm.prank(creator);
        token.approve(alice, 10);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.PoolLockedUntilGraduation.selector, pair));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(creator, pair, 1);
        // Other transfers are free.
        vm.prank(creator);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(alice, 5);
        assertEq(token.balanceOf(alice), 5);

        _graduate(bob, address(token));
        vm.prank(creator);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(pair, 1);
    }

    function test_burn() public {
        uint256 balance = token.balanceOf(creator);
        vm.prank(creator);
        token.burn(1e6);
        assertEq(token.balanceOf(creator), balance - 1e6);
        assertEq(token.totalSupply(), SUPPLY - 1e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, 0, 1));
        token.burn(1);
    }
}

/// @notice Anti-sniper guarantees: nobody trades a token before its creator's first purchase, and nobody can
/// seed its DEX pair before graduation.
contract LaunchpadSnipingTest is LaunchpadFixture {
    address internal sniper;

    function setUp() public override {
        super.setUp();
        sniper = makeAddr("sniper");
        vm.deal(sniper, 10_000 ether);
    }

    function test_frontRunnerInTheSameBlockCannotBuyFirst() public {
        // The sniper knows the next token's address in advance (CREATE2 is deterministic) and tries to buy it
        // in the same block, ordered before the creation: the token does not exist yet.
        address predicted = _predictToken(creator, "Token", "TKN");
        vm.prank(sniper);
        vm.expectRevert(abi.encodeWithSelector(bytes4(keccak256("TokenNotFound(address)")), predicted));
        launchpad.buyTokens{value: 10 ether}(predicted);
        vm.prank(sniper);
        vm.expectRevert(abi.encodeWithSelector(bytes4(keccak256("TokenNotFound(address)")), predicted));
        launchpad.estimateBuy(predicted, 10 ether);

        // Same block: the creation buys first, inside createToken.
        address token = _create(creator, 10 ether);
        assertEq(token, predicted);
        uint256 creatorTokens = LaunchpadToken(token).balanceOf(creator);
        assertGt(creatorTokens, 0);

        // The sniper's very next buy of the same size already pays the creator's price impact.
        vm.prank(sniper);
        launchpad.buyTokens{value: 10 ether}(token);
        assertLt(LaunchpadToken(token).balanceOf(sniper), creatorTokens);
    }

    function test_noTokenLeavesTheLaunchpadBeforeTheCreatorsPurchase() public {
        vmLogs.recordLogs();
        address token = _create(creator, 1 ether);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();
        bytes32 transferTopic = keccak256("Transfer(address,address,uint256)");
        uint256 transfersOut;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != token || logs[i].topics[0] != transferTopic) continue;
            if (logs[i].topics[1] != bytes32(uint256(uint160(address(launchpad))))) continue;
            // Every token leaving the launchpad in the creating transaction goes to the creator.
            assertEq(logs[i].topics[2], bytes32(uint256(uint160(creator))));
            ++transfersOut;
        }
        assertEq(transfersOut, 1);
    }

    function test_pairCannotBeSeededBeforeGraduation() public {
        address predicted = _predictToken(creator, "Token", "TKN");
        // The sniper creates the pair in advance and parks wrapped native coin in it.
        address pairAddress = factory.createPair(predicted, address(wrapped));
        vm.startPrank(sniper);
        wrapped.deposit{value: 5 ether}();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transfer(pairAddress, 5 ether);
        vm.stopPrank();

        address token = _create(creator, 1 ether);
        UniswapV2Pair(pairAddress).sync();
        vm.prank(sniper);
        launchpad.buyTokens{value: 10 ether}(token);
        // It cannot deposit tokens, so it cannot mint LP shares.
        vm.prank(sniper);
        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.PoolLockedUntilGraduation.selector, pairAddress));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        LaunchpadToken(token).transfer(pairAddress, 1e6);
        vm.prank(sniper);
        vm.expectRevert();
        UniswapV2Pair(pairAddress).mint(sniper);

        // At graduation the launchpad mints the first shares and holds all of them but the locked minimum;
        // the parked coin stands in for part of the raised coin (see LaunchpadPairSeeding.attack.t.sol).
        _graduate(alice, token);
        UniswapV2Pair pair = UniswapV2Pair(pairAddress);
        assertEq(pair.balanceOf(address(launchpad)), pair.totalSupply() - 1000);
        assertEq(pair.balanceOf(sniper), 0);
    }
}
