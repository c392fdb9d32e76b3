// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SplitRouteFixture} from "../router/SplitRouteFixture.sol";
import {IRouterV2} from "../../src/router/interfaces/IRouterV2.sol";

/// @notice Routes that split across paths: stages whose swaps trade different pairs, each swap taking its share
/// of what the call holds of its input token. Expected amounts come from the pools' reserves (reference V2
/// math), so every figure is exact.
contract RouterV2SplitTest is SplitRouteFixture {
    uint256 internal constant AMOUNT = 1_000 ether;

    // ---------------------------------------------------------------- helpers

    function _execute(
        address[] memory tokens,
        uint256 amountIn,
        uint256 minOut,
        uint256 expectedOut,
        IRouterV2.Swap[][] memory stages,
        uint256 feeBps,
        address feeRecipient,
        uint256 value
    ) internal returns (uint256) {
        vm.prank(alice);
        return router.executeSwaps{value: value}(tokens, amountIn, minOut, expectedOut, stages, feeBps, feeRecipient);
    }

    function _assertRouterEmpty() internal view {
        address r = address(router);
        assertEq(tokenA.balanceOf(r), 0, "router holds A");
        assertEq(tokenB.balanceOf(r), 0, "router holds B");
        assertEq(tokenC.balanceOf(r), 0, "router holds C");
        assertEq(usdc.balanceOf(r), 0, "router holds USDC");
        assertEq(wnative.balanceOf(r), 0, "router holds wrapped native");
        assertEq(r.balance, 0, "router holds native");
    }

    // ---------------------------------------------------------------- routes

    /// @notice A -> B beside A -> C -> B: the input is pulled from alice straight into both first pools in
    /// proportion to the quotes, and alice receives what both paths paid.
    function test_twoPaths_shareTheInputAndTheOutput() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(600, 400);
        (uint256 expected, uint256 direct, uint256 viaC) = _twoPathsAToBOut(AMOUNT, 600, 400);
        assertEq(direct, 600 ether);
        assertEq(viaC, 400 ether);

        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAB, direct);
        vm.expectEmit(address(tokenA));
        emit IERC20.Transfer(alice, pairAC, viaC);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(tokenB), AMOUNT, expected, expected);
        uint256 out = _execute(tokens, AMOUNT, expected, 0, stages, 0, address(0), 0);

        assertEq(out, expected);
        assertEq(tokenB.balanceOf(alice), expected);
        assertEq(tokenA.balanceOf(alice), 0);
        assertEq(tokenC.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    /// @notice Split across the two paths (a tenth of the direct pool's depth, 75 : 25), the same input buys more
    /// than on either path alone (the point of splitting), and exactly what the two shares buy on their paths.
    function test_twoPaths_payTheSumOfTheirParts() public {
        uint256 amountIn = 100_000 ether;
        (uint256 expected,,) = _twoPathsAToBOut(amountIn, 3, 1);
        (uint256 directOnly,,) = _twoPathsAToBOut(amountIn, 1, 0);
        (uint256 viaCOnly,,) = _twoPathsAToBOut(amountIn, 0, 1);
        assertGt(expected, directOnly);
        assertGt(expected, viaCOnly);

        _fundAndApprove(alice, address(tokenA), amountIn);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(3, 1);
        assertEq(_execute(tokens, amountIn, 0, 0, stages, 0, address(0), 0), expected);
        _assertRouterEmpty();
    }

    /// @notice The output comes from two stages, so the router holds part of it before the last stage: the last
    /// stage's pool pays the router, which pays alice the whole (no direct payout).
    function test_twoPaths_outputOfTwoStagesIsPaidThroughTheRouter() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(1, 1);
        (uint256 expected,,) = _twoPathsAToBOut(AMOUNT, 1, 1);
        uint256 fromDirect = _v2Quote(pairAB, address(tokenA), AMOUNT / 2, V2_A_FEE_BPS);

        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairAB, address(router), fromDirect);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(pairBC, address(router), expected - fromDirect);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), alice, expected);
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
        _assertRouterEmpty();
    }

    /// @notice The diamond A -> B -> USDC, A -> C -> USDC. The output comes from the last stage only and there is
    /// nothing to take from it, so the last stage's pools pay alice directly.
    function test_diamond() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(3, 1);
        uint256 b = _v2Quote(pairAB, address(tokenA), (AMOUNT * 3) / 4, V2_A_FEE_BPS);
        uint256 c = _v2Quote(pairAC, address(tokenA), AMOUNT / 4, V2_A_FEE_BPS);
        uint256 fromB = _v2Quote(pairBUsdc, address(tokenB), b, V2_A_FEE_BPS);
        uint256 fromC = _v2Quote(pairCUsdc, address(tokenC), c, V2_A_FEE_BPS);
        assertEq(fromB + fromC, _diamondAToUsdcOut(AMOUNT, 3, 1));

        vm.expectEmit(address(usdc));
        emit IERC20.Transfer(pairBUsdc, alice, fromB);
        vm.expectEmit(address(usdc));
        emit IERC20.Transfer(pairCUsdc, alice, fromC);
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(usdc), AMOUNT, fromB + fromC, fromB + fromC);
        uint256 out = _execute(tokens, AMOUNT, fromB + fromC, 0, stages, 0, address(0), 0);

        assertEq(out, fromB + fromC);
        assertEq(usdc.balanceOf(alice), out);
        _assertRouterEmpty();
    }

    /// @notice B is produced by two stages (A -> B, then A -> C -> B) and spent whole by a third.
    function test_intermediateFromTwoStages_isSpentWhole() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address[] memory tokens = _path(address(tokenA), address(tokenB), address(tokenC), address(usdc));
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, 1)
            ),
            _swaps(_swap(pairBC, address(tokenC), address(tokenB), V2_A, 1)),
            _swaps(_swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1))
        );
        (uint256 b,,) = _twoPathsAToBOut(AMOUNT, 1, 1);
        uint256 expected = _v2Quote(pairBUsdc, address(tokenB), b, V2_A_FEE_BPS);

        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), pairBUsdc, b);
        assertEq(_execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0), expected);
        _assertRouterEmpty();
    }

    /// @notice In a stage whose swaps interleave two input tokens, each token is split by the quotes of its own
    /// swaps only, and its last swap in array order takes the remainder (here on the same pool twice).
    function test_interleavedTokensOfAStage_splitByTheirOwnQuotes() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address[] memory tokens = _path(address(tokenA), address(tokenB), address(tokenC), address(usdc));
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1),
                _swap(pairAC, address(tokenA), address(tokenC), V2_A, 1)
            ),
            _swaps(
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1),
                _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1_000_000),
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 2)
            )
        );
        uint256 b = _v2Quote(pairAB, address(tokenA), AMOUNT / 2, V2_A_FEE_BPS);
        uint256 c = _v2Quote(pairAC, address(tokenA), AMOUNT / 2, V2_A_FEE_BPS);
        uint256 b0 = b / 3;
        uint256 b1 = b - b0;
        (uint256 reserveB, uint256 reserveUsdc) = _v2Reserves(pairBUsdc, address(tokenB));
        uint256 out0 = _v2AmountOut(b0, reserveB, reserveUsdc, V2_A_FEE_BPS);
        uint256 out2 = _v2AmountOut(b1, reserveB + b0, reserveUsdc - out0, V2_A_FEE_BPS);
        uint256 out1 = _v2Quote(pairCUsdc, address(tokenC), c, V2_A_FEE_BPS);

        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), pairBUsdc, b0);
        vm.expectEmit(address(tokenC));
        emit IERC20.Transfer(address(router), pairCUsdc, c);
        vm.expectEmit(address(tokenB));
        emit IERC20.Transfer(address(router), pairBUsdc, b1);
        assertEq(_execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0), out0 + out1 + out2);
        _assertRouterEmpty();
    }

    /// @notice Native coin in on two paths: WHYPE -> A beside WHYPE -> B -> A; the router wraps and pays both.
    function test_nativeIn_onTwoPaths() public {
        uint256 amountIn = 10 ether;
        vm.deal(alice, amountIn);
        address[] memory tokens = _path(address(0), address(tokenB), address(tokenA));
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAW, address(wnative), address(tokenA), V2_A, 3 ether),
                _swap(pairWB, address(wnative), address(tokenB), V2_A, 1 ether)
            ),
            _swaps(_swap(pairAB, address(tokenB), address(tokenA), V2_A, 1))
        );
        uint256 direct = _v2Quote(pairAW, address(wnative), 7.5 ether, V2_A_FEE_BPS);
        uint256 b = _v2Quote(pairWB, address(wnative), 2.5 ether, V2_A_FEE_BPS);
        uint256 expected = direct + _v2Quote(pairAB, address(tokenB), b, V2_A_FEE_BPS);

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(0), address(tokenA), amountIn, expected, expected);
        uint256 out = _execute(tokens, amountIn, expected, 0, stages, 0, address(0), amountIn);
        assertEq(out, expected);
        assertEq(tokenA.balanceOf(alice), expected);
        assertEq(alice.balance, 0);
        _assertRouterEmpty();
    }

    /// @notice Native coin out from two paths: A -> WHYPE beside A -> B -> WHYPE; the router unwraps the total.
    function test_unwrapOut_fromTwoPaths() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        address[] memory tokens = _path(address(tokenA), address(tokenB), address(0));
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAW, address(tokenA), address(wnative), V2_A, 1),
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, 1)
            ),
            _swaps(_swap(pairWB, address(tokenB), address(wnative), V2_A, 1))
        );
        uint256 direct = _v2Quote(pairAW, address(tokenA), AMOUNT / 2, V2_A_FEE_BPS);
        uint256 b = _v2Quote(pairAB, address(tokenA), AMOUNT / 2, V2_A_FEE_BPS);
        uint256 expected = direct + _v2Quote(pairWB, address(tokenB), b, V2_A_FEE_BPS);
        uint256 nativeBefore = alice.balance;

        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(0), AMOUNT, expected, expected);
        uint256 out = _execute(tokens, AMOUNT, expected, 0, stages, 0, address(0), 0);
        assertEq(out, expected);
        assertEq(alice.balance - nativeBefore, expected);
        assertEq(wnative.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    /// @notice The integrator fee and the captured slippage are taken on the total output of both paths, exactly
    /// as previewFees splits it.
    function test_fees_andSlippageCapture_onTheTotal() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(1, 1);
        (uint256 gross,,) = _twoPathsAToBOut(AMOUNT, 1, 1);
        uint256 expectedOut = (gross * 98) / 100;
        (uint256 user, uint256 integratorFee, uint256 protocolFee, uint256 recipientSlip, uint256 protocolSlip) =
            _referenceSplit(gross, expectedOut, 100, true);
        assertGt(recipientSlip, 0);

        vm.expectEmit(address(router));
        emit IRouterV2.FeesCollected(address(tokenB), integrator, integratorFee, protocolFee - protocolSlip);
        vm.expectEmit(address(router));
        emit IRouterV2.PositiveSlippageCaptured(
            address(tokenB),
            (gross - (gross * 100) / 10_000) - (expectedOut - (expectedOut * 100) / 10_000),
            recipientSlip,
            protocolSlip
        );
        vm.expectEmit(address(router));
        emit IRouterV2.SwapExecuted(alice, alice, address(tokenA), address(tokenB), AMOUNT, user, gross);
        uint256 out = _execute(tokens, AMOUNT, user, expectedOut, stages, 100, integrator, 0);

        assertEq(out, user);
        assertEq(tokenB.balanceOf(alice), user);
        assertEq(tokenB.balanceOf(integrator), integratorFee + recipientSlip);
        assertEq(tokenB.balanceOf(treasury), protocolFee);
        assertEq(user + integratorFee + recipientSlip + protocolFee, gross);
        _assertRouterEmpty();
    }

    /// @notice Slippage capture without a fee on the diamond: with an expected amount and a split last stage the
    /// output goes through the router, which captures half of what exceeds the expected amount.
    function test_slippageCapture_onTheDiamond() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(1, 1);
        uint256 gross = _diamondAToUsdcOut(AMOUNT, 1, 1);
        uint256 expectedOut = gross - 1_000e6;
        (uint256 user,, uint256 protocolFee,,) = _referenceSplit(gross, expectedOut, 0, false);
        assertEq(protocolFee, 500e6);

        uint256 out = _execute(tokens, AMOUNT, 0, expectedOut, stages, 0, address(0), 0);
        assertEq(out, user);
        assertEq(usdc.balanceOf(alice), user);
        assertEq(usdc.balanceOf(treasury), protocolFee);
        _assertRouterEmpty();
    }

    /// @notice executeSwapsWithData runs split routes too, paying the given recipient.
    function test_executeSwapsWithData_splitToARecipient() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(1, 1);
        uint256 expected = _diamondAToUsdcOut(AMOUNT, 1, 1);
        vm.prank(alice);
        uint256 out =
            router.executeSwapsWithData(tokens, AMOUNT, expected, 0, stages, 0, address(0), bob, block.timestamp);
        assertEq(out, expected);
        assertEq(usdc.balanceOf(bob), expected);
        assertEq(usdc.balanceOf(alice), 0);
        _assertRouterEmpty();
    }

    /// @notice A token that `tokens` lists but no swap trades is never held, so it changes nothing.
    function test_listedTokenThatNoSwapTrades_changesNothing() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        uint256 expected = _v2Quote(pairAB, address(tokenA), AMOUNT, V2_A_FEE_BPS);
        IRouterV2.Swap[][] memory stages = _hops(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT));
        address[] memory tokens = _path(address(tokenA), address(tokenC), address(tokenB));
        assertEq(_execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0), expected);
        _assertRouterEmpty();
    }

    // ---------------------------------------------------------------- reverts

    function test_revert_stageTokenNotHeld_firstStageSpendsAnotherToken() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        _fundAndApprove(alice, address(tokenB), AMOUNT);
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(
                _swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT),
                _swap(pairBC, address(tokenB), address(tokenC), V2_A, AMOUNT)
            ),
            _swaps(_swap(pairBC, address(tokenB), address(tokenC), V2_A, AMOUNT))
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 0, address(tokenB)));
        _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    function test_revert_stageTokenNotHeld_laterStageSpendsATokenNoStageProduced() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(_swap(pairAB, address(tokenA), address(tokenB), V2_A, AMOUNT)),
            _swaps(
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1),
                _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1)
            )
        );
        address[] memory tokens = _path(address(tokenA), address(tokenB), address(tokenC), address(usdc));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 1, address(tokenC)));
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    function test_revert_stageTokenNotHeld_tokenSpentByAnEarlierStage() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory diamond) = _diamondAToUsdc(1, 1);
        IRouterV2.Swap[][] memory stages = _stages(
            diamond[0],
            _swaps(_swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1)),
            _swaps(
                _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1),
                _swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1)
            )
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 2, address(tokenB)));
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    /// @notice A stage cannot spend what it produces, whichever of the two swaps comes first.
    function test_revert_stageTokenNotHeld_stageSpendsWhatItProduces() public {
        _fundAndApprove(alice, address(tokenA), 2 * AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory diamond) = _diamondAToUsdc(1, 1);
        IRouterV2.Swap memory bToC = _swap(pairBC, address(tokenB), address(tokenC), V2_A, 1);
        IRouterV2.Swap memory cToUsdc = _swap(pairCUsdc, address(tokenC), address(usdc), V2_A, 1);

        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 1, address(tokenC)));
        _execute(tokens, AMOUNT, 0, 0, _stages(diamond[0], _swaps(bToC, cToUsdc)), 0, address(0), 0);
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.StageTokenNotHeld.selector, 1, address(tokenC)));
        _execute(tokens, AMOUNT, 0, 0, _stages(diamond[0], _swaps(cToUsdc, bToC)), 0, address(0), 0);
    }

    function test_revert_unspentToken_intermediateLeftOver() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory diamond) = _diamondAToUsdc(1, 1);
        IRouterV2.Swap[][] memory stages =
            _stages(diamond[0], _swaps(_swap(pairBUsdc, address(tokenB), address(usdc), V2_A, 1)));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnspentToken.selector, address(tokenC)));
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    /// @notice A route that buys its input back and never reaches its output ends holding the input.
    function test_revert_unspentToken_inputBoughtBack() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        IRouterV2.Swap[][] memory stages = _stages(
            _swaps(_swap(pairAB, address(tokenA), address(tokenB), V2_A, 1)),
            _swaps(_swap(pairAB, address(tokenB), address(tokenA), V2_A, 1))
        );
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.UnspentToken.selector, address(tokenA)));
        _execute(_path(address(tokenA), address(tokenB), address(tokenC)), AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    function test_revert_invalidSplit_ofOneTokenOfAStage() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(1, 1);
        stages[1][0].amountIn = 0;
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.InvalidSplit.selector, 1));
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    function test_revert_swapTokenMismatch_tokenNotInThePath() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(1, 1);
        // USDC is missing from the path.
        address[] memory tokens = _path(address(tokenA), address(tokenB), address(tokenC));
        vm.expectRevert(abi.encodeWithSelector(IRouterV2.SwapTokenMismatch.selector, 1, 0));
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    function test_revert_invalidPath_nativeAtAnyIntermediatePosition() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (, IRouterV2.Swap[][] memory stages) = _diamondAToUsdc(1, 1);
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(
            _path(address(tokenA), address(0), address(tokenC), address(usdc)), AMOUNT, 0, 0, stages, 0, address(0), 0
        );
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(
            _path(address(tokenA), address(tokenB), address(0), address(usdc)), AMOUNT, 0, 0, stages, 0, address(0), 0
        );
    }

    function test_revert_invalidPath_moreThan256Tokens() public {
        address[] memory tokens = new address[](257);
        tokens[0] = address(tokenA);
        for (uint256 i = 1; i < tokens.length; ++i) {
            tokens[i] = address(tokenB);
        }
        (, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(1, 1);
        vm.expectRevert(IRouterV2.InvalidPath.selector);
        _execute(tokens, AMOUNT, 0, 0, stages, 0, address(0), 0);
    }

    /// @notice A path word that is not an address is refused, as the ABI decoder would.
    function test_revert_dirtyPathWord() public {
        _fundAndApprove(alice, address(tokenA), AMOUNT);
        (address[] memory tokens, IRouterV2.Swap[][] memory stages) = _twoPathsAToB(1, 1);
        bytes memory data = abi.encodeCall(IRouterV2.executeSwaps, (tokens, AMOUNT, 0, 0, stages, 0, address(0)));
        // tokens[1] (C) sits after the selector, the 7 heads, the path's length and tokens[0].
        uint256 at = 4 + 7 * 32 + 32 + 32;
        assertEq(uint256(bytes32(data[at])) >> 248, 0, "not the high byte of an address word");
        data[at] = 0x01;
        vm.prank(alice);
        (bool success, bytes memory returned) = address(router).call(data);
        assertFalse(success);
        assertEq(returned.length, 0);
    }
}
