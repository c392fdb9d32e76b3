// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {LaunchpadFixture} from "../fixtures/LaunchpadFixture.sol";
import {Launchpad} from "../../../src/launchpad/Launchpad.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";

/// @notice A creator that is a contract (a smart wallet): it creates the token with a first purchase and then
/// tries to move or sell it.
contract CreatorWallet {
    Launchpad internal immutable launchpad;

    constructor(Launchpad launchpad_) {
        launchpad = launchpad_;
    }

    receive() external payable {}

    function create() external payable returns (address) {
        return launchpad.createToken{value: msg.value}("Wallet", "WAL", "", "", "", "", "", "", 0);
    }

    function transfer(address token, address to, uint256 amount) external returns (bool) {
        return IERC20(token).transfer(to, amount);
    }

    function sell(address token, uint256 amount) external {
        launchpad.sellTokens(token, amount);
    }
}

/// @notice The creator's sell lock against evasion: for CREATOR_SELL_LOCK after the creation no token the creator
/// holds reaches a sale by any path (a sale from its address, a transfer to another wallet that sells, a spender's
/// transferFrom, a transfer into the DEX pair after a graduation inside the hour, a contract wallet of the
/// creator's), and from the unlock time on every one of those paths works. The creator can still buy, receive,
/// approve and burn during the lock.
contract LaunchpadCreatorLockAttackTest is LaunchpadFixture {
    address internal accomplice;
    address internal token;
    uint256 internal unlock;

    function setUp() public override {
        super.setUp();
        accomplice = makeAddr("accomplice");
        vm.warp(1_000_000);
        token = _create(creator, 5 ether);
        unlock = 1_000_000 + 1 hours;
    }

    function _locked() internal view returns (bytes memory) {
        return abi.encodeWithSelector(LaunchpadToken.CreatorTokensLocked.selector, unlock);
    }

    function test_theTokenCarriesTheLaunchpadsLock() public view {
        assertEq(LaunchpadToken(token).creator(), creator);
        assertEq(LaunchpadToken(token).creatorUnlockTime(), unlock);
        assertEq(
            LaunchpadToken(token).creatorUnlockTime(),
            launchpad.getTokenMetadata(token).creationTimestamp + launchpad.CREATOR_SELL_LOCK()
        );
        assertGt(IERC20(token).balanceOf(creator), 0);
    }

    /// @notice The lock's end is in the token's storage, not its code: the token's address stays predictable
    /// before the creating transaction lands, whatever the block's time.
    function test_theTokensAddressDoesNotDependOnTheCreationTime() public {
        address predicted = _predictToken(alice, "Token", "TKN");
        vm.warp(block.timestamp + 17);
        address created = _create(alice, 1 ether);
        assertEq(created, predicted);
        assertEq(LaunchpadToken(created).creatorUnlockTime(), block.timestamp + 1 hours);
    }

    function test_directSale_revertsUntilTheUnlockTime() public {
        uint256 amount = IERC20(token).balanceOf(creator) / 4;
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
        launchpad.sellTokens(token, amount);
        vm.warp(unlock - 1);
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
        launchpad.sellTokens(token, amount);
        vm.warp(unlock);
        assertGt(_sell(creator, token, amount), 0);
    }

    function test_transferThenSale_revertsUntilTheUnlockTime() public {
        uint256 amount = IERC20(token).balanceOf(creator) / 4;
        vm.prank(creator);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transfer(accomplice, amount);
        vm.warp(unlock - 1);
        vm.prank(creator);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transfer(accomplice, amount);
        assertEq(IERC20(token).balanceOf(accomplice), 0);

        vm.warp(unlock);
        vm.prank(creator);
        assertTrue(IERC20(token).transfer(accomplice, amount));
        assertGt(_sell(accomplice, token, amount), 0);
    }

    function test_transferFromBySpender_revertsUntilTheUnlockTime() public {
        uint256 amount = IERC20(token).balanceOf(creator) / 4;
        // Approving is allowed; spending the allowance is a transfer out of the creator's address.
        vm.prank(creator);
        assertTrue(IERC20(token).approve(accomplice, amount));
        vm.prank(accomplice);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transferFrom(creator, accomplice, amount);

        vm.warp(unlock);
        vm.prank(accomplice);
        assertTrue(IERC20(token).transferFrom(creator, accomplice, amount));
        assertGt(_sell(accomplice, token, amount), 0);
    }

    function test_transferIntoThePairAfterAGraduationInsideTheHour_revertsUntilTheUnlockTime() public {
        uint256 amount = IERC20(token).balanceOf(creator) / 4;
        factory.createPair(token, address(wrapped));
        UniswapV2Pair pair = _graduate(alice, token);
        assertTrue(launchpad.getTokenState(token).graduated);
        assertLt(block.timestamp, unlock);

        vm.prank(creator);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transfer(address(pair), amount);
        // Nor through a spender (a router pulling the creator's tokens into the pair).
        vm.prank(creator);
        assertTrue(IERC20(token).approve(accomplice, amount));
        vm.prank(accomplice);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transferFrom(creator, address(pair), amount);

        // Other holders trade on the pair as usual.
        assertGt(_pairSell(alice, pair, token, IERC20(token).balanceOf(alice) / 10), 0);

        vm.warp(unlock);
        assertGt(_pairSell(creator, pair, token, amount), 0);
    }

    function test_creatorsContractWallet_revertsUntilTheUnlockTime() public {
        CreatorWallet wallet = new CreatorWallet(launchpad);
        vm.deal(address(this), 5 ether);
        address walletToken = wallet.create{value: 5 ether}();
        uint256 walletUnlock = LaunchpadToken(walletToken).creatorUnlockTime();
        assertEq(walletUnlock, block.timestamp + 1 hours);
        uint256 amount = IERC20(walletToken).balanceOf(address(wallet)) / 4;
        assertGt(amount, 0);

        vm.expectRevert(abi.encodeWithSelector(LaunchpadToken.CreatorTokensLocked.selector, walletUnlock));
        wallet.transfer(walletToken, accomplice, amount);
        vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, walletUnlock));
        wallet.sell(walletToken, amount);

        vm.warp(walletUnlock);
        assertTrue(wallet.transfer(walletToken, accomplice, amount));
        uint256 before = address(wallet).balance;
        wallet.sell(walletToken, amount);
        assertGt(address(wallet).balance, before);
        assertGt(_sell(accomplice, walletToken, amount), 0);
    }

    function test_anEOACreatorCannotMoveItsTokensIntoItsContractWallet() public {
        CreatorWallet wallet = new CreatorWallet(launchpad);
        vm.prank(creator);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transfer(address(wallet), 1);
    }

    function test_duringTheLockTheCreatorCanBuyReceiveApproveAndBurn() public {
        uint256 balance = IERC20(token).balanceOf(creator);
        uint256 bought = _buy(creator, token, 1 ether);
        assertGt(bought, 0);
        uint256 received = _buy(alice, token, 1 ether);
        vm.prank(alice);
        assertTrue(IERC20(token).transfer(creator, received));
        assertEq(IERC20(token).balanceOf(creator), balance + bought + received);

        vm.prank(creator);
        assertTrue(IERC20(token).approve(alice, 1));
        // The bought and received tokens are the creator's too: locked.
        vm.prank(creator);
        vm.expectRevert(_locked());
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        IERC20(token).transfer(alice, received);

        // Burning destroys tokens, it sells nothing: allowed.
        vm.prank(creator);
        LaunchpadToken(token).burn(1e6);
        assertEq(IERC20(token).balanceOf(creator), balance + bought + received - 1e6);
    }

    /// @notice Sequences of transfers and sells by the creator and a second wallet, with time moving across the
    /// unlock time: every move of the creator's tokens before it reverts with the lock's error, every one from it
    /// on succeeds, the second wallet only ever sells what it was given after the unlock time or bought itself,
    /// and before the unlock time the creator's balance never goes down.
    function testFuzz_transferAndSellSequences(uint8[12] memory ops, uint64[12] memory amounts, uint32[12] memory steps)
        public
    {
        _buy(accomplice, token, 1 ether);
        for (uint256 i; i < ops.length; ++i) {
            vm.warp(block.timestamp + bound(steps[i], 0, 40 minutes));
            // forge-lint: disable-next-line(block-timestamp)
            bool locked = block.timestamp < unlock;
            uint256 creatorBalance = IERC20(token).balanceOf(creator);
            uint256 op = ops[i] % 4;
            if (op == 0) {
                // The creator transfers to the second wallet.
                if (creatorBalance == 0) continue;
                uint256 amount = bound(amounts[i], 1, creatorBalance);
                vm.prank(creator);
                if (locked) vm.expectRevert(_locked());
                // forge-lint: disable-next-line(erc20-unchecked-transfer)
                IERC20(token).transfer(accomplice, amount);
            } else if (op == 1) {
                // The second wallet pulls the creator's tokens with an allowance.
                if (creatorBalance == 0) continue;
                uint256 amount = bound(amounts[i], 1, creatorBalance);
                vm.prank(creator);
                IERC20(token).approve(accomplice, amount);
                vm.prank(accomplice);
                if (locked) vm.expectRevert(_locked());
                // forge-lint: disable-next-line(erc20-unchecked-transfer)
                IERC20(token).transferFrom(creator, accomplice, amount);
            } else if (op == 2) {
                // The creator sells on the curve.
                if (creatorBalance == 0) continue;
                uint256 amount = bound(amounts[i], 1e6, creatorBalance < 1e6 ? 1e6 : creatorBalance);
                if (amount > creatorBalance) continue;
                vm.prank(creator);
                if (locked) vm.expectRevert(abi.encodeWithSelector(ILaunchpad.CreatorCannotSellYet.selector, unlock));
                launchpad.sellTokens(token, amount);
            } else {
                // The second wallet sells what it holds: its own purchase, and the creator's tokens only if they
                // reached it after the unlock time.
                uint256 held = IERC20(token).balanceOf(accomplice);
                if (held < 1e6) continue;
                _sell(accomplice, token, bound(amounts[i], 1e6, held));
            }
            if (locked) assertGe(IERC20(token).balanceOf(creator), creatorBalance);
        }
    }
}
