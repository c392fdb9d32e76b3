// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ConcentratedFixture} from "../router/ConcentratedFixture.sol";
import {ReentrantToken} from "../router/RouterMocks.sol";
import {attackVm} from "./AttackMocks.sol";
import {CallbackSpoofer, MaliciousConcentratedFactory, MaliciousConcentratedPool} from "./ConcentratedAttackMocks.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IUniswapV3SwapCallback} from "../../src/sources/v3/interfaces/IUniswapV3SwapCallback.sol";
import {IAlgebraSwapCallback} from "../../src/sources/algebra/interfaces/IAlgebraSwapCallback.sol";

/// @notice Attacks on the swap callbacks of the `UniswapV3` and `Algebra` kinds. A victim holds tokens and has
/// approved the router for them without limit; the router also holds tokens a third party sent it. Attackers spoof
/// the callback (called directly, from a fake pool during a real route, from token hooks), name pools the
/// registered factories do not vouch for (another factory's real pool, a pool of other tokens, a pool of the other
/// kind, a fake pool claiming a fee tier), and, where the owner registered a malicious factory, run pools that ask
/// for more than the route gives them, in the wrong token, twice, or less. Every attack reverts with the router's
/// error; afterwards the victim's balances and allowances and the router's holdings are unchanged.
contract RouterV2ConcentratedAttackTest is ConcentratedFixture {
    uint256 internal constant VICTIM_BALANCE = 100_000 ether;
    uint256 internal constant DONATION = 7 ether;
    uint256 internal constant AMOUNT = 100 ether;
    uint8 internal constant ROGUE_V3 = 20;
    uint8 internal constant ROGUE_ALGEBRA = 21;

    address internal victim;
    address internal attacker;
    CallbackSpoofer internal spoofer;
    MaliciousConcentratedFactory internal rogueFactory;

    address[] internal watched;

    function setUp() public override {
        super.setUp();
        victim = makeAddr("victim");
        attacker = makeAddr("attacker");
        spoofer = new CallbackSpoofer();
        rogueFactory = new MaliciousConcentratedFactory();

        watched.push(address(tokenA));
        watched.push(address(tokenB));
        watched.push(address(tokenC));
        watched.push(address(wnative));
        for (uint256 i; i < watched.length; ++i) {
            address token = watched[i];
            _fund(token, victim, VICTIM_BALANCE);
            vm.prank(victim);
            IERC20(token).approve(address(router), type(uint256).max);
            _fund(token, address(router), DONATION);
        }
        _fund(address(tokenA), attacker, 1_000 ether);
        vm.prank(attacker);
        tokenA.approve(address(router), type(uint256).max);

        // A factory the owner should never have registered: it vouches for any pool it is told to.
        vm.startPrank(owner);
        router.setSource(ROGUE_V3, IRouterV2.SourceKind.UniswapV3, address(rogueFactory), 0);
        router.setSource(ROGUE_ALGEBRA, IRouterV2.SourceKind.Algebra, address(rogueFactory), 0);
        vm.stopPrank();
    }

    /// @dev Afterwards: the victim's balances and allowances and the router's holdings are as before.
    modifier nothingMoves() {
        _;
        for (uint256 i; i < watched.length; ++i) {
            IERC20 token = IERC20(watched[i]);
            assertEq(token.balanceOf(victim), VICTIM_BALANCE, "victim balance changed");
            assertEq(token.allowance(victim, address(router)), type(uint256).max, "victim allowance changed");
            assertEq(token.balanceOf(address(router)), DONATION, "router holdings changed");
        }
    }

    /// @dev No call, even in a reverted frame, may ask a token to move the victim's funds.
    function _expectNoPullFromVictim() internal {
        for (uint256 i; i < watched.length; ++i) {
            attackVm.expectCall(watched[i], abi.encodeWithSelector(IERC20.transferFrom.selector, victim), 0);
        }
    }

    function _route(address pool, address tokenIn, address tokenOut, uint8 slot, uint256 amountIn)
        internal
        pure
        returns (IRouterV2.Swap[][] memory)
    {
        return _hops(_swap(pool, tokenIn, tokenOut, slot, amountIn));
    }

    function _attackerRoute(address pool, address tokenIn, address tokenOut, uint8 slot) internal {
        vm.prank(attacker);
        router.executeSwaps(
            _path(tokenIn, tokenOut), AMOUNT, 0, 0, _route(pool, tokenIn, tokenOut, slot, AMOUNT), 0, address(0)
        );
    }

    function _victimRoute(address pool, uint8 slot) internal {
        vm.prank(victim);
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)),
            AMOUNT,
            0,
            0,
            _route(pool, address(tokenA), address(tokenB), slot, AMOUNT),
            0,
            address(0)
        );
    }

    /// @dev The delta that asks for `amount` of tokenA on a pool of A and B.
    function _askA(uint256 amount) internal view returns (int256 amount0, int256 amount1) {
        // forge-lint: disable-next-line(unsafe-typecast)
        return address(tokenA) < address(tokenB) ? (int256(amount), int256(0)) : (int256(0), int256(amount));
    }

    /// @dev An attacker-made token with a transfer hook, with a real V3 (and Algebra) pool against tokenA on the
    /// registered factories, seeded with positions.
    function _hookToken() internal returns (ReentrantToken evil, address v3Pool, address algebraPool) {
        vm.prank(attacker);
        evil = new ReentrantToken();
        v3Pool = _v3Pool(address(evil), address(tokenA), FEE_MEDIUM, 1, 1, 1e22);
        algebraPool = _algebraPool(address(evil), address(tokenA), 1, 1, 1e22);
        evil.mint(attacker, 1_000 ether);
        vm.prank(attacker);
        evil.approve(address(router), type(uint256).max);
    }

    // ---------------------------------------------------------------- (a) spoofed callbacks

    function test_attack_callbackCalledDirectlyByAnAccount() public nothingMoves {
        _expectNoPullFromVictim();
        (int256 a0, int256 a1) = _askA(VICTIM_BALANCE);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, attacker));
        vm.prank(attacker);
        router.uniswapV3SwapCallback(a0, a1, abi.encode(victim));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, attacker));
        vm.prank(attacker);
        router.algebraSwapCallback(a0, a1, abi.encode(victim));
    }

    function test_attack_callbackCalledDirectlyByAFakePoolContract() public nothingMoves {
        _expectNoPullFromVictim();
        (int256 a0, int256 a1) = _askA(DONATION);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(spoofer)));
        spoofer.spoof(address(router), a0, a1, false);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(spoofer)));
        spoofer.spoof(address(router), a0, a1, true);
    }

    function test_attack_callbackFromARealVouchedPoolOutsideItsSwap() public nothingMoves {
        (int256 a0, int256 a1) = _askA(DONATION);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, v3AB));
        vm.prank(v3AB);
        router.uniswapV3SwapCallback(a0, a1, "");
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, algebraAB));
        vm.prank(algebraAB);
        router.algebraSwapCallback(a0, a1, "");
    }

    function test_attack_fakePoolCallsTheCallbackDuringARealV3Route() public nothingMoves {
        _fakePoolDuringARealRoute(false);
    }

    function test_attack_fakePoolCallsTheCallbackDuringARealAlgebraRoute() public nothingMoves {
        _fakePoolDuringARealRoute(true);
    }

    /// @dev While the real pool pays out the hook token (its pool is the router's active one), the hook has the fake
    /// pool ask the router for the victim's tokenA. The router refuses; the fake pool swallows the refusal so that
    /// the attacker's own route goes on, and the route then completes having paid only the real pool.
    function _fakePoolDuringARealRoute(bool algebra) internal {
        (ReentrantToken evil, address v3Pool, address algebraPool) = _hookToken();
        (int256 a0, int256 a1) = _askA(VICTIM_BALANCE);
        evil.arm(address(spoofer), abi.encodeCall(CallbackSpoofer.spoofAndRecord, (address(router), a0, a1, algebra)));
        _expectNoPullFromVictim();
        uint256 attackerA = tokenA.balanceOf(attacker);
        _attackerRoute(algebra ? algebraPool : v3Pool, address(tokenA), address(evil), algebra ? ALGEBRA : V3);
        assertEq(spoofer.attempts(), 1, "the hook did not run during the route");
        assertEq(
            spoofer.lastRevert(),
            abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(spoofer)),
            "the router did not refuse the fake pool"
        );
        assertEq(attackerA - tokenA.balanceOf(attacker), AMOUNT, "the attacker paid only its own route");
        assertEq(evil.balanceOf(address(router)), 0, "router holds the hook token");
    }

    // ---------------------------------------------------------------- (b) reentrant tokens

    function test_attack_inputTokenHookReentersExecuteSwapsFromTheCallback() public nothingMoves {
        (ReentrantToken evil, address v3Pool, address algebraPool) = _hookToken();
        bytes memory victimRoute = abi.encodeCall(
            IRouterV2.executeSwapsWithData,
            (
                _path(address(tokenA), address(tokenB)),
                VICTIM_BALANCE,
                0,
                0,
                _route(v3AB, address(tokenA), address(tokenB), V3, VICTIM_BALANCE),
                0,
                address(0),
                attacker,
                block.timestamp
            )
        );
        evil.arm(address(router), victimRoute);
        _expectNoPullFromVictim();
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attackerRoute(v3Pool, address(evil), address(tokenA), V3);
        vm.expectRevert(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector);
        _attackerRoute(algebraPool, address(evil), address(tokenA), ALGEBRA);
    }

    function test_attack_inputTokenHookCallsTheCallbackAgainWhilePaying() public nothingMoves {
        (ReentrantToken evil, address v3Pool, address algebraPool) = _hookToken();
        // The hook runs inside the router's payment to the real pool, asking to be paid a second time.
        (int256 a0, int256 a1) = _askA(VICTIM_BALANCE);
        evil.arm(address(router), abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (a0, a1, "")));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(evil)));
        _attackerRoute(v3Pool, address(evil), address(tokenA), V3);

        evil.arm(address(router), abi.encodeCall(IAlgebraSwapCallback.algebraSwapCallback, (a0, a1, "")));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(evil)));
        _attackerRoute(algebraPool, address(evil), address(tokenA), ALGEBRA);
    }

    // ---------------------------------------------------------------- (c) pools the factories do not vouch for

    function test_attack_realV3PoolOfTheAttackersOwnFactory() public nothingMoves {
        address rogueV3 = _deploy(_artifactCode(V3_FACTORY_ARTIFACT), "");
        address saved = v3Factory;
        v3Factory = rogueV3;
        address pool = _v3Pool(address(tokenA), address(tokenB), FEE_MEDIUM, 2, 1, 1e20);
        v3Factory = saved;
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, pool));
        _attackerRoute(pool, address(tokenA), address(tokenB), V3);
    }

    function test_attack_realAlgebraPoolOfTheAttackersOwnFactory() public nothingMoves {
        address saved = algebraFactory;
        algebraFactory = _deployAlgebra();
        address pool = _algebraPool(address(tokenA), address(tokenB), 2, 1, 1e20);
        algebraFactory = saved;
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, ALGEBRA, pool));
        _attackerRoute(pool, address(tokenA), address(tokenB), ALGEBRA);
    }

    function test_attack_byteForByteCopyOfAVouchedV3Pool() public nothingMoves {
        // The copy reports the same tokens and fee (immutables in its code), but the factory does not return it.
        address clone = makeAddr("v3 clone");
        vm.etch(clone, v3AB.code);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, clone));
        _attackerRoute(clone, address(tokenA), address(tokenB), V3);
    }

    function test_attack_vouchedPoolNamedForOtherTokens() public nothingMoves {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, v3AB));
        _attackerRoute(v3AB, address(tokenA), address(tokenC), V3);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, ALGEBRA, algebraAB));
        _attackerRoute(algebraAB, address(tokenA), address(tokenC), ALGEBRA);
    }

    function test_attack_fakePoolClaimingARegisteredFeeTier() public nothingMoves {
        // It reports A/B and fee 3000, which the factory maps to v3AB, not to it.
        MaliciousConcentratedPool fake = new MaliciousConcentratedPool(address(tokenA), address(tokenB), false);
        attackVm.expectCall(address(fake), abi.encodeWithSelector(MaliciousConcentratedPool.swap.selector), 0);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, address(fake)));
        _attackerRoute(address(fake), address(tokenA), address(tokenB), V3);
    }

    function test_attack_poolOfTheOtherKindUnderEachSlot() public nothingMoves {
        // An Algebra pool reports a fee too (its current fee), for which the V3 factory has no A/B pool.
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, algebraAB));
        _attackerRoute(algebraAB, address(tokenA), address(tokenB), V3);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, ALGEBRA, v3AB));
        _attackerRoute(v3AB, address(tokenA), address(tokenB), ALGEBRA);
    }

    function test_attack_tokenOrAccountAsAConcentratedPool() public nothingMoves {
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, address(tokenA)));
        _attackerRoute(address(tokenA), address(tokenA), address(tokenB), V3);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V3, victim));
        _attackerRoute(victim, address(tokenA), address(tokenB), V3);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, ALGEBRA, address(0)));
        _attackerRoute(address(0), address(tokenA), address(tokenB), ALGEBRA);
    }

    // ---------------------------------------------------------------- (d) malicious pools of a malicious factory

    function _roguePool(bool algebra, MaliciousConcentratedPool.Mode mode, uint256 amount)
        internal
        returns (address pool)
    {
        MaliciousConcentratedPool p = new MaliciousConcentratedPool(address(tokenA), address(tokenB), algebra);
        p.arm(mode, amount);
        _fund(address(tokenB), address(p), 10 ether);
        rogueFactory.setPool(address(tokenA), address(tokenB), address(p));
        pool = address(p);
    }

    function test_attack_maliciousPoolAsksTheVictimForMoreThanTheRoute() public nothingMoves {
        _expectNoPullFromVictim();
        for (uint256 i; i < 2; ++i) {
            bool algebra = i == 1;
            address pool = _roguePool(algebra, MaliciousConcentratedPool.Mode.AskMore, VICTIM_BALANCE);
            vm.expectRevert(
                abi.encodeWithSelector(IRouterV2.CallbackAmountTooHigh.selector, pool, VICTIM_BALANCE, AMOUNT)
            );
            _victimRoute(pool, algebra ? ROGUE_ALGEBRA : ROGUE_V3);
        }
    }

    function test_attack_maliciousPoolAsksTheRouterForItsHoldings() public nothingMoves {
        // Second hop, paid by the router, which also holds the donation: asking share + donation fails.
        uint256 b = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        MaliciousConcentratedPool p = new MaliciousConcentratedPool(address(tokenB), address(tokenC), false);
        p.arm(MaliciousConcentratedPool.Mode.AskMore, b + DONATION);
        _fund(address(tokenC), address(p), 10 ether);
        rogueFactory.setPool(address(tokenB), address(tokenC), address(p));
        IRouterV2.Swap[][] memory hops = _hops(
            _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
            _swap(address(p), address(tokenB), address(tokenC), ROGUE_V3, b)
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackAmountTooHigh.selector, address(p), b + DONATION, b));
        vm.prank(attacker);
        router.executeSwaps(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, 0, 0, hops, 0, address(0));
    }

    function test_attack_maliciousPoolAsksInTheOutputToken() public nothingMoves {
        for (uint256 i; i < 2; ++i) {
            bool algebra = i == 1;
            address pool = _roguePool(algebra, MaliciousConcentratedPool.Mode.AskOutputToken, 0);
            (
                int256 a0,
                int256 a1
                // forge-lint: disable-next-line(unsafe-typecast)
            ) = address(tokenA) < address(tokenB) ? (int256(0), int256(AMOUNT)) : (int256(AMOUNT), int256(0));
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackTokenMismatch.selector, pool, a0, a1));
            _victimRoute(pool, algebra ? ROGUE_ALGEBRA : ROGUE_V3);
        }
    }

    function test_attack_maliciousPoolAsksTwice() public nothingMoves {
        for (uint256 i; i < 2; ++i) {
            bool algebra = i == 1;
            address pool = _roguePool(algebra, MaliciousConcentratedPool.Mode.AskTwice, 0);
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, pool));
            _victimRoute(pool, algebra ? ROGUE_ALGEBRA : ROGUE_V3);
        }
    }

    function test_attack_maliciousPoolTakingLessCannotLeaveTokensInTheRouter() public nothingMoves {
        for (uint256 i; i < 2; ++i) {
            bool algebra = i == 1;
            address pool = _roguePool(algebra, MaliciousConcentratedPool.Mode.AskLess, 0);
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapInputNotSpent.selector, pool, AMOUNT, AMOUNT / 2));
            _victimRoute(pool, algebra ? ROGUE_ALGEBRA : ROGUE_V3);
            pool = _roguePool(algebra, MaliciousConcentratedPool.Mode.NeverAsk, 0);
            vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapInputNotSpent.selector, pool, AMOUNT, 0));
            _victimRoute(pool, algebra ? ROGUE_ALGEBRA : ROGUE_V3);
        }
    }
}
