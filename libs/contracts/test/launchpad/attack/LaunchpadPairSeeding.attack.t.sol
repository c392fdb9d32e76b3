// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchpadFixture} from "../fixtures/LaunchpadFixture.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";
import {IUniswapV2Pair} from "../../../src/sources/v2/interfaces/IUniswapV2Pair.sol";

/// @notice Attacks on a launched token's DEX pair before graduation. The pair is not deployed by createToken, so
/// anyone may deploy it (or park coin at its address) at any time; the token locks the pair's address from its
/// first instant. Whatever an attacker does to the pair before graduation (deploy it early, donate wrapped native
/// coin to it, sync or skim it, try to mint, swap or burn), the launchpad mints every LP share but the locked
/// minimum, the pool opens with exactly the raised coin against the reserved tokens (the curve's final price),
/// the launchpad's coin and tokens all stay with the launchpad or its position, and the attacker's donation is
/// lost to the creator and the protocol.
contract LaunchpadPairSeedingAttackTest is LaunchpadFixture {
    address internal attacker;
    address internal token;
    address internal pairAddress;

    function setUp() public override {
        super.setUp();
        attacker = makeAddr("attacker");
        vm.deal(attacker, 100_000 ether);
    }

    // ---------------------------------------------------------------- helpers

    function _launch() internal {
        token = _create(creator, 1 ether);
        pairAddress = launchpad.getTokenState(token).pair;
        // The attacker holds tokens, bought on the curve like anyone.
        _buy(attacker, token, 50 ether);
    }

    function _donate(uint256 amount) internal {
        vm.startPrank(attacker);
        wrapped.deposit{value: amount}();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transfer(pairAddress, amount);
        vm.stopPrank();
    }

    function _deployPair() internal {
        vm.prank(attacker);
        assertEq(factory.createPair(token, address(wrapped)), pairAddress);
    }

    /// @dev Every way the attacker could try to get tokens into the pair or LP shares out of it fails.
    function _attackerCannotSeed() internal {
        uint256 held = LaunchpadToken(token).balanceOf(attacker);
        bytes memory locked = abi.encodeWithSelector(LaunchpadToken.PoolLockedUntilGraduation.selector, pairAddress);
        vm.prank(attacker);
        vm.expectRevert(locked);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        LaunchpadToken(token).transfer(pairAddress, held);
        vm.prank(attacker);
        LaunchpadToken(token).approve(bob, held);
        vm.prank(bob);
        vm.expectRevert(locked);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        LaunchpadToken(token).transferFrom(attacker, pairAddress, held);
        if (pairAddress.code.length == 0) return;
        // A first mint needs both sides: the pair holds none of the token.
        vm.prank(attacker);
        vm.expectRevert();
        UniswapV2Pair(pairAddress).mint(attacker);
        // No swap either: the token reserve is 0.
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pairAddress).getReserves();
        bool wrappedIs0 = address(wrapped) < token;
        uint256 wrappedReserve = wrappedIs0 ? r0 : r1;
        if (wrappedReserve > 1) {
            vm.prank(attacker);
            vm.expectRevert(IUniswapV2Pair.InsufficientLiquidity.selector);
            UniswapV2Pair(pairAddress).swap(wrappedIs0 ? 1 : 0, wrappedIs0 ? 0 : 1, attacker, "");
        }
        // And nothing to burn.
        vm.prank(attacker);
        vm.expectRevert();
        UniswapV2Pair(pairAddress).burn(attacker);
        assertEq(UniswapV2Pair(pairAddress).totalSupply(), 0);
        assertEq(LaunchpadToken(token).balanceOf(pairAddress), 0);
    }

    /// @dev Sells out the curve (alice) and, when the pair was not deployed, lets anyone complete the graduation.
    /// Returns the native coin the curve raised.
    function _graduateNow() internal returns (uint256 raised) {
        _sellOut(alice, token);
        raised = launchpad.getRealHypeReserve(token);
        if (!launchpad.getTokenState(token).graduated) {
            vm.prank(bob);
            launchpad.graduate(token);
        } else {
            (uint256 x,) = launchpad.getLiquidity(token);
            raised = x - V;
        }
    }

    /// @dev The pool opened at the curve's final price with every LP share but the minimum held by the launchpad.
    function _assertFairOpening(uint256 raised) internal view {
        UniswapV2Pair pair = UniswapV2Pair(pairAddress);
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 tokenReserve, uint256 wrappedReserve) =
            pair.token0() == token ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        assertEq(wrappedReserve, raised, "opening wrapped reserve");
        assertEq(tokenReserve, RESERVED, "opening token reserve");
        assertEq(wrapped.balanceOf(pairAddress), raised, "no excess left to skim");
        assertEq(LaunchpadToken(token).balanceOf(pairAddress), RESERVED, "no token excess");
        assertEq(pair.balanceOf(address(launchpad)), pair.totalSupply() - 1000, "launchpad holds the LP");
        assertEq(pair.balanceOf(attacker), 0);
        assertEq(LaunchpadToken(token).balanceOf(address(launchpad)), 0);
        assertEq(address(launchpad).balance, launchpad.creatorFees(creator) + launchpad.protocolFees(), "coverage");
        // The principal is the position's value in sqrt(k) units, rounded up.
        assertApproxEqAbs(launchpad.getTokenState(token).lpPrincipal, _positionValue(pair) + 1, 1, "principal");
    }

    function _fees() internal view returns (uint256) {
        return launchpad.creatorFees(creator) + launchpad.protocolFees();
    }

    // ---------------------------------------------------------------- pre-deployed pair

    /// @notice The attacker deploys the pair before the token even exists (its address is predictable): the
    /// token locks it from birth, and the sell-out buy graduates into it at the fair price.
    function test_pairDeployedBeforeTheTokenExists() public {
        address predictedToken = _predictToken(creator, "Token", "TKN");
        vm.prank(attacker);
        pairAddress = factory.createPair(predictedToken, address(wrapped));
        token = _create(creator, 1 ether);
        assertEq(token, predictedToken);
        assertEq(launchpad.getTokenState(token).pair, pairAddress);
        _buy(attacker, token, 50 ether);
        _attackerCannotSeed();
        uint256 raised = _graduateNow();
        _assertFairOpening(raised);
    }

    /// @notice The attacker parks tokens at the pair's address before the pair is deployed: impossible, the lock
    /// holds on the address, not on a deployed contract.
    function test_tokensCannotReachThePairsAddressBeforeItIsDeployed() public {
        _launch();
        assertEq(pairAddress.code.length, 0);
        _attackerCannotSeed();
        uint256 raised = _graduateNow();
        _assertFairOpening(raised);
    }

    // ---------------------------------------------------------------- wrapped native coin donated

    /// @notice Wrapped native coin donated to the deployed pair and left unsynced stands in for part of the raised
    /// coin: the pool opens at the fair price, the launchpad keeps the coin it did not need as fees, the attacker
    /// loses the donation.
    function test_wrappedDonated_unsynced() public {
        _launch();
        _deployPair();
        _donate(40 ether);
        _attackerCannotSeed();
        uint256 feesBefore = _fees();
        vmLogs.recordLogs();
        _sellOut(alice, token);
        (uint256 hypeIn,) =
            abi.decode(_findLog(vmLogs.getRecordedLogs(), ILaunchpad.TokensPurchased.selector).data, (uint256, uint256));
        assertTrue(launchpad.getTokenState(token).graduated);
        (uint256 x,) = launchpad.getLiquidity(token);
        _assertFairOpening(x - V);
        // The sell-out buy's trading fee plus the 40 ether the launchpad did not have to deposit.
        assertEq(_fees() - feesBefore, _fee(hypeIn) + 40 ether);
    }

    /// @notice Same, synced into the pair's reserves (reserves: the donation against 0 tokens). Minting, swapping
    /// and burning all fail meanwhile; the pool opens at the fair price all the same.
    function test_wrappedDonated_synced() public {
        _launch();
        _deployPair();
        _donate(40 ether);
        UniswapV2Pair(pairAddress).sync();
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pairAddress).getReserves();
        assertEq(uint256(r0) + r1, 40 ether);
        _attackerCannotSeed();
        uint256 raised = _graduateNow();
        _assertFairOpening(raised);
    }

    /// @notice Part synced, part not, and a skim in between: the skim returns only the unsynced part (the
    /// attacker's own coin); the pool opens at the fair price.
    function test_wrappedDonated_syncedThenMoreThenSkimmed() public {
        _launch();
        _deployPair();
        _donate(30 ether);
        UniswapV2Pair(pairAddress).sync();
        _donate(10 ether);
        uint256 before = wrapped.balanceOf(attacker);
        vm.prank(attacker);
        UniswapV2Pair(pairAddress).skim(attacker);
        assertEq(wrapped.balanceOf(attacker) - before, 10 ether);
        _donate(5 ether);
        _attackerCannotSeed();
        uint256 raised = _graduateNow();
        _assertFairOpening(raised);
    }

    /// @notice Coin parked at the pair's address before the pair exists, then the sell-out finds no pair:
    /// `graduate` deploys it and the pool opens at the fair price.
    function test_wrappedDonated_beforeThePairIsDeployed() public {
        _launch();
        _donate(25 ether);
        _sellOut(alice, token);
        assertFalse(launchpad.getTokenState(token).graduated);
        uint256 raised = launchpad.getRealHypeReserve(token);
        uint256 feesBefore = _fees();
        vm.prank(bob);
        launchpad.graduate(token);
        _assertFairOpening(raised);
        assertEq(_fees() - feesBefore, 25 ether);
    }

    /// @notice Between the sell-out (no pair) and `graduate`, the attacker deploys the pair, donates, syncs and
    /// tries to mint; `graduate` still opens the pool at the fair price.
    function test_betweenTheSellOutAndGraduate() public {
        _launch();
        _sellOut(alice, token);
        uint256 raised = launchpad.getRealHypeReserve(token);
        _deployPair();
        _donate(60 ether);
        UniswapV2Pair(pairAddress).sync();
        _donate(1 ether);
        _attackerCannotSeed();
        vm.prank(attacker);
        launchpad.graduate(token);
        _assertFairOpening(raised);
    }

    /// @notice A donation as large as the whole raised amount cannot lower the opening price nor block the
    /// graduation: the pool opens with the donation (plus 1 wei, the pair needing some of each side to mint)
    /// against the reserved tokens, i.e. higher, at the attacker's expense; the raised coin accrues as fees.
    function test_hugeDonation_synced_cannotBlockNorLowerTheOpening() public {
        _launch();
        _deployPair();
        _donate(5000 ether);
        UniswapV2Pair(pairAddress).sync();
        uint256 feesBefore = _fees();
        _sellOut(alice, token);
        assertTrue(launchpad.getTokenState(token).graduated);
        (uint256 x,) = launchpad.getLiquidity(token);
        uint256 raised = x - V;
        UniswapV2Pair pair = UniswapV2Pair(pairAddress);
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 tokenReserve, uint256 wrappedReserve) =
            pair.token0() == token ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        assertEq(wrappedReserve, 5000 ether + 1);
        assertEq(tokenReserve, RESERVED);
        assertEq(pair.balanceOf(address(launchpad)), pair.totalSupply() - 1000);
        assertGe(_fees() - feesBefore, raised - 1);
        assertEq(address(launchpad).balance, _fees());
    }

    /// @notice Same, left unsynced: the launchpad adds nothing, the pool opens with the donation.
    function test_hugeDonation_unsynced() public {
        _launch();
        _deployPair();
        _donate(700 ether);
        _sellOut(alice, token);
        assertTrue(launchpad.getTokenState(token).graduated);
        UniswapV2Pair pair = UniswapV2Pair(pairAddress);
        assertEq(wrapped.balanceOf(pairAddress), 700 ether);
        assertEq(pair.balanceOf(address(launchpad)), pair.totalSupply() - 1000);
        assertEq(address(launchpad).balance, _fees());
    }

    // ---------------------------------------------------------------- after graduation

    /// @notice Once graduated, nothing is left to skim and the attacker holds no share of the position; its
    /// donation is gone.
    function test_afterGraduation_nothingToSkimOrClaim() public {
        _launch();
        _deployPair();
        _donate(20 ether);
        UniswapV2Pair(pairAddress).sync();
        _graduateNow();
        uint256 wrappedBefore = wrapped.balanceOf(attacker);
        uint256 tokensBefore = LaunchpadToken(token).balanceOf(attacker);
        vm.prank(attacker);
        UniswapV2Pair(pairAddress).skim(attacker);
        assertEq(wrapped.balanceOf(attacker), wrappedBefore);
        assertEq(LaunchpadToken(token).balanceOf(attacker), tokensBefore);
        assertEq(UniswapV2Pair(pairAddress).balanceOf(attacker), 0);
        // The pool trades normally and the position's fees go to the creator and the protocol, not the caller.
        uint256 out = _pairSell(attacker, UniswapV2Pair(pairAddress), token, tokensBefore / 2);
        assertGt(out, 0);
        vm.prank(attacker);
        assertGt(launchpad.claimFees(token), 0);
        assertEq(wrapped.balanceOf(attacker), wrappedBefore + out);
    }

    /// @notice A donation buys the attacker nothing: holding tokens and donating, then selling into the fresh
    /// pool, returns less than holding and selling without donating.
    function testFuzz_donationNeverPays(uint256 donation, bool sync) public {
        donation = bound(donation, 1 ether, 500 ether);
        _launch();
        _deployPair();
        _donate(donation);
        if (sync) UniswapV2Pair(pairAddress).sync();
        uint256 raised = _graduateNow();
        _assertFairOpening(raised);
        // The opening price is the fair one, so selling gets what it would have got without the donation.
        uint256 held = LaunchpadToken(token).balanceOf(attacker);
        uint256 out = _pairSell(attacker, UniswapV2Pair(pairAddress), token, held);
        assertEq(out, _v2Out(held, RESERVED, raised));
    }
}
