// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {V4Fixture} from "../router/V4Fixture.sol";
import {GreedyHook, ReentrantHook, UnlockSpoofer} from "./V4AttackHooks.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";
import {IV4PoolManager, IV4UnlockCallback} from "../../src/sources/v4/interfaces/IV4PoolManager.sol";

/// @notice Attacks on RouterV2's `UniswapV4` kind. A victim holds tokens and has approved the router without limit.
/// Attackers call `unlockCallback` directly, as the manager outside a swap, and from their own unlock of the manager;
/// a hook re-enters the router during a swap (both `executeSwaps` and `unlockCallback`); a hook takes part of the
/// output, or more than all of it; routes name a hook the source does not allow, a key of other tokens, a pool
/// other than the manager, malformed keys and a pool the manager does not hold. Every attack reverts with the
/// router's (or the manager's) error, or fails inside the swap while the route pays exactly its quote; afterwards
/// the victim's balance and the router's holdings are unchanged.
contract RouterV2UniswapV4AttackTest is V4Fixture {
    uint256 internal constant VICTIM_BALANCE = 100_000 ether;
    uint256 internal constant AMOUNT = 1_000 ether;

    address internal victim;
    address internal attacker;
    ReentrantHook internal reentrantHook;
    GreedyHook internal greedyHook;
    IV4PoolManager.PoolKey internal keyReentrant;
    IV4PoolManager.PoolKey internal keyGreedy;

    function setUp() public override {
        super.setUp();
        victim = makeAddr("victim");
        attacker = makeAddr("attacker");
        _fundAndApprove(victim, address(tokenA), VICTIM_BALANCE);
        vm.prank(victim);
        tokenA.approve(address(router), type(uint256).max);
        _fundAndApprove(alice, address(tokenA), 1_000_000 ether);

        reentrantHook = ReentrantHook(_placeHook(address(new ReentrantHook()), 1 << 7, "reentrant"));
        greedyHook = GreedyHook(_placeHook(address(new GreedyHook()), (1 << 6) | (1 << 2), "greedy"));
        keyReentrant = _v4Key(address(tokenA), address(tokenB), FEE_MEDIUM, 60, address(reentrantHook));
        keyGreedy = _v4Key(address(tokenA), address(tokenB), FEE_MEDIUM, 60, address(greedyHook));
        _v4Pool(keyReentrant, address(tokenA), 2, 1, V4_LIQUIDITY);
        _v4Pool(keyGreedy, address(tokenA), 2, 1, V4_LIQUIDITY);
        vm.startPrank(owner);
        router.setHookAllowed(V4, address(reentrantHook), true);
        router.setHookAllowed(V4, address(greedyHook), true);
        vm.stopPrank();
    }

    function _route(IV4PoolManager.PoolKey memory key) internal view returns (IRouterV2.Swap[][] memory) {
        return _hops(_v4(key, address(tokenA), address(tokenB), AMOUNT));
    }

    /// @dev Unlock data that would have the router pay the manager from the victim: a head naming the victim as the
    /// payer, then one leg selling all the victim's A on a real pool.
    function _forgedUnlockData() internal view returns (bytes memory) {
        return bytes.concat(
            abi.encode(victim, attacker, type(uint256).max),
            abi.encode(keyAB, address(tokenA) == keyAB.currency0, VICTIM_BALANCE)
        );
    }

    function _assertNothingMoved() internal view {
        assertEq(tokenA.balanceOf(victim), VICTIM_BALANCE, "victim's A");
        address r = address(router);
        assertEq(tokenA.balanceOf(r) + tokenB.balanceOf(r) + wnative.balanceOf(r) + r.balance, 0, "router holds");
    }

    // ---------------------------------------------------------------- unlockCallback

    function test_unlockCallbackCalledDirectly() public {
        vm.prank(attacker);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, attacker));
        router.unlockCallback(_forgedUnlockData());
        _assertNothingMoved();
    }

    function test_unlockCallbackFromTheManagerWhenTheRouterIsNotSwapping() public {
        vm.prank(address(manager));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(manager)));
        router.unlockCallback(_forgedUnlockData());
        _assertNothingMoved();
    }

    function test_unlockCallbackFromAnAttackersOwnUnlock() public {
        UnlockSpoofer spoofer = new UnlockSpoofer(address(router));
        vm.expectRevert();
        spoofer.attack(manager, _forgedUnlockData());
        // The router refuses the spoofer, so nothing of the victim's is spent (the manager wraps the revert).
        (bool ok, bytes memory reason) = address(spoofer)
            .call(abi.encodeCall(UnlockSpoofer.attack, (IV4PoolManager(address(manager)), _forgedUnlockData())));
        assertFalse(ok);
        assertGt(reason.length, 0);
        _assertNothingMoved();
    }

    // ---------------------------------------------------------------- hooks re-entering

    function test_hookReenteringExecuteSwapsIsRefused() public {
        uint256 expected = _quoteV4(keyReentrant, address(tokenA), AMOUNT);
        address[] memory path = _path(address(tokenA), address(tokenB));
        reentrantHook.arm(
            address(router), abi.encodeCall(IRouterV2.executeSwaps, (path, AMOUNT, 0, 0, _route(keyAB), 0, address(0)))
        );
        vm.prank(alice);
        uint256 out = router.executeSwaps(path, AMOUNT, 0, 0, _route(keyReentrant), 0, address(0));
        assertTrue(reentrantHook.attempted(), "the hook ran");
        assertFalse(reentrantHook.succeeded(), "re-entry refused");
        assertEq(
            bytes4(reentrantHook.failure()), ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector, "guard"
        );
        assertEq(out, expected, "the route still paid its quote");
        _assertNothingMoved();
    }

    function test_hookCallingUnlockCallbackDuringTheSwapIsRefused() public {
        uint256 expected = _quoteV4(keyReentrant, address(tokenA), AMOUNT);
        reentrantHook.arm(address(router), abi.encodeCall(IV4UnlockCallback.unlockCallback, (_forgedUnlockData())));
        vm.prank(alice);
        uint256 out = router.executeSwaps(
            _path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(keyReentrant), 0, address(0)
        );
        assertFalse(reentrantHook.succeeded(), "callback refused");
        assertEq(
            reentrantHook.failure(),
            abi.encodeWithSelector(IRouterV2.CallbackNotFromActivePool.selector, address(reentrantHook))
        );
        assertEq(out, expected);
        _assertNothingMoved();
    }

    // ---------------------------------------------------------------- hooks taking too much

    function test_hookTakingMoreThanTheOutputReverts() public {
        greedyHook.setTake(1_500_000);
        vm.prank(alice);
        vm.expectRevert();
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(keyGreedy), 0, address(0));
        // The router's own check, seen by running the leg's swap alone: the output delta is negative.
        (bool ok, bytes memory reason) = address(router)
            .call(
                abi.encodeCall(
                    IRouterV2.executeSwaps,
                    (_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(keyGreedy), 0, address(0))
                )
            );
        assertFalse(ok);
        assertEq(bytes4(reason), IRouterV2.UnexpectedDelta.selector, "UnexpectedDelta");
        _assertNothingMoved();
    }

    function test_hookTakingPartOfTheOutputFailsMinAmountOut() public {
        uint256 honest = _quoteV4(keyAB, address(tokenA), AMOUNT);
        greedyHook.setTake(300_000);
        uint256 minOut = honest * 99 / 100;
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InsufficientOutput.selector, honest - honest * 3 / 10, minOut));
        router.executeSwaps(
            _path(address(tokenA), address(tokenB)), AMOUNT, minOut, 0, _route(keyGreedy), 0, address(0)
        );
        _assertNothingMoved();
    }

    // ---------------------------------------------------------------- keys the router refuses

    function test_hookNotAllowedForTheSource() public {
        vm.prank(victim);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.HookNotAllowed.selector, V4, address(inputFeeHook)));
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(keyInputFee), 0, address(0));
        vm.prank(owner);
        router.setHookAllowed(V4, address(greedyHook), false);
        vm.prank(victim);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.HookNotAllowed.selector, V4, address(greedyHook)));
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(keyGreedy), 0, address(0));
        _assertNothingMoved();
    }

    function test_keyOfOtherTokens() public {
        IRouterV2.Swap[][] memory hops = _hops(_v4(keyLimitBC, address(tokenA), address(tokenB), AMOUNT));
        vm.prank(victim);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V4, address(manager)));
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0));
        _assertNothingMoved();
    }

    function test_poolOtherThanTheManager() public {
        IRouterV2.Swap[][] memory hops = _hops(_v4Swap(keyAB, address(tokenA), address(tokenB), AMOUNT));
        hops[0][0].pool = attacker;
        vm.prank(victim);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.PoolNotVouched.selector, V4, attacker));
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, hops, 0, address(0));
        _assertNothingMoved();
    }

    function test_malformedKeys() public {
        address[] memory path = _path(address(tokenA), address(tokenB));
        IRouterV2.Swap[][] memory hops = _route(keyAB);
        hops[0][0].data = bytes.concat(hops[0][0].data, bytes1(0));
        vm.prank(victim);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.DataNotAllowed.selector, address(manager)));
        router.executeSwaps(path, AMOUNT, 0, 0, hops, 0, address(0));

        // A hooks word with bits above the address: the decoder refuses it (it would otherwise pass the flag check).
        hops = _route(keyAB);
        bytes memory data = hops[0][0].data;
        assembly ("memory-safe") {
            mstore(add(data, 0xa0), or(mload(add(data, 0xa0)), shl(200, 1)))
        }
        vm.prank(victim);
        vm.expectRevert();
        router.executeSwaps(path, AMOUNT, 0, 0, hops, 0, address(0));
        _assertNothingMoved();
    }

    function test_poolTheManagerDoesNotHold() public {
        IV4PoolManager.PoolKey memory missing = _v4Key(address(tokenA), address(tokenB), 7777, 61, address(0));
        vm.prank(victim);
        vm.expectRevert();
        router.executeSwaps(_path(address(tokenA), address(tokenB)), AMOUNT, 0, 0, _route(missing), 0, address(0));
        _assertNothingMoved();
    }

    function test_nativeCoinFromAnyoneButTheManagerIsRefused() public {
        vm.deal(attacker, 1 ether);
        vm.prank(attacker);
        (bool ok,) = address(router).call{value: 1 ether}("");
        assertFalse(ok);
        vm.prank(address(manager));
        vm.deal(address(manager), address(manager).balance + 1 ether);
        (ok,) = address(router).call{value: 1 ether}("");
        assertFalse(ok, "the manager only pays during the router's unlock");
        _assertNothingMoved();
    }
}
