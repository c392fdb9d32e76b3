// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {VM_ADDRESS} from "../base/Vm.sol";
import {RouterFixture} from "../router/RouterFixture.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";
import {
    FixedFeeToken,
    LaunchTaxToken,
    LyingBalanceToken,
    MaxTxToken,
    RebasingToken,
    SilentBlocklistToken,
    SilentPauseToken,
    TaxToken
} from "../../src/devnet/WildTokens.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

/// @notice The log-recording cheatcodes, which our shared Vm interface does not declare.
interface VmLogRecorder {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory);
}

interface IMintable {
    function mint(address to, uint256 amount) external;
}

contract WildTokensTest is RouterFixture {
    VmLogRecorder internal constant vmLogs = VmLogRecorder(VM_ADDRESS);

    /// @dev The devnet's pool on chain 999: 25,000 tokens against 1,000 wrapped native.
    uint256 internal constant POOL_TOKENS = 25_000e18;
    uint256 internal constant POOL_NATIVE = 1_000e18;

    /// @dev A V2 pair (v2A, 0.3%) of `token` against the wrapped native, seeded as the devnet seeds it: the token
    /// minted into the pair, then the pair's mint.
    function _seed(address token) internal returns (address pair) {
        pair = v2A.createPair(token, address(wnative));
        IMintable(token).mint(pair, POOL_TOKENS);
        _fund(address(wnative), pair, POOL_NATIVE);
        UniswapV2Pair(pair).mint(address(this));
    }

    /// @dev Swaps out of `pair` everything its balance of `tokenIn` above the reserve buys (the quote to the wei).
    function _swapOut(address pair, address tokenIn, address to) internal returns (uint256 amountOut) {
        (uint256 reserveIn, uint256 reserveOut) = _v2Reserves(pair, tokenIn);
        uint256 amountIn = _balance(tokenIn, pair) - reserveIn;
        amountOut = _v2AmountOut(amountIn, reserveIn, reserveOut, V2_A_FEE_BPS);
        bool inIs0 = UniswapV2Pair(pair).token0() == tokenIn;
        UniswapV2Pair(pair).swap(inIs0 ? 0 : amountOut, inIs0 ? amountOut : 0, to, "");
    }

    function _balance(address token, address account) internal view returns (uint256) {
        return FixedFeeToken(token).balanceOf(account);
    }

    // ---------------------------------------------------------------- FixedFeeToken

    function test_fixedFee_burnsTheSameAmountFromEveryTransfer() public {
        FixedFeeToken t = new FixedFeeToken("Fixed Fee", "FIXFEE", 2e18);
        t.mint(alice, 1_000e18);
        assertEq(t.balanceOf(alice), 1_000e18);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100e18));
        assertEq(t.balanceOf(bob), 98e18);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 10e18));
        assertEq(t.balanceOf(bob), 106e18);
        assertEq(t.balanceOf(alice), 890e18);
        assertEq(t.totalSupply(), 996e18);
        // On the allowance path too.
        vm.prank(alice);
        t.approve(bob, 50e18);
        vm.prank(bob);
        assertTrue(t.transferFrom(alice, bob, 50e18));
        assertEq(t.balanceOf(bob), 154e18);
    }

    function test_fixedFee_revertsBelowTheFee_andDeliversNothingAtIt() public {
        FixedFeeToken t = new FixedFeeToken("Fixed Fee", "FIXFEE", 2e18);
        t.mint(alice, 10e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(FixedFeeToken.TransferBelowFee.selector, 2e18 - 1, 2e18));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, 2e18 - 1);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(FixedFeeToken.TransferBelowFee.selector, 0, 2e18));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, 0);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 2e18));
        assertEq(t.balanceOf(bob), 0);
        assertEq(t.balanceOf(alice), 8e18);
    }

    function test_fixedFee_aSellIntoAPoolArrivesLessTheFee() public {
        FixedFeeToken t = new FixedFeeToken("Fixed Fee", "FIXFEE", 2e18);
        address pair = _seed(address(t));
        // The seeding mint paid nothing.
        assertEq(t.balanceOf(pair), POOL_TOKENS);
        t.mint(alice, 100e18);
        vm.prank(alice);
        assertTrue(t.transfer(pair, 100e18));
        assertEq(t.balanceOf(pair) - POOL_TOKENS, 98e18);
        uint256 out = _swapOut(pair, address(t), alice);
        assertEq(wnative.balanceOf(alice), out);
        // Buying: the pair's payout pays the fee as well.
        _fund(address(wnative), pair, 1e18);
        uint256 bought = _swapOut(pair, address(wnative), bob);
        assertEq(t.balanceOf(bob), bought - 2e18);
    }

    // ---------------------------------------------------------------- TaxToken

    function test_tax_buysAndSellsPayTheirTaxToTheTaxWallet_otherTransfersNothing() public {
        TaxToken t = new TaxToken("Tax Token", "TAX", 300, 700);
        address pair = _seed(address(t));
        assertEq(t.balanceOf(pair), POOL_TOKENS);
        t.setPool(pair, true);
        assertTrue(t.automatedMarketMakerPairs(pair));
        assertEq(t.taxWallet(), address(this));
        t.mint(alice, 2_000e18);
        // Wallet to wallet: untaxed.
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1_000e18));
        assertEq(t.balanceOf(bob), 1_000e18);
        // A sell: 7% to the tax wallet.
        vm.prank(alice);
        assertTrue(t.transfer(pair, 1_000e18));
        assertEq(t.balanceOf(pair) - POOL_TOKENS, 930e18);
        assertEq(t.balanceOf(address(this)), 70e18);
        _swapOut(pair, address(t), alice);
        // A buy: 3% of what the pair pays.
        _fund(address(wnative), pair, 10e18);
        uint256 bought = _swapOut(pair, address(wnative), bob);
        uint256 tax = bought * 300 / 10_000;
        assertEq(t.balanceOf(bob), 1_000e18 + bought - tax);
        assertEq(t.balanceOf(address(this)), 70e18 + tax);
    }

    function test_tax_unmarkedPoolsAndMintsAreUntaxed_andOnlyTheOwnerSetsThem() public {
        TaxToken t = new TaxToken("Tax Token", "TAX", 300, 700);
        address pair = _seed(address(t));
        t.mint(alice, 100e18);
        vm.prank(alice);
        assertTrue(t.transfer(pair, 100e18));
        assertEq(t.balanceOf(pair), POOL_TOKENS + 100e18);
        t.setPool(pair, true);
        t.mint(pair, 1e18);
        assertEq(t.balanceOf(pair), POOL_TOKENS + 101e18);
        t.setPool(pair, false);
        t.mint(alice, 10e18);
        vm.prank(alice);
        assertTrue(t.transfer(pair, 10e18));
        assertEq(t.balanceOf(pair), POOL_TOKENS + 111e18);

        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.setPool(alice, true);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.setTaxes(0, 0);
        vm.stopPrank();
        vm.expectRevert(TaxToken.TaxTooHigh.selector);
        t.setTaxes(10_001, 0);
        t.setTaxes(0, 2_500);
        assertEq(t.buyTaxBps(), 0);
        assertEq(t.sellTaxBps(), 2_500);
    }

    // ---------------------------------------------------------------- LaunchTaxToken

    function test_launchTax_fallsLinearlyToZero_andRelaunchStartsItAgain() public {
        vm.warp(1_000_000);
        LaunchTaxToken t = new LaunchTaxToken("Launch Tax", "LAUNCH", 2_000, 3_600);
        assertEq(t.launchedAt(), 1_000_000);
        assertEq(t.currentFeeBps(), 2_000);
        t.mint(alice, 1_000e18);
        assertEq(t.balanceOf(alice), 1_000e18);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100e18));
        assertEq(t.balanceOf(bob), 80e18);
        assertEq(t.totalSupply(), 980e18);

        vm.warp(1_000_000 + 1_800);
        assertEq(t.currentFeeBps(), 1_000);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100e18));
        assertEq(t.balanceOf(bob), 170e18);

        vm.warp(1_000_000 + 2_700);
        assertEq(t.currentFeeBps(), 500);
        vm.warp(1_000_000 + 3_600);
        assertEq(t.currentFeeBps(), 0);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100e18));
        assertEq(t.balanceOf(bob), 270e18);

        vm.warp(2_000_000);
        t.relaunch();
        assertEq(t.launchedAt(), 2_000_000);
        assertEq(t.currentFeeBps(), 2_000);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.relaunch();
    }

    // ---------------------------------------------------------------- MaxTxToken

    function test_maxTx_limitsBuysAndSells_notTheOwnerNorWallets() public {
        MaxTxToken t = new MaxTxToken("Max Tx", "MAXTX", 1_000e18);
        // Seeding mints far more than the limit into the pair: mints are exempt.
        address pair = _seed(address(t));
        t.setPool(pair, true);
        t.mint(alice, 10_000e18);
        // A sell of a few hundred passes.
        vm.prank(alice);
        assertTrue(t.transfer(pair, 300e18));
        _swapOut(pair, address(t), alice);
        // A sell of several thousand reverts.
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(MaxTxToken.MaxTxExceeded.selector, 5_000e18, 1_000e18));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(pair, 5_000e18);
        // A buy of more than the limit reverts in the pair's payout.
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pair).getReserves();
        _fund(address(wnative), pair, 100e18);
        bool tokenIs0 = UniswapV2Pair(pair).token0() == address(t);
        uint256 out = _v2AmountOut(100e18, tokenIs0 ? r1 : r0, tokenIs0 ? r0 : r1, V2_A_FEE_BPS);
        assertGt(out, 1_000e18);
        vm.expectRevert(abi.encodeWithSelector(MaxTxToken.MaxTxExceeded.selector, out, 1_000e18));
        UniswapV2Pair(pair).swap(tokenIs0 ? out : 0, tokenIs0 ? 0 : out, bob, "");
        // The owner trades any size, and wallets move any amount between themselves.
        t.mint(address(this), 5_000e18);
        assertTrue(t.transfer(pair, 5_000e18));
        vm.prank(alice);
        assertTrue(t.transfer(bob, 5_000e18));
        // Unmarked, the pair is an ordinary account.
        t.setPool(pair, false);
        vm.prank(bob);
        assertTrue(t.transfer(pair, 5_000e18));
    }

    function test_maxTx_aRouterSwapOfAFewHundredPasses_ofSeveralThousandReverts() public {
        MaxTxToken t = new MaxTxToken("Max Tx", "MAXTX", 1_000e18);
        address pair = _seed(address(t));
        t.setPool(pair, true);
        t.mint(alice, 10_000e18);
        vm.startPrank(alice);
        t.approve(address(router), type(uint256).max);
        router.executeSwaps(
            _path(address(t), address(wnative)),
            300e18,
            0,
            0,
            _hops(_swap(pair, address(t), address(wnative), V2_A, 300e18)),
            0,
            address(0)
        );
        assertGt(wnative.balanceOf(alice), 0);
        vm.expectRevert(abi.encodeWithSelector(MaxTxToken.MaxTxExceeded.selector, 5_000e18, 1_000e18));
        router.executeSwaps(
            _path(address(t), address(wnative)),
            5_000e18,
            0,
            0,
            _hops(_swap(pair, address(t), address(wnative), V2_A, 5_000e18)),
            0,
            address(0)
        );
        vm.stopPrank();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.setMaxTxAmount(0);
    }

    // ---------------------------------------------------------------- SilentPauseToken

    function test_silentPause_stopsEveryTransfer_andLogsNothing() public {
        SilentPauseToken t = new SilentPauseToken("Silent Pause", "SPAUSE");
        t.mint(alice, 100e18);
        vmLogs.recordLogs();
        t.setPaused(true);
        assertEq(vmLogs.getRecordedLogs().length, 0);
        assertTrue(t.paused());
        vm.prank(alice);
        vm.expectRevert(SilentPauseToken.TransfersPaused.selector);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, 1e18);
        vm.expectRevert(SilentPauseToken.TransfersPaused.selector);
        t.mint(bob, 1e18);
        t.setPaused(false);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1e18));
        assertEq(t.balanceOf(bob), 1e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.setPaused(true);
    }

    // ---------------------------------------------------------------- SilentBlocklistToken

    function test_silentBlocklist_revertsFromAndToABlockedAccount_andLogsNothing() public {
        SilentBlocklistToken t = new SilentBlocklistToken("Silent Blocklist", "SBLOCK");
        address pair = _seed(address(t));
        t.mint(alice, 100e18);
        vmLogs.recordLogs();
        t.setBlocked(pair, true);
        assertEq(vmLogs.getRecordedLogs().length, 0);
        assertTrue(t.isBlocked(pair));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(SilentBlocklistToken.BlockedAccount.selector, pair));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(pair, 1e18);
        _fund(address(wnative), pair, 1e18);
        bool tokenIs0 = UniswapV2Pair(pair).token0() == address(t);
        vm.expectRevert(abi.encodeWithSelector(SilentBlocklistToken.BlockedAccount.selector, pair));
        UniswapV2Pair(pair).swap(tokenIs0 ? 1e18 : 0, tokenIs0 ? 0 : 1e18, bob, "");
        t.setBlocked(pair, false);
        t.setBlocked(bob, true);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(SilentBlocklistToken.BlockedAccount.selector, bob));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, 1e18);
        vm.prank(alice);
        assertTrue(t.transfer(pair, 1e18));
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.setBlocked(bob, false);
    }

    // ---------------------------------------------------------------- RebasingToken

    function test_rebasing_balancesGrowWithTime_andTheOwnerRebasesSilently() public {
        vm.warp(1_000_000);
        RebasingToken t = new RebasingToken("Rebasing Token", "REBASE", 1_000);
        assertEq(t.decimals(), 18);
        t.mint(alice, 1_000e18);
        assertEq(t.balanceOf(alice), 1_000e18);
        assertEq(t.sharesOf(alice), 1_000e18);
        vm.warp(1_000_000 + 1 days);
        assertEq(t.index(), 1.1e18);
        assertEq(t.balanceOf(alice), 1_100e18);
        assertEq(t.totalSupply(), 1_100e18);
        vm.warp(1_000_000 + 12 hours + 1 days);
        assertEq(t.balanceOf(alice), 1_150e18);

        vmLogs.recordLogs();
        t.rebase(0.5e18);
        assertEq(vmLogs.getRecordedLogs().length, 0);
        assertEq(t.balanceOf(alice), 500e18);
        assertEq(t.sharesOf(alice), 1_000e18);
        vm.warp(block.timestamp + 2 days);
        assertEq(t.balanceOf(alice), 600e18);

        vm.expectRevert(RebasingToken.ZeroIndex.selector);
        t.rebase(0);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
        t.rebase(1e18);
    }

    function test_rebasing_transfersMoveSharesRoundedDown() public {
        vm.warp(1_000_000);
        RebasingToken t = new RebasingToken("Rebasing Token", "REBASE", 1_000);
        t.mint(alice, 1_000e18);
        t.rebase(3e18);
        assertEq(t.balanceOf(alice), 3_000e18);
        // 1 wei of token is a third of a share: it moves no share, the recipient receives nothing.
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1));
        assertEq(t.balanceOf(bob), 0);
        // 100 wei are 33 shares, worth 99 wei.
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100));
        assertEq(t.sharesOf(bob), 33);
        assertEq(t.balanceOf(bob), 99);
        // More than the balance reverts; the whole balance goes through.
        uint256 all = t.balanceOf(alice);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(RebasingToken.InsufficientBalance.selector, alice, all, all + 1));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, all + 1);
        vm.prank(alice);
        assertTrue(t.transfer(bob, all));
        assertLe(t.balanceOf(alice), 2);
        assertApproxEqAbs(t.balanceOf(bob), 3_000e18, 3);
        // The allowance path spends the allowance in tokens.
        vm.prank(bob);
        t.approve(alice, 10e18);
        vm.prank(alice);
        assertTrue(t.transferFrom(bob, alice, 4e18));
        assertEq(t.allowance(bob, alice), 6e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(RebasingToken.InsufficientAllowance.selector, alice, 6e18, 7e18));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transferFrom(bob, alice, 7e18);
    }

    function test_rebasing_aPoolsBalanceOutgrowsItsReserve() public {
        vm.warp(1_000_000);
        RebasingToken t = new RebasingToken("Rebasing Token", "REBASE", 1_000);
        address pair = _seed(address(t));
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pair).getReserves();
        uint256 reserve = UniswapV2Pair(pair).token0() == address(t) ? r0 : r1;
        assertEq(reserve, POOL_TOKENS);
        vm.warp(block.timestamp + 1 hours);
        assertGt(t.balanceOf(pair), reserve);
        // The growth is anyone's to take.
        UniswapV2Pair(pair).skim(bob);
        assertGt(t.balanceOf(bob), 0);
    }

    // ---------------------------------------------------------------- LyingBalanceToken

    function test_lyingBalance_overstatesByOneUnit_andTheWholeReportedBalanceCannotMove() public {
        LyingBalanceToken t = new LyingBalanceToken("Lying Balance", "LIAR");
        assertEq(t.balanceOf(alice), 0);
        t.mint(alice, 100e18);
        assertEq(t.balanceOf(alice), 100e18 + 1);
        assertEq(t.totalSupply(), 100e18);
        uint256 reported = t.balanceOf(alice);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, 100e18, reported));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        t.transfer(bob, reported);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 100e18));
        assertEq(t.balanceOf(alice), 0);
        assertEq(t.balanceOf(bob), 100e18 + 1);
    }

    // ---------------------------------------------------------------- every token

    function test_everyToken_onlyTheOwnerMints() public {
        address[8] memory tokens = [
            address(new FixedFeeToken("Fixed Fee", "FIXFEE", 2e18)),
            address(new TaxToken("Tax Token", "TAX", 300, 700)),
            address(new LaunchTaxToken("Launch Tax", "LAUNCH", 2_000, 3_600)),
            address(new MaxTxToken("Max Tx", "MAXTX", 1_000e18)),
            address(new SilentPauseToken("Silent Pause", "SPAUSE")),
            address(new SilentBlocklistToken("Silent Blocklist", "SBLOCK")),
            address(new RebasingToken("Rebasing Token", "REBASE", 1_000)),
            address(new LyingBalanceToken("Lying Balance", "LIAR"))
        ];
        for (uint256 i = 0; i < tokens.length; i++) {
            assertEq(Ownable(tokens[i]).owner(), address(this));
            vm.prank(alice);
            vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, alice));
            IMintable(tokens[i]).mint(alice, 1);
        }
    }
}
