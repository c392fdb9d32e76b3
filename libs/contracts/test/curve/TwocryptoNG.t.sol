// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {TwocryptoNGFixture} from "./TwocryptoNGFixture.sol";
import {ICurveTwocryptoNG, ICurveTwocryptoViewNG} from "./ICurveTwocryptoNG.sol";
import {ReentrantToken} from "./CurveNGMocks.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {FixedFeeToken} from "../../src/devnet/WildTokens.sol";
import {CurveTwocryptoNGStandIn} from "../../src/devnet/curve/CurveTwocryptoNGStandIn.sol";

/// @notice forge's log recording cheatcodes (not in our Vm interface).
interface VmLogs {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory);
}

/// @notice Behaviour of the TwocryptoNG stand-in pool, called through the Vyper's own interface (ICurveTwocryptoNG):
/// metadata, events and their layout, exchange against get_dy (and where they part), exchange_received, the liquidity
/// functions, the admin fee claim, the price oracle, ramps and parameters, the LP token, reentrancy and reverts.
contract TwocryptoNGTest is TwocryptoNGFixture {
    VmLogs internal constant vmLogs = VmLogs(address(uint160(uint256(keccak256("hevm cheat code")))));

    uint256 internal constant PRICE = 2000e18;

    address[2] internal coins; // 6 (USDC-like) and 18 (WETH-like) decimals
    ICurveTwocryptoNG internal pool; // crypto preset, price 2000, seeded with 2M coin 0 and 1000 coin 1

    function setUp() public override {
        super.setUp();
        coins = _coins(6, 18, 1e12);
        pool = _cryptoPool(coins, PRICE);
        pool.add_liquidity([uint256(2_000_000e6), 1000e18], 0);
    }

    // ---------------------------------------------------------------- interface and metadata

    function test_metadata_asVyper() public view {
        assertEq(pool.name(), "Curve TwoCrypto");
        assertEq(pool.symbol(), "crv2");
        assertEq(uint256(pool.decimals()), 18);
        assertEq(pool.version(), "v2.1.0");
        assertEq(pool.coins(0), coins[0]);
        assertEq(pool.coins(1), coins[1]);
        uint256[2] memory p = pool.precisions();
        assertEq(p[0], 1e12);
        assertEq(p[1], 1);
        assertEq(pool.factory(), address(factory));
        assertEq(pool.admin(), address(this));
        assertEq(pool.fee_receiver(), feeReceiver);
        assertEq(pool.MATH(), address(math));
        assertEq(pool.ADMIN_FEE(), 5e9);
        assertEq(pool.A(), A_CRYPTO);
        assertEq(pool.gamma(), GAMMA_CRYPTO);
        assertEq(pool.mid_fee(), MID_FEE);
        assertEq(pool.out_fee(), OUT_FEE);
        assertEq(pool.fee_gamma(), FEE_GAMMA);
        assertEq(pool.allowed_extra_profit(), ALLOWED_EXTRA_PROFIT);
        assertEq(pool.adjustment_step(), ADJUSTMENT_STEP);
        assertEq(pool.ma_time(), MA_EXP_TIME * 694 / 1000); // 601: the stored 866 in seconds
        assertEq(pool.packed_fee_params(), (MID_FEE << 128) | (OUT_FEE << 64) | FEE_GAMMA);
        assertEq(
            pool.packed_rebalancing_params(), (ALLOWED_EXTRA_PROFIT << 128) | (ADJUSTMENT_STEP << 64) | MA_EXP_TIME
        );
        assertEq(pool.initial_A_gamma(), GAMMA_CRYPTO | (A_CRYPTO << 128));
        assertEq(pool.future_A_gamma(), GAMMA_CRYPTO | (A_CRYPTO << 128));
        assertEq(pool.future_A_gamma_time(), 0);
        assertEq(pool.price_scale(), PRICE);
        assertEq(pool.price_oracle(), PRICE);
        assertEq(pool.last_prices(), PRICE);
        assertEq(pool.last_timestamp(), T0);
        assertEq(pool.balances(0), 2_000_000e6);
        assertEq(pool.balances(1), 1000e18);
        assertEq(pool.virtual_price(), 1e18);
        assertEq(pool.get_virtual_price(), 1e18);
        assertEq(pool.xcp_profit(), 1e18);
        assertEq(pool.xcp_profit_a(), 1e18);
        assertEq(pool.fee(), MID_FEE); // balanced: mid_fee
        // D = 4M (the two sides, in coin 0), LP = D / 2 / sqrt(price_scale)
        assertApproxEqAbs(pool.D(), 4_000_000e18, 1e6);
        assertEq(pool.totalSupply(), pool.balanceOf(address(this)));
        assertApproxEqAbs(pool.totalSupply(), uint256(2_000_000e18) * 1e9 / 44721359549, 1e15);
    }

    function test_eventSignatures_areVypers() public pure {
        assertEq(
            CurveTwocryptoNGStandIn.TokenExchange.selector,
            keccak256("TokenExchange(address,uint256,uint256,uint256,uint256,uint256,uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.AddLiquidity.selector,
            keccak256("AddLiquidity(address,uint256[2],uint256,uint256,uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.RemoveLiquidity.selector, keccak256("RemoveLiquidity(address,uint256[2],uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.RemoveLiquidityOne.selector,
            keccak256("RemoveLiquidityOne(address,uint256,uint256,uint256,uint256,uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.RemoveLiquidityImbalance.selector,
            keccak256("RemoveLiquidityImbalance(address,uint256,uint256[2],uint256,uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.NewParameters.selector,
            keccak256("NewParameters(uint256,uint256,uint256,uint256,uint256,uint256)")
        );
        assertEq(
            CurveTwocryptoNGStandIn.RampAgamma.selector,
            keccak256("RampAgamma(uint256,uint256,uint256,uint256,uint256,uint256)")
        );
        assertEq(CurveTwocryptoNGStandIn.StopRampA.selector, keccak256("StopRampA(uint256,uint256,uint256)"));
        assertEq(CurveTwocryptoNGStandIn.ClaimAdminFee.selector, keccak256("ClaimAdminFee(address,uint256[2])"));
        assertEq(CurveTwocryptoNGStandIn.Transfer.selector, keccak256("Transfer(address,address,uint256)"));
        assertEq(CurveTwocryptoNGStandIn.Approval.selector, keccak256("Approval(address,address,uint256)"));
        assertEq(
            CurveTwocryptoNGStandIn.OwnershipTransferred.selector, keccak256("OwnershipTransferred(address,address)")
        );
        assertEq(CurveTwocryptoNGStandIn.RoleMinterChanged.selector, keccak256("RoleMinterChanged(address,bool)"));
    }

    /// @notice At this version the pool's events have no indexed field: TokenExchange's buyer is in the data.
    function test_tokenExchange_buyerIsInTheData_notATopic() public {
        uint256 quoted = pool.get_dy(0, 1, 1000e6);
        vmLogs.recordLogs();
        pool.exchange(0, 1, 1000e6, 0, alice);
        VmLogs.Log memory log =
            _onlyLog(vmLogs.getRecordedLogs(), address(pool), ICurveTwocryptoNG.TokenExchange.selector);
        assertEq(log.topics.length, 1);
        (address buyer, uint256 soldId, uint256 sold, uint256 boughtId, uint256 bought,, uint256 priceScale) =
            abi.decode(log.data, (address, uint256, uint256, uint256, uint256, uint256, uint256));
        assertEq(buyer, address(this)); // the caller, not the receiver
        assertEq(soldId, 0);
        assertEq(sold, 1000e6);
        assertEq(boughtId, 1);
        assertEq(bought, quoted);
        assertEq(priceScale, pool.price_scale());
    }

    /// @notice The pool's constructor logs snekmate's OwnershipTransferred and RoleMinterChanged (to the factory) and
    /// the Vyper's empty Transfer from 0 to the pool; the factory logs TwocryptoPoolDeployed, unindexed.
    function test_deploy_logs() public {
        address[2] memory c = _coins(18, 18, 1);
        vmLogs.recordLogs();
        ICurveTwocryptoNG p = _cryptoPool(c, 1e18);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();

        VmLogs.Log memory owner = _onlyLog(logs, address(p), ICurveTwocryptoNG.OwnershipTransferred.selector);
        assertEq(owner.topics.length, 3);
        assertEq(owner.topics[1], bytes32(0));
        assertEq(owner.topics[2], bytes32(uint256(uint160(address(factory)))));

        VmLogs.Log memory minter = _onlyLog(logs, address(p), ICurveTwocryptoNG.RoleMinterChanged.selector);
        assertEq(minter.topics.length, 2);
        assertEq(minter.topics[1], bytes32(uint256(uint160(address(factory)))));
        assertEq(abi.decode(minter.data, (bool)), true);

        VmLogs.Log memory transfer = _onlyLog(logs, address(p), ICurveTwocryptoNG.Transfer.selector);
        assertEq(transfer.topics.length, 3);
        assertEq(transfer.topics[1], bytes32(0));
        assertEq(transfer.topics[2], bytes32(uint256(uint160(address(p)))));
        assertEq(abi.decode(transfer.data, (uint256)), 0);

        bytes32 deployed = keccak256(
            "TwocryptoPoolDeployed(address,string,string,address[2],address,bytes32,uint256[2],uint256,uint256,uint256,uint256,address)"
        );
        assertEq(_onlyLog(logs, address(factory), deployed).topics.length, 1);
    }

    function test_coins_revertsPastTheLast() public {
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoNGStandIn.CoinIndexOutOfRange.selector, 2));
        pool.coins(2);
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoNGStandIn.CoinIndexOutOfRange.selector, 2));
        pool.balances(2);
    }

    // ---------------------------------------------------------------- exchange

    function testFuzz_exchange_paysExactlyGetDy(uint256 dx, bool zeroForOne, uint256 skew, uint256 dt) public {
        // Skew the pool first (up to ~40% of one side), let time pass, then swap either way.
        skew = bound(skew, 0, 800_000e6);
        if (skew > 0) pool.exchange(0, 1, skew, 0);
        vm.warp(block.timestamp + bound(dt, 0, 7 days));
        (uint256 i, uint256 j) = zeroForOne ? (uint256(0), uint256(1)) : (uint256(1), uint256(0));
        dx = zeroForOne ? bound(dx, 1e4, 1_000_000e6) : bound(dx, 1e15, 500e18);

        uint256 quoted = pool.get_dy(i, j, dx);
        uint256 before = _balance(coins[j], alice);
        uint256 paid = pool.exchange(i, j, dx, quoted, alice);
        assertEq(paid, quoted);
        assertEq(_balance(coins[j], alice) - before, quoted);
        _assertHoldingsMatch();
    }

    function test_exchange_duringRamp_paysExactlyGetDy() public {
        pool.ramp_A_gamma(A_CRYPTO * 3, GAMMA_CRYPTO / 2, block.timestamp + 3 days);
        vm.warp(block.timestamp + 1 days + 17);
        assertEq(pool.A(), A_CRYPTO + (A_CRYPTO * 2) * (1 days + 17) / 3 days);
        for (uint256 k; k < 4; ++k) {
            uint256 quoted = pool.get_dy(k % 2, 1 - k % 2, k % 2 == 0 ? 50_000e6 : 20e18);
            assertEq(pool.exchange(k % 2, 1 - k % 2, k % 2 == 0 ? 50_000e6 : 20e18, 0), quoted);
            vm.warp(block.timestamp + 3 hours);
        }
    }

    /// @notice Dust: get_dy quotes it, but the trade's fee is too small to raise the virtual price (rounded, +1), so
    /// tweak_price reverts "virtual price decreased" (outside a ramp), as on the real pool.
    function test_exchange_dust_revertsWhereGetDyQuotes() public {
        assertEq(pool.get_dy(1, 0, 1e11), 200);
        vm.expectRevert("virtual price decreased");
        pool.exchange(1, 0, 1e11, 0);
        // A little more trades, paying its quote.
        uint256 quoted = pool.get_dy(1, 0, 1e14);
        assertEq(pool.exchange(1, 0, 1e14, 0), quoted);
    }

    function test_exchange_slippage() public {
        uint256 quoted = pool.get_dy(0, 1, 10_000e6);
        vm.expectRevert("slippage");
        pool.exchange(0, 1, 10_000e6, quoted + 1);
    }

    function test_exchange_reverts() public {
        vm.expectRevert("same coin");
        pool.exchange(0, 0, 1e6, 0);
        vm.expectRevert("zero dx");
        pool.exchange(0, 1, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(CurveTwocryptoNGStandIn.CoinIndexOutOfRange.selector, 2));
        pool.exchange(2, 1, 1e6, 0);
        vm.expectRevert();
        pool.exchange(0, 2, 1e6, 0);
        vm.expectRevert("coin index out of range");
        pool.get_dy(0, 0, 1e6);
        vm.expectRevert("do not exchange 0 coins");
        pool.get_dy(0, 1, 0);
    }

    // ---------------------------------------------------------------- exchange_received

    /// @notice exchange_received swaps the whole surplus above the stored balance, not `dx`: it pays get_dy of the
    /// surplus (and logs it as tokens_sold).
    function test_exchangeReceived_swapsTheWholeSurplus() public {
        uint256 dx = 5_000e6;
        uint256 quotedSurplus = pool.get_dy(0, 1, 2 * dx);
        assertTrue(TestERC20(coins[0]).transfer(address(pool), 2 * dx));

        vmLogs.recordLogs();
        uint256 paid = pool.exchange_received(0, 1, dx, 0, bob);
        assertEq(paid, quotedSurplus);
        assertEq(_balance(coins[1], bob), quotedSurplus);
        _assertHoldingsMatch();
        VmLogs.Log memory log =
            _onlyLog(vmLogs.getRecordedLogs(), address(pool), ICurveTwocryptoNG.TokenExchange.selector);
        (address buyer,, uint256 sold,, uint256 bought,,) =
            abi.decode(log.data, (address, uint256, uint256, uint256, uint256, uint256, uint256));
        assertEq(buyer, address(this));
        assertEq(sold, 2 * dx);
        assertEq(bought, quotedSurplus);
    }

    function test_exchangeReceived_revertsWhenShort() public {
        assertTrue(TestERC20(coins[1]).transfer(address(pool), 1e18 - 1));
        vm.expectRevert("user didn't give us coins");
        pool.exchange_received(1, 0, 1e18, 0);
    }

    /// @notice A coin that takes a fee on transfer: exchange swaps what arrived, paying get_dy of that, not of dx.
    function test_exchange_feeOnTransferCoin_paysGetDyOfWhatArrived() public {
        FixedFeeToken fot = new FixedFeeToken("Fee", "FEE", 1e15);
        fot.mint(address(this), 1e30);
        TestERC20 c1 = new TestERC20("C1", "C1", 18);
        c1.mint(address(this), 1e30);
        ICurveTwocryptoNG p = _cryptoPool([address(fot), address(c1)], 1e18);
        fot.approve(address(p), type(uint256).max);
        p.add_liquidity([uint256(1_000_000e18), 1_000_000e18], 0);
        assertEq(p.balances(0), 1_000_000e18 - 1e15);

        uint256 dx = 1000e18;
        uint256 quotedAsked = p.get_dy(0, 1, dx);
        uint256 quotedArrived = p.get_dy(0, 1, dx - 1e15);
        uint256 paid = p.exchange(0, 1, dx, 0);
        assertEq(paid, quotedArrived);
        assertLt(paid, quotedAsked);

        // remove_liquidity_one_coin of coin 1 also transfers 0 of coin 0, which this coin refuses (below its fee).
        // (A first removal, of coin 0, claims the admin fees, so that the second one transfers nothing else of coin 0.)
        p.remove_liquidity_one_coin(1e18, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(FixedFeeToken.TransferBelowFee.selector, 0, 1e15));
        p.remove_liquidity_one_coin(1e18, 1, 0);
    }

    // ---------------------------------------------------------------- liquidity

    function test_addLiquidity_firstDeposit_logsSupplyZero() public {
        address[2] memory c = _coins(18, 18, 1e9);
        ICurveTwocryptoNG p = _cryptoPool(c, 4e18);
        vm.expectEmit(address(p));
        emit ICurveTwocryptoNG.AddLiquidity(alice, [uint256(400e18), 100e18], 0, 0, 4e18);
        uint256 minted = p.add_liquidity([uint256(400e18), 100e18], 0, alice);
        // D = 800, LP = D / 2 / sqrt(4): the virtual price starts at 1.
        assertApproxEqAbs(minted, 200e18, 1e9);
        assertEq(p.balanceOf(alice), minted);
        assertEq(p.get_virtual_price(), 1e18 * (p.D() * 1e18 / 2 / 2e18) / minted);
    }

    function test_addLiquidity_matchesCalcTokenAmount_andLogs() public {
        vm.warp(block.timestamp + 60);
        uint256[2] memory amounts = [uint256(30_000e6), 2e18];
        uint256 quoted = pool.calc_token_amount(amounts, true);
        uint256 supply = pool.totalSupply();
        vmLogs.recordLogs();
        uint256 minted = pool.add_liquidity(amounts, quoted, bob);
        assertEq(minted, quoted);
        assertEq(pool.balanceOf(bob), minted);
        VmLogs.Log memory log =
            _onlyLog(vmLogs.getRecordedLogs(), address(pool), ICurveTwocryptoNG.AddLiquidity.selector);
        (address provider, uint256[2] memory tokenAmounts, uint256 fee_, uint256 tokenSupply, uint256 priceScale) =
            abi.decode(log.data, (address, uint256[2], uint256, uint256, uint256));
        assertEq(provider, bob); // the receiver
        assertEq(tokenAmounts[0], amounts[0]);
        assertEq(tokenAmounts[1], amounts[1]);
        assertGt(fee_, 0);
        assertEq(tokenSupply, supply + minted);
        assertEq(priceScale, pool.price_scale());
    }

    function test_addLiquidity_reverts() public {
        vm.expectRevert("no coins to add");
        pool.add_liquidity([uint256(0), 0], 0);
        uint256 quoted = pool.calc_token_amount([uint256(1000e6), 0], true);
        vm.expectRevert("slippage");
        pool.add_liquidity([uint256(1000e6), 0], quoted + 1);
    }

    function test_removeLiquidity_proportional_lessOneWeiOfLp() public {
        uint256 supply = pool.totalSupply();
        uint256 amount = supply / 4;
        uint256[2] memory expected =
            [pool.balances(0) * (amount - 1) / supply, pool.balances(1) * (amount - 1) / supply];
        uint256 d0 = pool.D();
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.RemoveLiquidity(address(this), expected, supply - amount);
        uint256[2] memory paid = pool.remove_liquidity(amount, expected, alice);
        assertEq(paid[0], expected[0]);
        assertEq(paid[1], expected[1]);
        assertEq(_balance(coins[0], alice), expected[0]);
        assertEq(pool.D(), d0 - d0 * (amount - 1) / supply);
        assertEq(pool.totalSupply(), supply - amount);

        vm.expectRevert("slippage");
        pool.remove_liquidity(amount, [2 * paid[0], 0]);
    }

    function test_removeLiquidity_wholeSupply_emptiesThenReinstantiates() public {
        pool.exchange(0, 1, 100_000e6, 0);
        uint256 supply = pool.totalSupply();
        uint256[2] memory paid = pool.remove_liquidity(supply, [uint256(0), 0]);
        assertGt(paid[0], 2_000_000e6);
        assertEq(pool.D(), 0);
        assertEq(pool.balances(0), 0);
        assertEq(pool.balances(1), 0);
        assertEq(pool.totalSupply(), 0);

        uint256 ps = pool.price_scale();
        uint256 minted = pool.add_liquidity([uint256(1_000e6), 1_000e6 * 1e30 / ps], 0);
        assertGt(minted, 0);
        assertEq(pool.virtual_price(), 1e18);
        assertEq(pool.xcp_profit(), 1e18);
    }

    /// @notice calc_withdraw_one_coin is remove_liquidity_one_coin's own computation, but a removal first claims the
    /// admin fees when a day has passed since the last claim (the first one ever always may): it then pays less.
    function test_removeLiquidityOneCoin_paysTheQuoteUnlessAdminFeesAreClaimed() public {
        _trade(12);
        uint256 lp = pool.totalSupply() / 100;

        // First removal: the claim is due (never claimed), profit exists.
        uint256 quoted = pool.calc_withdraw_one_coin(lp, 1);
        vmLogs.recordLogs();
        uint256 paid = pool.remove_liquidity_one_coin(lp, 1, 0, alice);
        VmLogs.Log[] memory logs = vmLogs.getRecordedLogs();
        assertLt(paid, quoted);
        assertEq(_balance(coins[1], alice), paid);
        assertGt(_balance(coins[0], feeReceiver), 0);
        assertGt(_balance(coins[1], feeReceiver), 0);
        VmLogs.Log memory claim = _onlyLog(logs, address(pool), ICurveTwocryptoNG.ClaimAdminFee.selector);
        (address admin_, uint256[2] memory tokens) = abi.decode(claim.data, (address, uint256[2]));
        assertEq(admin_, feeReceiver);
        assertEq(tokens[0], _balance(coins[0], feeReceiver));
        assertEq(tokens[1], _balance(coins[1], feeReceiver));
        // xcp_profit_a is the profit at the claim (the removal's own fee then adds to xcp_profit).
        assertGt(pool.xcp_profit_a(), 1e18);
        assertLt(pool.xcp_profit_a(), pool.xcp_profit());

        // Single-coin removals emit RemoveLiquidityImbalance (with 0 of the other coin), not RemoveLiquidityOne.
        VmLogs.Log memory removal = _onlyLog(logs, address(pool), ICurveTwocryptoNG.RemoveLiquidityImbalance.selector);
        (address provider, uint256 lpAmount, uint256[2] memory amounts,,) =
            abi.decode(removal.data, (address, uint256, uint256[2], uint256, uint256));
        assertEq(provider, address(this));
        assertEq(lpAmount, lp);
        assertEq(amounts[0], 0);
        assertEq(amounts[1], paid);

        // Within the day: no claim, the quote is exact.
        _trade(4);
        quoted = pool.calc_withdraw_one_coin(lp, 0);
        assertEq(pool.remove_liquidity_one_coin(lp, 0, quoted), quoted);

        // A day later, with profit: claimed again, less than quoted.
        _trade(4);
        vm.warp(block.timestamp + 1 days);
        quoted = pool.calc_withdraw_one_coin(lp, 0);
        assertLt(pool.remove_liquidity_one_coin(lp, 0, 0), quoted);
    }

    /// @notice The views contract's own calc_withdraw_one_coin is the previous version's (another fee, a fee on D): it
    /// does not match the pool's.
    function test_viewsCalcWithdrawOneCoin_isNotThePools() public {
        _trade(6);
        uint256 lp = pool.totalSupply() / 50;
        uint256 pools = pool.calc_withdraw_one_coin(lp, 0);
        uint256 views_ = ICurveTwocryptoViewNG(address(views)).calc_withdraw_one_coin(lp, 0, address(pool));
        assertTrue(pools != views_);
        assertApproxEqAbs(pools, views_, pools / 1000);
    }

    function test_removeLiquidityFixedOut_paysTheQuote() public {
        _trade(6);
        uint256 lp = pool.totalSupply() / 20;
        // Claim the admin fees first (a one-coin removal), so the next removal's quote is exact.
        pool.remove_liquidity_one_coin(1e18, 0, 0);

        uint256 quoted = pool.calc_withdraw_fixed_out(lp, 0, 10_000e6);
        uint256 b0 = _balance(coins[0], bob);
        uint256 b1 = _balance(coins[1], bob);
        assertEq(pool.remove_liquidity_fixed_out(lp, 0, 10_000e6, quoted, bob), quoted);
        assertEq(_balance(coins[0], bob) - b0, 10_000e6);
        assertEq(_balance(coins[1], bob) - b1, quoted);
        _assertHoldingsMatch();

        uint256 tooMuch = pool.totalSupply() + 1;
        vm.expectRevert("withdraw > supply");
        pool.calc_withdraw_fixed_out(tooMuch, 0, 0);
        vm.expectRevert();
        pool.remove_liquidity_one_coin(1e18, 2, 0);
    }

    // ---------------------------------------------------------------- price oracle and repegging

    /// @notice price_oracle() extrapolates with ma_time() (ma_exp_time * 0.694) where tweak_price stores the EMA with
    /// ma_exp_time itself: after time passes the view runs ahead of what the next operation stores.
    function test_priceOracle_viewRunsAheadOfTheStoredOracle() public {
        pool.exchange(0, 1, 300_000e6, 0); // last_prices moves up
        uint256 oracle0 = pool.price_oracle();
        uint256 last = pool.last_prices();
        uint256 ps = pool.price_scale();
        vm.warp(block.timestamp + 600);

        uint256 viewed = pool.price_oracle();
        uint256 alphaView = math.wad_exp(-int256(600e18 / (MA_EXP_TIME * 694 / 1000)));
        uint256 capped = last < 2 * ps ? last : 2 * ps;
        assertEq(viewed, (capped * (1e18 - alphaView) + oracle0 * alphaView) / 1e18);

        pool.exchange(1, 0, 1e15, 0); // any operation stores the oracle
        uint256 stored = pool.price_oracle();
        // casting to 'int256' is safe because the quotient is small
        // forge-lint: disable-next-line(unsafe-typecast)
        uint256 alphaStored = math.wad_exp(-int256(600e18 / MA_EXP_TIME));
        assertEq(stored, (capped * (1e18 - alphaStored) + oracle0 * alphaStored) / 1e18);
        assertGt(viewed, stored);
    }

    /// @notice A sustained move: the oracle follows the spot price and price_scale repegs towards it once the profit
    /// allows; lp_price is 2 * virtual_price * sqrt(price_oracle).
    function test_repeg_priceScaleFollowsTheOracle() public {
        uint256 ps0 = pool.price_scale();
        for (uint256 k; k < 30; ++k) {
            pool.exchange(0, 1, 60_000e6, 0);
            pool.exchange(1, 0, 20e18, 0);
            vm.warp(block.timestamp + 20 minutes);
        }
        uint256 ps1 = pool.price_scale();
        assertGt(ps1, ps0);
        uint256 oracle = pool.price_oracle();
        assertGt(oracle, ps0);
        assertEq(pool.lp_price(), 2 * pool.virtual_price() * _sqrt(oracle * 1e18) / 1e18);
        // The profit kept for LPs: virtual price above 1, xcp_profit above the virtual price.
        assertGt(pool.virtual_price(), 1e18);
        assertGe(pool.xcp_profit(), pool.virtual_price());
    }

    // ---------------------------------------------------------------- admin: ramps and parameters

    function test_rampAGamma_interpolatesAndStops() public {
        uint256 t0 = block.timestamp;
        uint256 t1 = t0 + 4 days;
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.RampAgamma(A_CRYPTO, A_CRYPTO * 4, GAMMA_CRYPTO, GAMMA_CRYPTO * 2, t0, t1);
        pool.ramp_A_gamma(A_CRYPTO * 4, GAMMA_CRYPTO * 2, t1);
        assertEq(pool.future_A_gamma_time(), t1);
        assertEq(pool.initial_A_gamma_time(), t0);

        vm.warp(t0 + 1 days);
        assertEq(pool.A(), (A_CRYPTO * 3 days + A_CRYPTO * 4 * 1 days) / 4 days);
        assertEq(pool.gamma(), (GAMMA_CRYPTO * 3 days + GAMMA_CRYPTO * 2 * 1 days) / 4 days);

        vm.expectRevert("ramp undergoing");
        pool.ramp_A_gamma(A_CRYPTO, GAMMA_CRYPTO, t1 + 1 days);

        uint256 a = pool.A();
        uint256 g = pool.gamma();
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.StopRampA(a, g, block.timestamp);
        pool.stop_ramp_A_gamma();
        vm.warp(block.timestamp + 1 days);
        assertEq(pool.A(), a);
        assertEq(pool.gamma(), g);
    }

    function test_rampAGamma_checks() public {
        vm.prank(alice);
        vm.expectRevert("only owner");
        pool.ramp_A_gamma(A_CRYPTO, GAMMA_CRYPTO, block.timestamp + 1 days);
        vm.prank(alice);
        vm.expectRevert("only owner");
        pool.stop_ramp_A_gamma();

        vm.expectRevert("ramp time<min");
        pool.ramp_A_gamma(A_CRYPTO, GAMMA_CRYPTO, block.timestamp + 1 days - 1);
        vm.expectRevert("A<min");
        pool.ramp_A_gamma(3999, GAMMA_CRYPTO, block.timestamp + 1 days);
        vm.expectRevert("A>max");
        pool.ramp_A_gamma(40_000_001, GAMMA_CRYPTO, block.timestamp + 1 days);
        vm.expectRevert("gamma<min");
        pool.ramp_A_gamma(A_CRYPTO, 1e10 - 1, block.timestamp + 1 days);
        vm.expectRevert("gamma>max");
        pool.ramp_A_gamma(A_CRYPTO, 199e15 + 1, block.timestamp + 1 days);
        vm.expectRevert("A change too high");
        pool.ramp_A_gamma(A_CRYPTO * 10 + 1, GAMMA_CRYPTO, block.timestamp + 1 days);
        vm.expectRevert("A change too low");
        pool.ramp_A_gamma(A_CRYPTO / 10 - 1, GAMMA_CRYPTO, block.timestamp + 1 days);
        vm.expectRevert("gamma change too high");
        pool.ramp_A_gamma(A_CRYPTO, GAMMA_CRYPTO * 10 + 1, block.timestamp + 1 days);
        vm.expectRevert("gamma change too low");
        pool.ramp_A_gamma(A_CRYPTO, GAMMA_CRYPTO / 10 - 1, block.timestamp + 1 days);
    }

    function test_applyNewParameters() public {
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.NewParameters(1e6, 9e7, 5e14, 1e13, 2e14, 600);
        pool.apply_new_parameters(1e6, 9e7, 5e14, 1e13, 2e14, 600);
        assertEq(pool.mid_fee(), 1e6);
        assertEq(pool.out_fee(), 9e7);
        assertEq(pool.fee_gamma(), 5e14);
        assertEq(pool.allowed_extra_profit(), 1e13);
        assertEq(pool.adjustment_step(), 2e14);
        assertEq(pool.ma_time(), 416); // 600 * 694 / 1000

        // Out-of-range values keep the current ones.
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.NewParameters(1e6, 9e7, 5e14, 1e13, 2e14, 600);
        pool.apply_new_parameters(1e10 + 1, 1e10 + 1, 1e18, 1e18 + 1, 1e18 + 1, 872542);

        vm.expectRevert("fee is out of range");
        pool.apply_new_parameters(0, 5e5 - 1, 0, 0, 0, 0);
        vm.expectRevert("mid-fee is too high");
        pool.apply_new_parameters(9e7 + 1, 9e7, 1, 0, 0, 87);
        vm.expectRevert("fee_gamma out of range [1 .. 10**18]");
        pool.apply_new_parameters(1e6, 9e7, 0, 0, 0, 87);
        vm.expectRevert("MA time should be longer than 60/ln(2)");
        pool.apply_new_parameters(1e6, 9e7, 1, 0, 0, 86);
        vm.prank(alice);
        vm.expectRevert("only owner");
        pool.apply_new_parameters(1e6, 9e7, 5e14, 1e13, 2e14, 600);
    }

    // ---------------------------------------------------------------- LP token (snekmate's erc20)

    function test_lpToken_transfers() public {
        uint256 bal = pool.balanceOf(address(this));
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.Transfer(address(this), alice, 1e18);
        assertTrue(pool.transfer(alice, 1e18));
        assertEq(pool.balanceOf(alice), 1e18);
        assertEq(pool.balanceOf(address(this)), bal - 1e18);

        // To the pool itself: allowed at this version.
        assertTrue(pool.transfer(address(pool), 1));
        vm.expectRevert("erc20: transfer to the zero address");
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        pool.transfer(address(0), 1);
        vm.expectRevert("erc20: transfer amount exceeds balance");
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        pool.transfer(alice, bal);

        vm.prank(alice);
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.Approval(alice, bob, 5e17);
        pool.approve(bob, 5e17);
        vm.prank(bob);
        vm.expectEmit(address(pool));
        emit ICurveTwocryptoNG.Approval(alice, bob, 3e17); // spending emits the new allowance
        assertTrue(pool.transferFrom(alice, bob, 2e17));
        assertEq(pool.allowance(alice, bob), 3e17);
        vm.prank(bob);
        vm.expectRevert("erc20: insufficient allowance");
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        pool.transferFrom(alice, bob, 4e17);

        vm.prank(alice);
        pool.approve(bob, type(uint256).max);
        vm.prank(bob);
        assertTrue(pool.transferFrom(alice, bob, 1e17));
        assertEq(pool.allowance(alice, bob), type(uint256).max);

        vm.expectRevert("erc20: approve to the zero address");
        pool.approve(address(0), 1);
    }

    // ---------------------------------------------------------------- reentrancy

    /// @notice While the pool is in a swap, re-entering it fails, and so do its guarded views and the quotes that read
    /// them (get_dy reads price_scale(), a nonreentrant view): a coin's callback cannot read a half-updated pool.
    function test_reentrancy_guardsStateAndQuotes() public {
        ReentrantToken re = new ReentrantToken();
        re.mint(address(this), 1e30);
        TestERC20 c1 = new TestERC20("C1", "C1", 18);
        c1.mint(address(this), 1e30);
        ICurveTwocryptoNG p = _cryptoPool([address(re), address(c1)], 1e18);
        re.approve(address(p), type(uint256).max);
        p.add_liquidity([uint256(1_000_000e18), 1_000_000e18], 0);

        bytes[4] memory calls = [
            abi.encodeWithSignature("exchange(uint256,uint256,uint256,uint256)", 1, 0, 1e18, 0),
            abi.encodeCall(ICurveTwocryptoNG.get_virtual_price, ()),
            abi.encodeCall(ICurveTwocryptoNG.price_oracle, ()),
            abi.encodeCall(ICurveTwocryptoNG.get_dy, (0, 1, 1e18))
        ];
        for (uint256 k; k < calls.length; ++k) {
            re.arm(address(p), calls[k]);
            p.exchange(0, 1, 1e18, 0);
            assertFalse(re.lastCallOk());
        }
        re.arm(address(p), calls[1]);
        p.exchange(0, 1, 1e18, 0);
        assertEq(bytes4(re.lastReturn()), ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
    }

    // ---------------------------------------------------------------- helpers

    /// @dev Round trips that leave profit (fees) in the pool, an hour apart.
    function _trade(uint256 rounds) internal {
        for (uint256 k; k < rounds; ++k) {
            pool.exchange(0, 1, 50_000e6, 0);
            pool.exchange(1, 0, 25e18, 0);
            vm.warp(block.timestamp + 1 hours);
        }
    }

    function _assertHoldingsMatch() internal view {
        assertEq(_balance(coins[0], address(pool)), pool.balances(0));
        assertEq(_balance(coins[1], address(pool)), pool.balances(1));
    }

    function _onlyLog(VmLogs.Log[] memory logs, address emitter, bytes32 topic0)
        internal
        pure
        returns (VmLogs.Log memory found)
    {
        uint256 count;
        for (uint256 k; k < logs.length; ++k) {
            if (logs[k].emitter == emitter && logs[k].topics[0] == topic0) {
                found = logs[k];
                ++count;
            }
        }
        require(count == 1, "expected exactly one such log");
    }

    function _sqrt(uint256 x) internal pure returns (uint256 r) {
        if (x == 0) return 0;
        r = x;
        uint256 y = (x + 1) / 2;
        while (y < r) {
            r = y;
            y = (x / y + y) / 2;
        }
    }
}
