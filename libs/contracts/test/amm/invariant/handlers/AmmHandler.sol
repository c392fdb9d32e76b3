// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../../base/Base.sol";
import {TestERC20} from "../../../../src/TestERC20.sol";
import {AmmPool} from "../../../../src/amm/AmmPool.sol";
import {AmmRouter} from "../../../../src/amm/AmmRouter.sol";
import {RefCodeRegistry} from "../../../../src/amm/RefCodeRegistry.sol";
import {SettablePriceOracle} from "../../../../src/amm/oracles/SettablePriceOracle.sol";

/// @notice Drives the AMM for invariant runs: several traders swap both ways, directly or through the router,
/// with an active, a revoked, an unknown or no referral code; prices move; time passes (prices go stale);
/// claim wallets change (locking claims); anyone tries to claim; anyone distributes; the owner takes protocol
/// fees. Expected refusals are caught, so no call reverts. Ghost counters record what must never happen.
/// Claim wallets are accounts that receive tokens from nothing but referral payouts.
contract AmmHandler is Base {
    AmmPool public immutable pool;
    AmmRouter public immutable router;
    RefCodeRegistry public immutable registry;
    SettablePriceOracle public immutable oracle;
    TestERC20 public immutable whype;
    TestERC20 public immutable usdc;
    address public immutable owner;
    address public immutable treasury;

    address[] internal _traders;
    address[] internal _wallets;
    bytes32[] internal _codes;

    /// @notice The last time both prices were set.
    uint256 public pricesUpdatedAt;

    /// @notice Swaps that succeeded while a price was older than the pool's maximum age (must stay 0).
    uint256 public ghostStaleSwaps;
    /// @notice Swaps that paid other than their same-state estimate (must stay 0).
    uint256 public ghostEstimateMismatches;
    /// @notice Referral claims that succeeded for a caller other than the code's claim wallet (must stay 0).
    uint256 public ghostUnauthorizedClaims;
    /// @notice Claims or distributions after which the pool's referral claimable fell by other than what the
    /// claim wallets received (fees paid to someone else; must stay 0).
    uint256 public ghostMisdirectedPayouts;
    /// @notice Referral fees paid out, per token.
    mapping(address token => uint256) public ghostRefPaid;

    uint256 public ghostSwaps;
    uint256 public ghostRefusedSwaps;
    uint256 public ghostClaims;

    constructor(
        AmmPool pool_,
        AmmRouter router_,
        RefCodeRegistry registry_,
        SettablePriceOracle oracle_,
        TestERC20 whype_,
        TestERC20 usdc_,
        address owner_,
        address treasury_,
        bytes32[] memory codes,
        address[] memory wallets
    ) {
        pool = pool_;
        router = router_;
        registry = registry_;
        oracle = oracle_;
        whype = whype_;
        usdc = usdc_;
        owner = owner_;
        treasury = treasury_;
        _codes = codes;
        _wallets = wallets;
        pricesUpdatedAt = block.timestamp;
        for (uint256 i; i < 3; ++i) {
            address trader = vm.addr(uint256(keccak256(abi.encode("trader", i))));
            _traders.push(trader);
            vm.startPrank(trader);
            whype.approve(address(pool), type(uint256).max);
            usdc.approve(address(pool), type(uint256).max);
            whype.approve(address(router), type(uint256).max);
            usdc.approve(address(router), type(uint256).max);
            vm.stopPrank();
        }
    }

    function codes() external view returns (bytes32[] memory) {
        return _codes;
    }

    function wallets() external view returns (address[] memory) {
        return _wallets;
    }

    // ---------------------------------------------------------------- actions

    /// @notice A trader swaps up to ~60% of the output reserve's worth, either way, directly or via the router.
    function swap(uint256 traderSeed, bool usdcIn, uint256 amount, uint256 codeSeed, bool viaRouter) external {
        address trader = _traders[traderSeed % _traders.length];
        (TestERC20 tokenIn, TestERC20 tokenOut) = usdcIn ? (usdc, whype) : (whype, usdc);
        amount = bound(amount, 1, usdcIn ? 600_000e6 : 24_000e18);
        tokenIn.mint(trader, amount);
        // Seeds 0..3 pick a code (active, revoked, unknown, ...); the rest swap without one.
        bytes32 code = codeSeed % 8 < _codes.length ? _codes[codeSeed % 8] : bytes32(0);
        // forge-lint: disable-next-line(block-timestamp)
        bool stale = block.timestamp > pricesUpdatedAt + pool.maxPriceAge();

        uint256 estimate;
        bool estimated;
        try pool.estimateSwap(address(tokenIn), address(tokenOut), amount) returns (uint256 out) {
            (estimate, estimated) = (out, true);
        } catch {}

        uint256 balanceBefore = tokenOut.balanceOf(trader);
        vm.prank(trader);
        try this.doSwap(address(tokenIn), address(tokenOut), amount, code, viaRouter) returns (uint256 paid) {
            ++ghostSwaps;
            if (stale) ++ghostStaleSwaps;
            if (!estimated || paid != estimate || tokenOut.balanceOf(trader) - balanceBefore != paid) {
                ++ghostEstimateMismatches;
            }
        } catch {
            ++ghostRefusedSwaps;
        }
    }

    /// @dev Runs the swap as the pranked trader would; external so that the handler can catch its revert.
    /// The prank applies to the call into this function, so the trader is re-pranked for the swap itself.
    function doSwap(address tokenIn, address tokenOut, uint256 amount, bytes32 code, bool viaRouter)
        external
        returns (uint256)
    {
        address trader = msg.sender;
        vm.prank(trader);
        if (viaRouter) {
            return code == bytes32(0)
                ? router.swap(tokenIn, tokenOut, amount, 0)
                : router.swap(tokenIn, tokenOut, amount, 0, code);
        }
        return
            code == bytes32(0) ? pool.swap(tokenIn, tokenOut, amount, 0) : pool.swap(tokenIn, tokenOut, amount, 0, code);
    }

    /// @notice The price keeper moves WHYPE within $5-$100 and USDC within $0.95-$1.05, refreshing both.
    function updatePrices(uint256 whypePrice, uint256 usdcPrice) external {
        vm.startPrank(owner);
        oracle.setPrice(address(whype), bound(whypePrice, 5e18, 100e18));
        oracle.setPrice(address(usdc), bound(usdcPrice, 0.95e18, 1.05e18));
        vm.stopPrank();
        pricesUpdatedAt = block.timestamp;
    }

    /// @notice Time passes: up to two hours (the pool's maximum price age is one).
    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 1, 2 hours));
    }

    /// @notice Someone (a trader, a past or present claim wallet) claims a code's fees, directly or via the
    /// router.
    function claim(uint256 callerSeed, uint256 codeSeed, bool viaRouter) external {
        bytes32 code = _codes[codeSeed % _codes.length];
        uint256 pick = callerSeed % (_traders.length + _wallets.length);
        address caller = pick < _traders.length ? _traders[pick] : _wallets[pick - _traders.length];
        address wallet = registry.claimWalletOf(code);
        uint256[2] memory before = _walletBalances(wallet);
        uint256[2] memory owedBefore = _totalRefClaimable();

        vm.prank(caller);
        try this.doClaim(code, viaRouter) {
            ++ghostClaims;
            if (caller != wallet) ++ghostUnauthorizedClaims;
            uint256[2] memory paid = _recordPayout(wallet, before);
            _checkPaidWhatWasOwed(owedBefore, paid);
        } catch {}
    }

    /// @dev Claims as the pranked caller would; external so that the handler can catch its revert.
    function doClaim(bytes32 code, bool viaRouter) external {
        address caller = msg.sender;
        vm.prank(caller);
        if (viaRouter) router.claimRefFees(address(whype), address(usdc), code);
        else pool.claimRefFees(code);
    }

    /// @notice Anyone pushes every active, unlocked code's fees to its claim wallet.
    function distribute() external {
        uint256[2][] memory before = new uint256[2][](_wallets.length);
        for (uint256 i; i < _wallets.length; ++i) {
            before[i] = _walletBalances(_wallets[i]);
        }
        uint256[2] memory owedBefore = _totalRefClaimable();
        router.distributeRefFees();
        uint256[2] memory paid;
        for (uint256 i; i < _wallets.length; ++i) {
            uint256[2] memory received = _recordPayout(_wallets[i], before[i]);
            paid[0] += received[0];
            paid[1] += received[1];
        }
        _checkPaidWhatWasOwed(owedBefore, paid);
    }

    /// @notice The operator moves a code to another wallet (which locks its claims for the delay).
    function changeClaimWallet(uint256 codeSeed, uint256 walletSeed) external {
        bytes32 code = _codes[codeSeed % _codes.length];
        if (!registry.isRegistered(code)) return;
        vm.prank(owner);
        registry.setClaimWallet(code, _wallets[walletSeed % _wallets.length]);
    }

    /// @notice The owner takes the protocol fees to the treasury.
    function claimProtocolFees() external {
        vm.prank(owner);
        pool.claimProtocolFees(treasury);
    }

    // ---------------------------------------------------------------- internal

    function _walletBalances(address wallet) internal view returns (uint256[2] memory) {
        return [whype.balanceOf(wallet), usdc.balanceOf(wallet)];
    }

    /// @dev The pool's referral claimable summed over codes, as (WHYPE, USDC).
    function _totalRefClaimable() internal view returns (uint256[2] memory owed) {
        (uint256 t0, uint256 t1) = pool.totalRefClaimable();
        return address(whype) < address(usdc) ? [t0, t1] : [t1, t0];
    }

    /// @dev Books what `wallet` received since `before` as referral payouts (claim wallets have no other
    /// income) and returns it as (WHYPE, USDC).
    function _recordPayout(address wallet, uint256[2] memory before) internal returns (uint256[2] memory received) {
        uint256[2] memory afterBalances = _walletBalances(wallet);
        received = [afterBalances[0] - before[0], afterBalances[1] - before[1]];
        ghostRefPaid[address(whype)] += received[0];
        ghostRefPaid[address(usdc)] += received[1];
    }

    /// @dev Whatever left the referral claimable must have reached the claim wallets.
    function _checkPaidWhatWasOwed(uint256[2] memory owedBefore, uint256[2] memory paid) internal {
        uint256[2] memory owedAfter = _totalRefClaimable();
        if (owedBefore[0] - owedAfter[0] != paid[0] || owedBefore[1] - owedAfter[1] != paid[1]) {
            ++ghostMisdirectedPayouts;
        }
    }
}
