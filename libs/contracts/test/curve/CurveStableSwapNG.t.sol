// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {CurveNGFixture} from "./CurveNGFixture.sol";
import {ICurveStableSwapNG} from "./ICurveNG.sol";
import {MockERC4626, MockRateOracle, ReentrantToken, ShortAnswerOracle} from "./CurveNGMocks.sol";
import {TestERC20} from "../../src/TestERC20.sol";
import {RebasingToken} from "../../src/devnet/WildTokens.sol";
import {CurveStableSwapNGStandIn} from "../../src/devnet/curve/CurveStableSwapNGStandIn.sol";

/// @notice Behaviour of the StableswapNG stand-in pool, called through NG's own interface (ICurveStableSwapNG, from the
/// Vyper): swaps and exchange_received, rebasing / oracle / ERC4626 coins, liquidity round trips, events, admin
/// functions, the LP token, reentrancy, and NG's reverts.
contract CurveStableSwapNGTest is CurveNGFixture {
    address[] internal coins2; // 6 and 18 decimals
    ICurveStableSwapNG internal pool; // coins2, A 200, seeded with 1M of each

    function setUp() public override {
        super.setUp();
        coins2 = _coins(_u8s(6, 18), 1e9);
        pool = ICurveStableSwapNG(address(_plainPool(coins2, 200, FEE, OFFPEG)));
        pool.add_liquidity(_amounts(1_000_000e6, 1_000_000e18), 0);
    }

    // ---------------------------------------------------------------- interface and metadata

    function test_metadata_asNG() public view {
        assertEq(pool.N_COINS(), 2);
        assertEq(pool.coins(0), coins2[0]);
        assertEq(pool.coins(1), coins2[1]);
        assertEq(pool.fee(), FEE);
        assertEq(pool.offpeg_fee_multiplier(), OFFPEG);
        assertEq(pool.admin_fee(), 5000000000);
        assertEq(pool.A(), 200);
        assertEq(pool.A_precise(), 20000);
        assertEq(pool.initial_A(), 20000);
        assertEq(pool.future_A(), 20000);
        assertEq(pool.ma_exp_time(), 866);
        assertEq(pool.D_ma_time(), 62324);
        assertEq(pool.version(), "v7.0.0");
        assertEq(pool.name(), "Curve NG");
        assertEq(pool.symbol(), "crvNG");
        assertEq(uint256(pool.decimals()), 18);
        uint256[] memory rates = pool.stored_rates();
        assertEq(rates[0], 1e30);
        assertEq(rates[1], 1e18);
        uint256[] memory balances = pool.get_balances();
        assertEq(balances[0], 1_000_000e6);
        assertEq(balances[1], 1_000_000e18);
        assertEq(pool.balances(1), 1_000_000e18);
        assertEq(pool.totalSupply(), 2_000_000e18);
        assertEq(pool.get_virtual_price(), 1e18);
    }

    function test_eventSignatures_areNGs() public pure {
        assertEq(
            CurveStableSwapNGStandIn.TokenExchange.selector,
            keccak256("TokenExchange(address,int128,uint256,int128,uint256)")
        );
        assertEq(
            CurveStableSwapNGStandIn.AddLiquidity.selector,
            keccak256("AddLiquidity(address,uint256[],uint256[],uint256,uint256)")
        );
        assertEq(
            CurveStableSwapNGStandIn.RemoveLiquidity.selector,
            keccak256("RemoveLiquidity(address,uint256[],uint256[],uint256)")
        );
        assertEq(
            CurveStableSwapNGStandIn.RemoveLiquidityOne.selector,
            keccak256("RemoveLiquidityOne(address,int128,uint256,uint256,uint256)")
        );
        assertEq(
            CurveStableSwapNGStandIn.RemoveLiquidityImbalance.selector,
            keccak256("RemoveLiquidityImbalance(address,uint256[],uint256[],uint256,uint256)")
        );
        assertEq(CurveStableSwapNGStandIn.RampA.selector, keccak256("RampA(uint256,uint256,uint256,uint256)"));
        assertEq(CurveStableSwapNGStandIn.StopRampA.selector, keccak256("StopRampA(uint256,uint256)"));
        assertEq(CurveStableSwapNGStandIn.ApplyNewFee.selector, keccak256("ApplyNewFee(uint256,uint256)"));
        assertEq(CurveStableSwapNGStandIn.Transfer.selector, keccak256("Transfer(address,address,uint256)"));
        assertEq(CurveStableSwapNGStandIn.Approval.selector, keccak256("Approval(address,address,uint256)"));
    }

    function test_coins_revertsPastTheLast() public {
        vm.expectRevert();
        pool.coins(2);
    }

    // ---------------------------------------------------------------- exchange

    function testFuzz_exchange_paysExactlyGetDy(uint256 dx, bool zeroForOne, uint256 skew) public {
        // Skew the pool first (up to ~80% of one side), then swap either way.
        skew = bound(skew, 0, 800_000e6);
        if (skew > 0) pool.exchange(0, 1, skew, 0);
        (int128 i, int128 j) = zeroForOne ? (int128(0), int128(1)) : (int128(1), int128(0));
        dx = zeroForOne ? bound(dx, 1e4, 500_000e6) : bound(dx, 1e16, 500_000e18);

        uint256 quoted = pool.get_dy(i, j, dx);
        address out = coins2[zeroForOne ? 1 : 0];
        uint256 before = _balance(out, alice);
        uint256 paid = pool.exchange(i, j, dx, quoted, alice);
        assertEq(paid, quoted);
        assertEq(_balance(out, alice) - before, quoted);
        _assertHoldingsMatch(pool, coins2);
    }

    function testFuzz_exchange_3coins_paysExactlyGetDy(uint256 dx, uint256 i, uint256 j, uint256 skew) public {
        address[] memory coins3 = _coins(_u8s(18, 6, 6), 1e9);
        ICurveStableSwapNG p = ICurveStableSwapNG(address(_plainPool(coins3, 1000, 1000000, 50000000000)));
        p.add_liquidity(_amounts(3_000_000e18, 1_000_000e6, 500_000e6), 0);
        skew = bound(skew, 1, 2_000_000e6);
        p.exchange(1, 0, skew, 0);
        i = bound(i, 0, 2);
        j = (i + 1 + bound(j, 0, 1)) % 3;
        uint256 unit = 10 ** TestERC20(coins3[i]).decimals();
        dx = bound(dx, unit / 100, 1_000_000 * unit);
        uint256 quoted = p.get_dy(_i128(i), _i128(j), dx);
        assertEq(p.exchange(_i128(i), _i128(j), dx, quoted), quoted);
        _assertHoldingsMatch(p, coins3);
    }

    function test_exchange_emitsTokenExchangeWithTheCallerAsBuyer() public {
        uint256 quoted = pool.get_dy(0, 1, 1000e6);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.TokenExchange(address(this), 0, 1000e6, 1, quoted);
        pool.exchange(0, 1, 1000e6, 0, bob);
        assertEq(_balance(coins2[1], bob), quoted);
    }

    function test_exchange_takesTheDynamicFeeOffPeg() public {
        // At peg the fee is the base fee; after a large imbalance the fee between the coins is higher.
        assertEq(pool.dynamic_fee(0, 1), FEE);
        pool.exchange(0, 1, 900_000e6, 0);
        assertGt(pool.dynamic_fee(0, 1), FEE);
        assertGt(pool.admin_balances(1), 0);
    }

    function test_exchange_reverts() public {
        vm.expectRevert(CurveStableSwapNGStandIn.SameCoin.selector);
        pool.exchange(0, 0, 1e6, 0);
        vm.expectRevert(CurveStableSwapNGStandIn.ZeroAmount.selector);
        pool.exchange(0, 1, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.CoinIndexOutOfRange.selector, int128(2)));
        pool.exchange(0, 2, 1e6, 0);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.CoinIndexOutOfRange.selector, int128(-1)));
        pool.get_dy(-1, 0, 1e6);
        uint256 quoted = pool.get_dy(0, 1, 1e6);
        vm.expectRevert(bytes("Exchange resulted in fewer coins than expected"));
        pool.exchange(0, 1, 1e6, quoted + 1);
        vm.expectRevert(CurveStableSwapNGStandIn.ZeroReceiver.selector);
        pool.exchange(0, 1, 1e6, 0, address(0));
    }

    // ---------------------------------------------------------------- exchange_received

    function test_exchangeReceived_swapsWhatThePoolReceived() public {
        uint256 quoted = pool.get_dy(1, 0, 2500e18);
        assertTrue(TestERC20(coins2[1]).transfer(address(pool), 2500e18));
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.TokenExchange(address(this), 1, 2500e18, 0, quoted);
        uint256 paid = pool.exchange_received(1, 0, 2500e18, quoted, bob);
        assertEq(paid, quoted);
        assertEq(_balance(coins2[0], bob), quoted);
        _assertHoldingsMatch(pool, coins2);
    }

    function test_exchangeReceived_swapsTheWholeSurplus() public {
        // NG swaps everything above the stored balance, not just `_dx`.
        assertTrue(TestERC20(coins2[0]).transfer(address(pool), 3000e6));
        uint256 quoted = pool.get_dy(0, 1, 3000e6);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.TokenExchange(address(this), 0, 3000e6, 1, quoted);
        assertEq(pool.exchange_received(0, 1, 1000e6, 0), quoted);
    }

    function test_exchangeReceived_revertsWhenTooLittleArrived() public {
        assertTrue(TestERC20(coins2[0]).transfer(address(pool), 999e6));
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.InsufficientReceived.selector, 999e6, 1000e6));
        pool.exchange_received(0, 1, 1000e6, 0);
    }

    function test_exchangeReceived_doesNotSwapTheAdminFees() public {
        // Admin fees are held by the pool but are part of the stored balance: they are no surplus.
        pool.exchange(0, 1, 100_000e6, 0);
        assertGt(pool.admin_balances(1), 0);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.InsufficientReceived.selector, 0, 1));
        pool.exchange_received(1, 0, 1, 0);
    }

    // ---------------------------------------------------------------- rebasing coins (asset type 2)

    function test_rebasing_balancesFollowBalanceOf_andExchangeReceivedIsRefused() public {
        RebasingToken steth = new RebasingToken("Staked", "stETH", 0);
        TestERC20 weth = new TestERC20("Wrapped", "WETH", 18);
        steth.mint(address(this), 1_000_000e18);
        weth.mint(address(this), 1_000_000e18);
        address[] memory coins = new address[](2);
        coins[0] = address(weth);
        coins[1] = address(steth);
        uint8[] memory assetTypes = new uint8[](2);
        assetTypes[1] = 2;
        CurveStableSwapNGStandIn standIn = _pool(coins, assetTypes, new bytes4[](2), new address[](2), 100, FEE, OFFPEG);
        ICurveStableSwapNG p = ICurveStableSwapNG(address(standIn));
        p.add_liquidity(_amounts(100_000e18, 100_000e18), 0);

        // A rebase of +1% shows in the balances without any call to the pool.
        uint256 before = p.balances(1);
        steth.rebase(1.01e18);
        assertEq(p.balances(1), steth.balanceOf(address(p)) - p.admin_balances(1));
        assertGt(p.balances(1), before);

        // exchange_received is refused, even for the standard coin.
        assertTrue(weth.transfer(address(p), 10e18));
        vm.expectRevert(CurveStableSwapNGStandIn.RebasingPool.selector);
        p.exchange_received(0, 1, 10e18, 0);
        vm.expectRevert(CurveStableSwapNGStandIn.RebasingPool.selector);
        p.exchange_received(0, 1, 10e18, 0, bob);

        // exchange pays get_dy (both read balanceOf; the 10 WETH donated above count as pool balance). Selling the
        // rebasing coin, the pool swaps what it received, which the token's share rounding may make a unit short.
        uint256 quoted = p.get_dy(1, 0, 500e18);
        uint256 paid = p.exchange(1, 0, 500e18, 0);
        assertLe(paid, quoted);
        assertApproxEqAbs(paid, quoted, 3);
        quoted = p.get_dy(0, 1, 700e18);
        uint256 got = steth.balanceOf(address(this));
        assertEq(p.exchange(0, 1, 700e18, quoted), quoted);
        assertApproxEqAbs(steth.balanceOf(address(this)) - got, quoted, 2); // the token's share rounding
    }

    // ---------------------------------------------------------------- oracle and ERC4626 coins (types 1 and 3)

    function test_oracle_rateScalesTheCoin() public {
        TestERC20 eth = new TestERC20("Ether", "ETH", 18);
        TestERC20 wsteth = new TestERC20("Wrapped staked", "wstETH", 18);
        eth.mint(address(this), 1e9 * 1e18);
        wsteth.mint(address(this), 1e9 * 1e18);
        MockRateOracle oracle = new MockRateOracle(1.15e18);
        address[] memory coins = new address[](2);
        coins[0] = address(eth);
        coins[1] = address(wsteth);
        uint8[] memory assetTypes = new uint8[](2);
        assetTypes[1] = 1;
        bytes4[] memory methodIds = new bytes4[](2);
        methodIds[1] = bytes4(keccak256("rate()"));
        address[] memory oracles = new address[](2);
        oracles[1] = address(oracle);
        ICurveStableSwapNG p =
            ICurveStableSwapNG(address(_pool(coins, assetTypes, methodIds, oracles, 500, FEE, OFFPEG)));

        // NG calls the oracle with 32 bytes of calldata: the method id, then 28 zero bytes.
        vm.expectCall(address(oracle), abi.encodePacked(bytes4(keccak256("rate()")), bytes28(0)));
        assertEq(p.stored_rates()[1], 1.15e18);

        p.add_liquidity(_amounts(115_000e18, 100_000e18), 0);
        assertEq(p.get_virtual_price(), 1e18);
        // One wstETH buys about 1.15 ETH.
        uint256 out = p.get_dy(1, 0, 1e18);
        assertGt(out, 1.149e18);
        assertLt(out, 1.15e18);
        assertEq(p.exchange(1, 0, 1e18, out), out);

        // The rate is read live.
        oracle.setRate(1.2e18);
        assertGt(p.get_dy(1, 0, 1e18), 1.19e18);
    }

    function test_oracle_shortAnswerReverts() public {
        address[] memory coins = _coins(_u8s(18, 18), 1e6);
        uint8[] memory assetTypes = new uint8[](2);
        assetTypes[0] = 1;
        bytes4[] memory methodIds = new bytes4[](2);
        methodIds[0] = bytes4(keccak256("rate()"));
        address[] memory oracles = new address[](2);
        oracles[0] = address(new ShortAnswerOracle());
        ICurveStableSwapNG p =
            ICurveStableSwapNG(address(_pool(coins, assetTypes, methodIds, oracles, 100, FEE, OFFPEG)));
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidOracleResponse.selector);
        p.stored_rates();
    }

    function test_erc4626_rateIsTheSharePrice() public {
        // An 18-decimal vault over a 6-decimal asset, one share worth 1.05 of the asset.
        TestERC20 usdc = new TestERC20("USD", "USDC", 6);
        MockERC4626 vault = new MockERC4626(address(usdc), 18, 1_050_000);
        vault.mint(address(this), 1e9 * 1e18);
        usdc.mint(address(this), 1e9 * 1e6);
        address[] memory coins = new address[](2);
        coins[0] = address(usdc);
        coins[1] = address(vault);
        uint8[] memory assetTypes = new uint8[](2);
        assetTypes[1] = 3;
        ICurveStableSwapNG p =
            ICurveStableSwapNG(address(_pool(coins, assetTypes, new bytes4[](2), new address[](2), 200, FEE, OFFPEG)));
        // 10 ** (36 - 18) * convertToAssets(1e18) * 10 ** (18 - 6) / 1e18
        assertEq(p.stored_rates()[1], 1.05e18);

        p.add_liquidity(_amounts(105_000e6, 100_000e18), 0);
        uint256 out = p.get_dy(1, 0, 1e18);
        assertEq(p.exchange(1, 0, 1e18, out), out);
        assertGt(out, 1.049e6);

        vault.setAssetsPerShare(1_100_000);
        assertEq(p.stored_rates()[1], 1.1e18);
    }

    // ---------------------------------------------------------------- liquidity

    function test_addLiquidity_first_emitsAndMintsD() public {
        address[] memory coins = _coins(_u8s(6, 18), 1e6);
        ICurveStableSwapNG p = ICurveStableSwapNG(address(_plainPool(coins, 100, FEE, OFFPEG)));
        uint256[] memory amounts = _amounts(1000e6, 1000e18);
        vm.expectEmit(true, true, true, true, address(p));
        emit ICurveStableSwapNG.Transfer(address(0), alice, 2000e18);
        vm.expectEmit(true, true, true, true, address(p));
        emit ICurveStableSwapNG.AddLiquidity(address(this), amounts, new uint256[](0), 2000e18, 2000e18);
        assertEq(p.add_liquidity(amounts, 2000e18, alice), 2000e18);
        assertEq(p.balanceOf(alice), 2000e18);
    }

    function test_addLiquidity_first_requiresEveryCoin() public {
        address[] memory coins = _coins(_u8s(6, 18), 1e6);
        ICurveStableSwapNG p = ICurveStableSwapNG(address(_plainPool(coins, 100, FEE, OFFPEG)));
        vm.expectRevert(CurveStableSwapNGStandIn.InitialDepositRequiresAllCoins.selector);
        p.add_liquidity(_amounts(1000e6, 0), 0);
    }

    function test_addLiquidity_matchesCalcTokenAmount_andChargesImbalanceFees() public {
        uint256[] memory amounts = _amounts(50_000e6, 0);
        uint256 expected = pool.calc_token_amount(amounts, true);
        vm.expectRevert(bytes("Slippage screwed you"));
        pool.add_liquidity(amounts, expected + 1);
        assertEq(pool.add_liquidity(amounts, expected), expected);
        // A one-sided deposit pays fees: the admin's half stays in the pool.
        assertGt(pool.admin_balances(0), 0);
        assertGt(pool.admin_balances(1), 0);
        _assertHoldingsMatch(pool, coins2);
    }

    function test_roundTrip_addThenRemoveProportionally() public {
        uint256 usdcBefore = _balance(coins2[0], address(this));
        uint256 daiBefore = _balance(coins2[1], address(this));
        uint256 minted = pool.add_liquidity(_amounts(10_000e6, 10_000e18), 0);
        assertEq(minted, 20_000e18); // a balanced deposit pays no fee

        uint256[] memory mins = _amounts(9_999e6, 9_999e18);
        uint256 supply = pool.totalSupply();
        uint256[] memory expected = _amounts(pool.balances(0) * minted / supply, pool.balances(1) * minted / supply);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.Transfer(address(this), address(0), minted);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.RemoveLiquidity(address(this), expected, new uint256[](0), supply - minted);
        uint256[] memory paid = pool.remove_liquidity(minted, mins);
        assertEq(paid[0], expected[0]);
        assertEq(paid[1], expected[1]);
        assertApproxEqAbs(paid[0], 10_000e6, 1);
        assertApproxEqAbs(paid[1], 10_000e18, 1);
        assertApproxEqAbs(_balance(coins2[0], address(this)), usdcBefore, 1);
        assertApproxEqAbs(_balance(coins2[1], address(this)), daiBefore, 1);
        assertEq(pool.totalSupply(), 2_000_000e18);
    }

    function test_roundTrip_addImbalancedThenRemoveOneCoin() public {
        uint256 minted = pool.add_liquidity(_amounts(0, 20_000e18), 0);
        uint256 expected = pool.calc_withdraw_one_coin(minted, 1);
        assertLt(expected, 20_000e18); // fees both ways
        assertGt(expected, 19_990e18);
        vm.expectRevert(bytes("Not enough coins removed"));
        pool.remove_liquidity_one_coin(minted, 1, expected + 1);
        uint256 supply = pool.totalSupply();
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.RemoveLiquidityOne(address(this), 1, minted, expected, supply - minted);
        assertEq(pool.remove_liquidity_one_coin(minted, 1, expected, alice), expected);
        assertEq(_balance(coins2[1], alice), expected);
        assertEq(pool.balanceOf(address(this)), 2_000_000e18);
        _assertHoldingsMatch(pool, coins2);
    }

    function test_removeLiquidityImbalance_burnsCalcTokenAmountPlusOne() public {
        uint256[] memory amounts = _amounts(1_000e6, 25_000e18);
        uint256 estimate = pool.calc_token_amount(amounts, false);
        vm.expectRevert(bytes("Slippage screwed you"));
        pool.remove_liquidity_imbalance(amounts, estimate);
        uint256 supply = pool.totalSupply();
        // The fees and the new D are the pool's to compute (the vectors check them); here the event's shape and
        // provider, amounts and supply.
        vm.expectEmit(true, true, true, false, address(pool));
        emit ICurveStableSwapNG.RemoveLiquidityImbalance(
            address(this), amounts, new uint256[](2), 0, supply - estimate - 1
        );
        uint256 burnt = pool.remove_liquidity_imbalance(amounts, estimate + 1, alice);
        assertEq(pool.totalSupply(), supply - burnt);
        assertEq(burnt, estimate + 1);
        assertEq(_balance(coins2[0], alice), 1_000e6);
        assertEq(_balance(coins2[1], alice), 25_000e18);
        _assertHoldingsMatch(pool, coins2);
    }

    function test_removeLiquidity_reverts() public {
        vm.expectRevert(CurveStableSwapNGStandIn.ZeroAmount.selector);
        pool.remove_liquidity(0, _amounts(0, 0));
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidArrayLength.selector);
        pool.remove_liquidity(1e18, new uint256[](3));
        vm.expectRevert(bytes("Withdrawal resulted in fewer coins than expected"));
        pool.remove_liquidity(1e18, _amounts(1e6, 0));
    }

    // ---------------------------------------------------------------- admin fees

    function test_adminFees_keptUntilWithdrawn() public {
        pool.exchange(0, 1, 200_000e6, 0);
        pool.exchange(1, 0, 100_000e18, 0);
        uint256 fee0 = pool.admin_balances(0);
        uint256 fee1 = pool.admin_balances(1);
        assertGt(fee0, 0);
        assertGt(fee1, 0);
        // remove_liquidity without the claim keeps them.
        pool.remove_liquidity(1e18, _amounts(0, 0), address(this), false);
        assertEq(pool.admin_balances(0), fee0);
        uint256 vp = pool.get_virtual_price();

        pool.withdraw_admin_fees();
        assertEq(_balance(coins2[0], feeReceiver), fee0);
        assertEq(_balance(coins2[1], feeReceiver), fee1);
        assertEq(pool.admin_balances(0), 0);
        assertEq(pool.admin_balances(1), 0);
        assertEq(pool.get_virtual_price(), vp);
        _assertHoldingsMatch(pool, coins2);
    }

    function test_adminFees_notSentWithoutAFeeReceiver() public {
        factory.set_fee_receiver(address(0), address(0));
        pool.exchange(0, 1, 200_000e6, 0);
        uint256 fee1 = pool.admin_balances(1);
        pool.withdraw_admin_fees();
        assertEq(pool.admin_balances(1), fee1);
    }

    // ---------------------------------------------------------------- A ramp and fees

    function test_rampA_interpolates_andGetDyUsesTruncatedA() public {
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.RampA(20000, 100000, T0, T0 + 10 days);
        pool.ramp_A(1000, T0 + 10 days);

        vm.warp(T0 + 1 days + 1 hours);
        uint256 elapsed = 1 days + 1 hours;
        uint256 aPrecise = 20000 + 80000 * elapsed / 10 days;
        assertEq(pool.A_precise(), aPrecise);
        assertEq(pool.A(), aPrecise / 100);
        assertTrue(aPrecise % 100 != 0);

        // Mid-ramp the real pool's get_dy (its views contract) runs at A() * 100 while exchange runs at A_precise:
        // in an imbalanced pool the quote is off, either way (the vectors see up to 0.17%). The stand-in does the same.
        pool.exchange(0, 1, 600_000e6, 0);
        uint256 quoted = pool.get_dy(0, 1, 100_000e6);
        uint256 paid = pool.exchange(0, 1, 100_000e6, 0);
        assertTrue(quoted != paid);
        assertApproxEqAbs(quoted, paid, paid / 1e3);

        // Once the ramp is over, A is whole again and the quote exact.
        vm.warp(T0 + 10 days);
        assertEq(pool.A(), 1000);
        quoted = pool.get_dy(0, 1, 100_000e6);
        assertEq(pool.exchange(0, 1, 100_000e6, 0), quoted);
    }

    function test_stopRampA() public {
        pool.ramp_A(400, T0 + 2 days);
        vm.warp(T0 + 1 days);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.StopRampA(30000, T0 + 1 days);
        pool.stop_ramp_A();
        vm.warp(T0 + 5 days);
        assertEq(pool.A(), 300);
    }

    function test_rampA_guards() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.OnlyOwner.selector, alice));
        pool.ramp_A(400, T0 + 2 days);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.OnlyOwner.selector, alice));
        pool.stop_ramp_A();

        vm.expectRevert(CurveStableSwapNGStandIn.RampTooSoon.selector);
        pool.ramp_A(400, T0 + 1 days - 1);
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidA.selector);
        pool.ramp_A(2001, T0 + 2 days);
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidA.selector);
        pool.ramp_A(19, T0 + 2 days);
        vm.expectRevert(CurveStableSwapNGStandIn.InvalidA.selector);
        pool.ramp_A(0, T0 + 2 days);

        pool.ramp_A(2000, T0 + 2 days);
        vm.expectRevert(CurveStableSwapNGStandIn.RampTooSoon.selector);
        pool.ramp_A(1000, T0 + 3 days);
    }

    function test_rampA_followsTheFactoryAdmin() public {
        factory.commit_transfer_ownership(alice);
        vm.prank(alice);
        factory.accept_transfer_ownership();
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.OnlyOwner.selector, address(this)));
        pool.ramp_A(400, T0 + 2 days);
        vm.prank(alice);
        pool.ramp_A(400, T0 + 2 days);
    }

    function test_setNewFee() public {
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.ApplyNewFee(1000000, 50000000000);
        pool.set_new_fee(1000000, 50000000000);
        assertEq(pool.fee(), 1000000);
        assertEq(pool.offpeg_fee_multiplier(), 50000000000);
        vm.expectRevert(CurveStableSwapNGStandIn.FeeTooHigh.selector);
        pool.set_new_fee(5e9 + 1, 0);
        vm.expectRevert(CurveStableSwapNGStandIn.FeeTooHigh.selector);
        pool.set_new_fee(5e8, 1e11 + 1);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(CurveStableSwapNGStandIn.OnlyOwner.selector, alice));
        pool.set_new_fee(1, 1);
    }

    // ---------------------------------------------------------------- LP token

    function test_lpToken_transfersAndAllowances() public {
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.Transfer(address(this), alice, 5e18);
        assertTrue(pool.transfer(alice, 5e18));

        vm.prank(alice);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.Approval(alice, bob, 3e18);
        pool.approve(bob, 3e18);

        vm.prank(bob);
        vm.expectEmit(true, true, true, true, address(pool));
        emit ICurveStableSwapNG.Approval(alice, bob, 1e18);
        assertTrue(pool.transferFrom(alice, bob, 2e18));
        assertEq(pool.allowance(alice, bob), 1e18);
        assertEq(pool.balanceOf(bob), 2e18);

        // An infinite allowance is not spent.
        vm.prank(alice);
        pool.approve(bob, type(uint256).max);
        vm.prank(bob);
        assertTrue(pool.transferFrom(alice, bob, 3e18));
        assertEq(pool.allowance(alice, bob), type(uint256).max);
        assertEq(pool.balanceOf(alice), 0);

        vm.prank(bob);
        vm.expectRevert();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        pool.transferFrom(alice, bob, 1);
    }

    // ---------------------------------------------------------------- reentrancy

    function test_reentrancy_mutatorsAndGuardedViewsAreLocked_quotesAreNot() public {
        ReentrantToken hook = new ReentrantToken();
        hook.mint(address(this), 1e30);
        TestERC20 other = new TestERC20("Other", "O", 18);
        other.mint(address(this), 1e30);
        address[] memory coins = new address[](2);
        coins[0] = address(hook);
        coins[1] = address(other);
        ICurveStableSwapNG p = ICurveStableSwapNG(address(_plainPool(coins, 100, FEE, OFFPEG)));
        hook.approve(address(p), type(uint256).max);
        p.add_liquidity(_amounts(1000e18, 1000e18), 0);

        bytes memory locked = abi.encodeWithSelector(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);

        hook.arm(address(p), abi.encodeWithSignature("exchange(int128,int128,uint256,uint256)", 1, 0, 1e18, 0));
        p.exchange(0, 1, 1e18, 0);
        assertFalse(hook.lastCallOk());
        assertEq(hook.lastReturn(), locked);

        hook.arm(address(p), abi.encodeWithSignature("get_virtual_price()"));
        p.exchange(0, 1, 1e18, 0);
        assertFalse(hook.lastCallOk());
        assertEq(hook.lastReturn(), locked);

        hook.arm(address(p), abi.encodeWithSignature("totalSupply()"));
        p.exchange(0, 1, 1e18, 0);
        assertFalse(hook.lastCallOk());

        // get_dy is not guarded in NG either (its views contract reads unguarded getters).
        hook.arm(address(p), abi.encodeWithSignature("get_dy(int128,int128,uint256)", 0, 1, 1e18));
        p.exchange(0, 1, 1e18, 0);
        assertTrue(hook.lastCallOk());
    }

    // ---------------------------------------------------------------- helpers

    /// @dev What the pool holds of each coin is its balance plus the admin fees (no coin may go missing).
    function _assertHoldingsMatch(ICurveStableSwapNG p, address[] memory coins) internal view {
        for (uint256 k; k < coins.length; ++k) {
            assertEq(_balance(coins[k], address(p)), p.balances(k) + p.admin_balances(k), "holdings");
        }
    }
}
