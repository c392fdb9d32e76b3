// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {Test} from "../../base/Test.sol";
import {WrappedNative} from "../../../src/WrappedNative.sol";
import {UniswapV2Factory} from "../../../src/sources/v2/UniswapV2Factory.sol";
import {UniswapV2Pair} from "../../../src/sources/v2/UniswapV2Pair.sol";
import {Launchpad} from "../../../src/launchpad/Launchpad.sol";
import {LaunchpadToken} from "../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../src/launchpad/interfaces/ILaunchpad.sol";
import {LaunchpadHandler} from "./handlers/LaunchpadHandler.sol";

contract LaunchpadInvariantTest is Test {
    Launchpad internal launchpad;
    WrappedNative internal wrapped;
    LaunchpadHandler internal handler;
    address internal protocol;

    function setUp() public {
        protocol = makeAddr("protocol");
        wrapped = new WrappedNative("Wrapped HYPE", "WHYPE");
        UniswapV2Factory factory = new UniswapV2Factory(makeAddr("feeSetter"), 30);
        launchpad = new Launchpad(address(wrapped), address(factory), factory.INIT_CODE_PAIR_HASH(), protocol);
        handler = new LaunchpadHandler(launchpad, wrapped, 4);
        targetContract(address(handler));
    }

    /// @notice The native coin held covers, exactly, the native coin raised by the curves still trading plus the
    /// unclaimed creator and protocol trading fees.
    function invariant_nativeBalanceCoversReservesAndFees() public view {
        address[] memory tokens = handler.tokens();
        address[] memory actors = handler.actors();
        uint256 owed = launchpad.protocolFees();
        for (uint256 i; i < tokens.length; ++i) {
            owed += launchpad.getRealHypeReserve(tokens[i]);
        }
        for (uint256 i; i < actors.length; ++i) {
            owed += launchpad.creatorFees(actors[i]);
        }
        assertEq(address(launchpad).balance, owed);
    }

    /// @notice Token supply is conserved: TOTAL_SUPPLY minus what claimFees burned, all of it held by the
    /// launchpad, the actors and the pair; on a trading curve the launchpad holds exactly the unsold allotment
    /// plus the DEX reserve.
    function invariant_tokenSupplyConserved() public view {
        address[] memory tokens = handler.tokens();
        address[] memory actors = handler.actors();
        for (uint256 i; i < tokens.length; ++i) {
            LaunchpadToken token = LaunchpadToken(tokens[i]);
            ILaunchpad.TokenState memory s = launchpad.getTokenState(address(token));
            (, uint256 burned) = launchpad.getClaimedFeesAndBurnedTokens(address(token));
            assertEq(token.totalSupply() + burned, 1e15, "supply + burned");
            uint256 held = token.balanceOf(address(launchpad)) + token.balanceOf(s.pair);
            for (uint256 j; j < actors.length; ++j) {
                held += token.balanceOf(actors[j]);
            }
            assertEq(held, token.totalSupply(), "sum of balances");
            if (!s.graduated) {
                assertEq(
                    token.balanceOf(address(launchpad)),
                    launchpad.getTokensForSale(address(token)) + launchpad.DEX_RESERVE_SUPPLY(),
                    "launchpad holding"
                );
                assertEq(token.balanceOf(s.pair), 0, "pair locked");
            }
        }
    }

    /// @notice Every pool opened at the curve's final price (the raised coin against the reserved tokens),
    /// whatever was donated to its pair beforehand (short of the whole raised amount).
    function invariant_poolsOpenAtTheCurvesFinalPrice() public view {
        assertFalse(handler.openedOffPrice());
    }

    /// @notice No trade ever lowered a curve's k, and every curve stays within its bounds.
    function invariant_kNeverDecreases() public view {
        assertFalse(handler.kDecreased());
        address[] memory tokens = handler.tokens();
        for (uint256 i; i < tokens.length; ++i) {
            (uint256 x, uint256 y) = launchpad.getLiquidity(tokens[i]);
            assertGe(x * y, launchpad.VIRTUAL_HYPE_LIQUIDITY() * launchpad.INITIAL_VIRTUAL_TOKEN_RESERVE());
            assertGe(x, launchpad.VIRTUAL_HYPE_LIQUIDITY());
            assertGe(y, launchpad.GRADUATION_TOKEN_RESERVE());
            assertLe(y, launchpad.INITIAL_VIRTUAL_TOKEN_RESERVE());
        }
    }

    /// @notice claimFees never takes out the principal: the LP position of a graduated token is always worth at
    /// least what it was worth at graduation.
    function invariant_lpPrincipalKept() public view {
        address[] memory tokens = handler.tokens();
        for (uint256 i; i < tokens.length; ++i) {
            ILaunchpad.TokenState memory s = launchpad.getTokenState(tokens[i]);
            if (!s.graduated) continue;
            UniswapV2Pair pair = UniswapV2Pair(s.pair);
            (uint112 r0, uint112 r1,) = pair.getReserves();
            uint256 value =
                Math.mulDiv(pair.balanceOf(address(launchpad)), Math.sqrt(uint256(r0) * r1), pair.totalSupply());
            assertGe(value + 1, s.lpPrincipal);
        }
    }
}
