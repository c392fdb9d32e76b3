// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {SplitRouteFixture} from "../router/SplitRouteFixture.sol";
import {ReentrantRecipient, ReentrantToken} from "../router/RouterMocks.sol";
import {MaliciousPool, PhishingForwarder, attackVm} from "./AttackMocks.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {UniswapV2Factory} from "../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../src/sources/v2/UniswapV2Pair.sol";

/// @notice Attacks on a victim's approvals to the router. The victim holds several tokens and has approved the
/// router for all of them without limit; an attacker crafts routes (pools, sources, data, paths, token hooks)
/// meant to make the router move the victim's funds. Every attack must revert, with the router's own error
/// where it has one; afterwards the victim's balances and allowances are unchanged, the attacker gained nothing,
/// the router holds nothing, and no call ever asked a token to move the victim's funds (not even in a reverted
/// frame). Routes that split across paths get the same treatment (section h), including tokens a third party sent
/// the router, which no route may spend.
contract RouterV2AttackTest is SplitRouteFixture {
    uint256 internal constant VICTIM_BALANCE = 100_000 ether;
    uint256 internal constant VICTIM_USDC = 100_000e6;
    uint256 internal constant VICTIM_NATIVE = 50 ether;
    uint256 internal constant ATTACKER_BALANCE = 1_000 ether;
    uint256 internal constant ATTACKER_USDC = 1_000e6;
    uint256 internal constant ATTACKER_NATIVE = 10 ether;
    uint256 internal constant AMOUNT = 100 ether;

    address internal victim;
    address internal attacker;

    /// @dev The tokens the victim holds and approved the router for.
    address[] internal victimTokens;
    /// @dev Every token the router must hold none of after an attack (the victim's, plus tokens a test adds).
    address[] internal watchedTokens;
    /// @dev The attacker's balances of the victim's tokens before the attack.
    mapping(address token => uint256) internal attackerBefore;

    function setUp() public override {
        super.setUp();
        victim = makeAddr("victim");
        attacker = makeAddr("attacker");

        victimTokens.push(address(tokenA));
        victimTokens.push(address(tokenB));
        victimTokens.push(address(tokenC));
        victimTokens.push(address(usdc));
        victimTokens.push(address(dai));
        victimTokens.push(address(wnative));
        for (uint256 i; i < victimTokens.length; ++i) {
            address token = victimTokens[i];
            _fund(token, victim, _victimBalance(token));
            vm.prank(victim);
            IERC20(token).approve(address(router), type(uint256).max);
            watchedTokens.push(token);
        }
        vm.deal(victim, VICTIM_NATIVE);

        // The attacker pays for its own routes, so each attack reaches the check it is aimed at.
        _fund(address(tokenA), attacker, ATTACKER_BALANCE);
        _fund(address(tokenC), attacker, ATTACKER_BALANCE);
        _fund(address(usdc), attacker, ATTACKER_USDC);
        vm.startPrank(attacker);
        tokenA.approve(address(router), type(uint256).max);
        tokenC.approve(address(router), type(uint256).max);
        usdc.approve(address(router), type(uint256).max);
        vm.stopPrank();
        vm.deal(attacker, ATTACKER_NATIVE);
        for (uint256 i; i < victimTokens.length; ++i) {
            attackerBefore[victimTokens[i]] = IERC20(victimTokens[i]).balanceOf(attacker);
        }
    }

    /// @dev Wraps an attack: no token may be asked to move the victim's funds at any depth, and afterwards
    /// nothing has moved.
    modifier victimUntouched() {
        _expectNoPullFromVictim();
        _;
        _assertNothingMoved();
    }

    // ---------------------------------------------------------------- helpers

    function _victimBalance(address token) internal view returns (uint256) {
        if (token == address(usdc)) return VICTIM_USDC;
        if (token == address(wnative)) return VICTIM_NATIVE;
        return VICTIM_BALANCE;
    }

    /// @dev Fails the test if any call, even one in a reverted frame, asks a victim token for
    /// `transferFrom(victim, ...)`.
    function _expectNoPullFromVictim() internal {
        for (uint256 i; i < victimTokens.length; ++i) {
            attackVm.expectCall(victimTokens[i], abi.encodeWithSelector(IERC20.transferFrom.selector, victim), 0);
        }
    }

    function _assertNothingMoved() internal view {
        for (uint256 i; i < victimTokens.length; ++i) {
            IERC20 token = IERC20(victimTokens[i]);
            assertEq(token.balanceOf(victim), _victimBalance(address(token)), "victim balance changed");
            assertEq(token.allowance(victim, address(router)), type(uint256).max, "victim allowance changed");
            assertEq(token.balanceOf(attacker), attackerBefore[address(token)], "attacker balance changed");
        }
        assertEq(victim.balance, VICTIM_NATIVE, "victim native balance changed");
        for (uint256 i; i < watchedTokens.length; ++i) {
            assertEq(IERC20(watchedTokens[i]).balanceOf(address(router)), 0, "router holds a token");
        }
        assertEq(address(router).balance, 0, "router holds native coin");
    }

    /// @dev The attacker sends `executeSwaps`, paying the route itself and receiving the output.
    function _attack(address[] memory path, uint256 amountIn, IRouterV2.Swap[][] memory hops) internal {
        vm.prank(attacker);
        router.executeSwaps(path, amountIn, 0, 0, hops, 0, address(0));
    }

    /// @dev A route that would move the victim's whole tokenA balance to the attacker if the router paid it.
    function _victimSizedRoute() internal view returns (address[] memory path, IRouterV2.Swap[][] memory hops) {
        path = _path(address(tokenA), address(tokenB));
        hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, VICTIM_BALANCE));
    }

    function _victimSizedExecuteSwaps() internal view returns (bytes memory) {
        (address[] memory path, IRouterV2.Swap[][] memory hops) = _victimSizedRoute();
        return abi.encodeCall(IRouterV2.executeSwaps, (path, VICTIM_BALANCE, 0, 0, hops, 0, address(0)));
    }

    function _victimSizedExecuteSwapsWithData() internal view returns (bytes memory) {
        (address[] memory path, IRouterV2.Swap[][] memory hops) = _victimSizedRoute();
        return abi.encodeCall(
            IRouterV2.executeSwapsWithData, (path, VICTIM_BALANCE, 0, 0, hops, 0, address(0), attacker, block.timestamp)
        );
    }

    function _notVouched(uint8 routerIndex, address pool) internal {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, routerIndex, pool));
    }

    /// @dev An attacker-owned token with a transfer hook, traded on a pair the attacker opens on a registered
    /// (permissionless) factory against `other`.
    function _hookTokenPairedWith(address other) internal returns (ReentrantToken evil, address pair) {
        vm.startPrank(attacker);
        evil = new ReentrantToken();
        pair = v2A.createPair(address(evil), other);
        vm.stopPrank();
        evil.mint(pair, 1_000_000 ether);
        _fund(other, pair, 1_000_000 ether);
        UniswapV2Pair(pair).mint(attacker);
        evil.mint(attacker, ATTACKER_BALANCE);
        vm.prank(attacker);
        evil.approve(address(router), type(uint256).max);
        watchedTokens.push(address(evil));
    }

    // ---------------------------------------------------------------- (a) a token contract as the pool

    function test_attack_poolIsTheTokenTheVictimApproved() public victimUntouched {
        _notVouched(V2_A, address(tokenA));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(tokenA), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_poolIsTheOutputToken() public victimUntouched {
        _notVouched(V2_A, address(tokenB));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(tokenB), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_poolIsAnApprovedTokenUnderTheStableSource() public victimUntouched {
        _notVouched(STABLE, address(usdc));
        _attack(
            _path(address(usdc), address(dai)),
            ATTACKER_USDC,
            _hops(_swap(address(usdc), address(usdc), address(dai), STABLE, ATTACKER_USDC))
        );
    }

    function test_attack_poolIsTheWrappedNativeWhoseFallbackAcceptsAnyCall() public victimUntouched {
        _notVouched(V2_A, address(wnative));
        vm.prank(attacker);
        router.executeSwaps{value: 1 ether}(
            _path(address(0), address(tokenA)),
            1 ether,
            0,
            0,
            _hops(_swap(address(wnative), address(wnative), address(tokenA), V2_A, 1 ether)),
            0,
            address(0)
        );
    }

    function test_attack_poolIsTheRouterItself() public victimUntouched {
        _notVouched(V2_A, address(router));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(router), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_poolIsTheRegisteredFactory() public victimUntouched {
        _notVouched(V2_A, address(v2A));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(v2A), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    // ---------------------------------------------------------------- (b) a real but unregistered pair

    function test_attack_realPairFromTheAttackersOwnFactory() public victimUntouched {
        vm.prank(attacker);
        UniswapV2Factory rogue = new UniswapV2Factory(attacker, 0);
        address pair = _addV2Liquidity(rogue, address(tokenA), 1 ether, address(tokenB), 1_000_000 ether);
        _notVouched(V2_A, pair);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pair, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_realPairFromTheAttackersOwnFactoryUnderEverySlot() public victimUntouched {
        vm.prank(attacker);
        UniswapV2Factory rogue = new UniswapV2Factory(attacker, 0);
        address pair = _addV2Liquidity(rogue, address(tokenA), 1 ether, address(tokenB), 1_000_000 ether);
        uint8[3] memory slots = [V2_A, V2_B, STABLE];
        for (uint256 i; i < slots.length; ++i) {
            _notVouched(slots[i], pair);
            _attack(
                _path(address(tokenA), address(tokenB)),
                AMOUNT,
                _hops(_swap(pair, address(tokenA), address(tokenB), slots[i], AMOUNT))
            );
            _assertNothingMoved();
        }
    }

    function test_attack_byteForByteCopyOfARegisteredPair() public victimUntouched {
        // The copy even reports the registered factory and fee (they are immutables in its code).
        address clone = makeAddr("pair clone");
        vm.etch(clone, pairAB.code);
        assertEq(UniswapV2Pair(clone).factory(), address(v2A));
        _notVouched(V2_A, clone);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(clone, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_byteForByteCopyOfTheStablePool() public victimUntouched {
        address clone = makeAddr("stable clone");
        vm.etch(clone, stableUsdcDai.code);
        _notVouched(STABLE, clone);
        _attack(
            _path(address(usdc), address(dai)),
            ATTACKER_USDC,
            _hops(_swap(clone, address(usdc), address(dai), STABLE, ATTACKER_USDC))
        );
    }

    // ---------------------------------------------------------------- (c) a malicious pool

    function test_attack_maliciousPoolThatPullsTheVictimsApproval() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        pool.armPull(address(tokenA));
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(pool), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_maliciousPoolThatCallsBackIntoTheRouter() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        pool.armReentry(address(router), _victimSizedExecuteSwapsWithData());
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(pool), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_maliciousPoolUnderTheStableSource() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(usdc), address(dai), victim, attacker);
        pool.armPull(address(dai));
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(STABLE, address(pool));
        _attack(
            _path(address(usdc), address(dai)),
            ATTACKER_USDC,
            _hops(_swap(address(pool), address(usdc), address(dai), STABLE, ATTACKER_USDC))
        );
    }

    function test_attack_maliciousPoolUnderAnEmptySlot() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        pool.armPull(address(tokenA));
        attackVm.expectCall(address(pool), "", 0);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnknownSource.selector, uint8(7)));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(pool), address(tokenA), address(tokenB), 7, AMOUNT))
        );
    }

    function test_attack_maliciousPoolHiddenBehindAZeroShareOfASplit() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        pool.armPull(address(tokenB));
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _splitHop(
                _swap(address(pool), address(tokenA), address(tokenB), V2_A, 0),
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)
            )
        );
    }

    function test_attack_maliciousPoolInTheSecondHopAfterARealOne() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenB), address(tokenC), victim, attacker);
        pool.armPull(address(tokenC));
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB), address(tokenC)),
            AMOUNT,
            _hops(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                _swap(address(pool), address(tokenB), address(tokenC), V2_A, 2 * AMOUNT)
            )
        );
    }

    function test_attack_maliciousPoolCalledDirectlyCannotUseTheRoutersApproval() public {
        // The approval belongs to the router: the same pull from any other caller is refused by the token.
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        pool.armPull(address(tokenA));
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(pool), 0, VICTIM_BALANCE)
        );
        vm.prank(attacker);
        pool.swap(0, 1, attacker, "");
        _assertNothingMoved();
    }

    function test_attack_maliciousPoolIsNeverPaidFromTheCaller() public victimUntouched {
        // The router pulls the input straight into the pools, but only into a pool it has checked is vouched.
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        attackVm.expectCall(address(tokenA), abi.encodeWithSelector(IERC20.transferFrom.selector), 0);
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(address(pool), address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_maliciousPoolAfterAVouchedOneInASplitIsNeverPaid() public victimUntouched {
        MaliciousPool pool = new MaliciousPool(address(tokenA), address(tokenB), victim, attacker);
        attackVm.expectCall(
            address(tokenA), abi.encodeCall(IERC20.transferFrom, (attacker, address(pool), AMOUNT / 2)), 0
        );
        attackVm.expectCall(address(pool), "", 0);
        _notVouched(V2_A, address(pool));
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _splitHop(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT / 2),
                _swap(address(pool), address(tokenA), address(tokenB), V2_A, AMOUNT / 2)
            )
        );
    }

    // ---------------------------------------------------------------- (d) a registered slot, another source's pool

    function test_attack_pairOfTheOtherV2DeploymentUnderV2A() public victimUntouched {
        _notVouched(V2_A, pairAB2);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB2, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    function test_attack_pairOfV2AUnderTheCheaperV2BFee() public victimUntouched {
        _notVouched(V2_B, pairAB);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_B, AMOUNT))
        );
    }

    function test_attack_v2PairUnderTheStableSlot() public victimUntouched {
        _notVouched(STABLE, pairAB);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), STABLE, AMOUNT))
        );
    }

    function test_attack_stablePoolUnderAV2Slot() public victimUntouched {
        _notVouched(V2_A, stableUsdcDai);
        _attack(
            _path(address(usdc), address(dai)),
            ATTACKER_USDC,
            _hops(_swap(stableUsdcDai, address(usdc), address(dai), V2_A, ATTACKER_USDC))
        );
    }

    function test_attack_registeredPairOfOtherTokensForThisHop() public victimUntouched {
        // pairBC is vouched for B/C; claiming it trades A for B is caught by the factory lookup.
        _notVouched(V2_A, pairBC);
        _attack(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairBC, address(tokenA), address(tokenB), V2_A, AMOUNT))
        );
    }

    // ---------------------------------------------------------------- (e) calldata smuggled in `data`

    function test_attack_transferFromCalldataInDataOnAVouchedPair() public victimUntouched {
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT));
        hops[0][0].data = abi.encodeCall(IERC20.transferFrom, (victim, attacker, VICTIM_BALANCE));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, pairAB));
        _attack(_path(address(tokenA), address(tokenB)), AMOUNT, hops);
    }

    function test_attack_transferFromCalldataInDataWithTheTokenAsPool() public victimUntouched {
        IRouterV2.Swap[][] memory hops = _hops(_swap(address(tokenA), address(tokenA), address(tokenB), V2_A, AMOUNT));
        hops[0][0].data = abi.encodeCall(IERC20.transferFrom, (victim, attacker, VICTIM_BALANCE));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, address(tokenA)));
        _attack(_path(address(tokenA), address(tokenB)), AMOUNT, hops);
    }

    function test_attack_transferFromCalldataInDataOnTheStablePool() public victimUntouched {
        IRouterV2.Swap[][] memory hops = _hops(_swap(stableUsdcDai, address(usdc), address(dai), STABLE, ATTACKER_USDC));
        hops[0][0].data = abi.encodeCall(IERC20.transferFrom, (victim, attacker, VICTIM_BALANCE));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, stableUsdcDai));
        _attack(_path(address(usdc), address(dai)), ATTACKER_USDC, hops);
    }

    function test_attack_flashSwapCallbackRequestedThroughData() public victimUntouched {
        // Non-empty data would make a V2 pair call back the swap's recipient; the router never asks for it.
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT));
        hops[0][0].data = _victimSizedExecuteSwaps();
        attackVm.expectCall(pairAB, abi.encodeWithSelector(UniswapV2Pair.swap.selector), 0);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, pairAB));
        _attack(_path(address(tokenA), address(tokenB)), AMOUNT, hops);
    }

    // ---------------------------------------------------------------- (f) routes that would spend the victim's funds

    function test_attack_callerWithoutApprovalRoutesTheVictimsBalance() public victimUntouched {
        address stranger = makeAddr("stranger");
        (address[] memory path, IRouterV2.Swap[][] memory hops) = _victimSizedRoute();
        // The router pulls from its caller only: the stranger's zero allowance is what is checked.
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(router), 0, VICTIM_BALANCE)
        );
        vm.prank(stranger);
        router.executeSwapsWithData(path, VICTIM_BALANCE, 0, 0, hops, 0, address(0), stranger, block.timestamp);
    }

    function test_attack_approvedButEmptyCallerRoutesTheVictimsBalance() public victimUntouched {
        // The attacker approved the router for tokenB but holds none of it; the victim holds plenty.
        vm.prank(attacker);
        tokenB.approve(address(router), type(uint256).max);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, attacker, 0, VICTIM_BALANCE)
        );
        _attack(
            _path(address(tokenB), address(tokenA)),
            VICTIM_BALANCE,
            _hops(_swap(pairAB, address(tokenB), address(tokenA), V2_A, VICTIM_BALANCE))
        );
    }

    function test_attack_phishingContractCallsTheRouterInTheVictimsTransaction() public victimUntouched {
        // tx.origin is the victim; the router pays for the route out of its caller, the forwarder.
        PhishingForwarder forwarder = new PhishingForwarder();
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(router), 0, VICTIM_BALANCE)
        );
        vm.prank(victim, victim);
        forwarder.forward(address(router), _victimSizedExecuteSwapsWithData());
    }

    function test_attack_pathPaidInOneTokenSwapsSpendAnother() public victimUntouched {
        // The attacker pays tokenC but the swaps spend tokenA, hoping the router finds tokenA to spend.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapTokenMismatch.selector, 0, 0));
        _attack(
            _path(address(tokenC), address(tokenB)),
            AMOUNT,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, VICTIM_BALANCE))
        );
    }

    function test_attack_quotedAmountsFarAboveWhatWasPaid() public victimUntouched {
        // One wei paid, the victim's balance quoted: the router splits what it received, so it prices one wei.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.ZeroAmountOut.selector, pairAW));
        _attack(
            _path(address(tokenA), address(wnative)),
            1,
            _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, VICTIM_BALANCE))
        );
    }

    function test_attack_nativeInputWithoutSendingValue() public victimUntouched {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeValueMismatch.selector, 0, 1 ether));
        _attack(
            _path(address(0), address(tokenA)),
            1 ether,
            _hops(_swap(pairAW, address(wnative), address(tokenA), V2_A, 1 ether))
        );
    }

    function test_attack_feesParkedInTheRouterForLater() public victimUntouched {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidFeeRecipient.selector, address(router)));
        vm.prank(attacker);
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            0,
            0,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)),
            100,
            address(router)
        );
    }

    function test_attack_outputParkedInTheRouterForLater() public victimUntouched {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidRecipient.selector, address(router)));
        vm.prank(attacker);
        router.executeSwapsWithData(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            0,
            0,
            _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)),
            0,
            address(0),
            address(router),
            block.timestamp
        );
    }

    // ---------------------------------------------------------------- (g) re-entry from hooks

    function test_attack_inputTokenHookReentersExecuteSwaps() public victimUntouched {
        (ReentrantToken evil, address pair) = _hookTokenPairedWith(address(tokenA));
        evil.arm(address(router), _victimSizedExecuteSwaps());
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attack(
            _path(address(evil), address(tokenA)),
            AMOUNT,
            _hops(_swap(pair, address(evil), address(tokenA), V2_A, AMOUNT))
        );
    }

    function test_attack_outputTokenHookReentersExecuteSwapsWithData() public victimUntouched {
        (ReentrantToken evil, address pair) = _hookTokenPairedWith(address(tokenA));
        evil.arm(address(router), _victimSizedExecuteSwapsWithData());
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attack(
            _path(address(tokenA), address(evil)),
            AMOUNT,
            _hops(_swap(pair, address(tokenA), address(evil), V2_A, AMOUNT))
        );
    }

    function test_attack_intermediateTokenHookReentersWhileTheRouterHoldsFunds() public victimUntouched {
        (ReentrantToken evil, address pairIn) = _hookTokenPairedWith(address(tokenA));
        vm.prank(attacker);
        address pairOut = v2A.createPair(address(evil), address(tokenB));
        evil.mint(pairOut, 1_000_000 ether);
        _fund(address(tokenB), pairOut, 1_000_000 ether);
        UniswapV2Pair(pairOut).mint(attacker);
        evil.arm(address(router), _victimSizedExecuteSwapsWithData());

        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attack(
            _path(address(tokenA), address(evil), address(tokenB)),
            AMOUNT,
            _hops(
                _swap(pairIn, address(tokenA), address(evil), V2_A, AMOUNT),
                _swap(pairOut, address(evil), address(tokenB), V2_A, AMOUNT)
            )
        );
    }

    function test_attack_nativeRecipientHookReentersExecuteSwaps() public victimUntouched {
        ReentrantRecipient evil = new ReentrantRecipient();
        _fundAndApprove(address(evil), address(tokenA), AMOUNT);
        evil.arm(address(router), _victimSizedExecuteSwaps());
        address[] memory path = _path(address(tokenA), address(0));
        IRouterV2.Swap[][] memory hops = _hops(_swap(pairAW, address(tokenA), address(wnative), V2_A, AMOUNT));
        uint256 gross = _v2Quote(pairAW, address(tokenA), AMOUNT, V2_A_FEE_BPS);

        // The re-entry reverts inside the receive hook, so paying the recipient fails and the route unwinds.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.NativeTransferFailed.selector, address(evil), gross));
        vm.prank(address(evil));
        router.executeSwaps(path, AMOUNT, 0, 0, hops, 0, address(0));
        assertEq(tokenA.balanceOf(address(evil)), AMOUNT);
    }

    // ---------------------------------------------------------------- (h) routes that split across paths

    /// @dev The attacker's stages, each spending the whole call input A or what earlier stages produced.
    function _attackStages(address[] memory path, IRouterV2.Swap[][] memory stages) internal {
        vm.prank(attacker);
        router.executeSwaps(path, AMOUNT, 0, 0, stages, 0, address(0));
    }

    /// @dev Tokens a third party sent the router before the attack.
    function _donateToTheRouter() internal returns (uint256 donation) {
        donation = 7 ether;
        _fund(address(tokenB), address(router), donation);
        _fund(address(tokenC), address(router), donation);
        _fund(address(wnative), address(router), donation);
        vm.deal(address(router), donation);
    }

    function _assertDonationsStay(uint256 donation) internal view {
        assertEq(tokenB.balanceOf(address(router)), donation, "donated B spent");
        assertEq(tokenC.balanceOf(address(router)), donation, "donated C spent");
        assertEq(wnative.balanceOf(address(router)), donation, "donated wrapped native spent");
        assertEq(address(router).balance, donation, "donated native coin spent");
        assertEq(tokenA.balanceOf(address(router)), 0, "router holds A");
        assertEq(usdc.balanceOf(address(router)), 0, "router holds USDC");
    }

    function test_attack_firstStageSpendsTheVictimsTokenBesideTheInput() public victimUntouched {
        // Paid in A, the first stage also spends B at the victim's size: the call holds no B.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 0, address(tokenB)));
        _attackStages(
            _path(address(tokenA), address(tokenB), address(usdc)),
            _stages(
                _swaps(
                    _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                    _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, VICTIM_BALANCE)
                ),
                _swaps(_swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1))
            )
        );
    }

    function test_attack_laterStageSpendsATokenItWasNotGiven() public victimUntouched {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 1, address(tokenB)));
        _attackStages(
            _path(address(tokenA), address(tokenC), address(tokenB), address(usdc)),
            _stages(
                _swaps(_swap(pairAC, address(tokenA), address(tokenC), V2_A, AMOUNT)),
                _swaps(
                    _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1),
                    _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, VICTIM_BALANCE)
                )
            )
        );
    }

    /// @notice The router holds B that someone sent it; a stage that was not given B still cannot spend it.
    function test_attack_laterStageSpendsTokensDonatedToTheRouter() public {
        uint256 donation = _donateToTheRouter();
        _expectNoPullFromVictim();
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 1, address(tokenB)));
        _attackStages(
            _path(address(tokenA), address(tokenC), address(tokenB), address(usdc)),
            _stages(
                _swaps(_swap(pairAC, address(tokenA), address(tokenC), V2_A, AMOUNT)),
                _swaps(
                    _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1),
                    _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, donation)
                )
            )
        );
        _assertDonationsStay(donation);
    }

    /// @notice A valid split route, with quotes far above what it holds, while the router holds donated
    /// intermediates and output: the route spends exactly what it produced, the attacker gets exactly what the
    /// pools paid for the input, and the donations stay.
    function test_attack_splitRouteWithInflatedQuotesAmongDonations() public {
        uint256 donation = _donateToTheRouter();
        _expectNoPullFromVictim();
        // The diamond into B beside a direct A -> B, all stages quoted at the victim's size.
        address[] memory path = _path(address(tokenA), address(tokenC), address(tokenB));
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, VICTIM_BALANCE),
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, VICTIM_BALANCE)
            ),
            _swaps(_swap(pairBC, address(tokenC), address(tokenB), V2_A, VICTIM_BALANCE))
        );
        (uint256 expected,,) = _twoPathsAToBOut(AMOUNT, 1, 1);
        uint256 attackerB = tokenB.balanceOf(attacker);

        _attackStages(path, stages);
        assertEq(tokenB.balanceOf(attacker) - attackerB, expected, "attacker paid more than the pools paid");
        _assertDonationsStay(donation);
    }

    function test_attack_routeParksAnIntermediateInTheRouter() public victimUntouched {
        // B would stay in the router for a later call to take: the route must spend all it produces.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnspentToken.selector, address(tokenB)));
        _attackStages(
            _path(address(tokenA), address(tokenB), address(tokenC), address(usdc)),
            _stages(
                _swaps(
                    _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                    _swap(pairAC, address(tokenA), address(tokenC), V2_A, AMOUNT)
                ),
                _swaps(_swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1))
            )
        );
    }

    function test_attack_intermediateHookReentersASplitRoute() public victimUntouched {
        // The hook fires while the router holds B of the route's first path and is paid the hook token.
        (ReentrantToken evil, address pairIn) = _hookTokenPairedWith(address(tokenA));
        vm.prank(attacker);
        address pairOut = v2A.createPair(address(evil), address(tokenB));
        evil.mint(pairOut, 1_000_000 ether);
        _fund(address(tokenB), pairOut, 1_000_000 ether);
        UniswapV2Pair(pairOut).mint(attacker);
        evil.arm(address(router), _victimSizedExecuteSwapsWithData());

        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attackStages(
            _path(address(tokenA), address(evil), address(tokenB)),
            _stages(
                _swaps(
                    _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                    _swap(pairIn, address(tokenA), address(evil), V2_A, AMOUNT)
                ),
                _swaps(_swap(pairOut, address(evil), address(tokenB), V2_A, AMOUNT))
            )
        );
    }
}
