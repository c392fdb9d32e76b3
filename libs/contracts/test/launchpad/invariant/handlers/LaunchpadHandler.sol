// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base} from "../../../base/Base.sol";
import {WrappedNative} from "../../../../src/WrappedNative.sol";
import {UniswapV2Pair} from "../../../../src/sources/v2/UniswapV2Pair.sol";
import {IUniswapV2Factory} from "../../../../src/sources/v2/interfaces/IUniswapV2Factory.sol";
import {Launchpad} from "../../../../src/launchpad/Launchpad.sol";
import {LaunchpadToken} from "../../../../src/launchpad/LaunchpadToken.sol";
import {ILaunchpad} from "../../../../src/launchpad/interfaces/ILaunchpad.sol";

/// @notice Drives the launchpad for invariant runs: a few actors create tokens, buy, sell, let time pass,
/// deploy a token's pair ahead of graduation and donate wrapped native coin to it, sell out curves, complete
/// graduations, trade on graduated pairs, claim LP fees and withdraw trading fees. Inputs are bounded so that
/// no call reverts; the handler records whether any trade ever lowered a curve's k.
contract LaunchpadHandler is Base {
    uint256 internal constant MAX_TOKENS = 4;
    uint256 internal constant DEX_FEE_BPS = 30;

    Launchpad public immutable launchpad;
    WrappedNative public immutable wrapped;
    address[] internal _actors;
    address[] internal _tokens;

    /// @notice Set when a trade lowered the product of a curve's reserves.
    bool public kDecreased;
    /// @notice Set when a pool opened other than with exactly the raised coin against the reserved tokens while
    /// less than the raised coin had been donated to its pair.
    bool public openedOffPrice;
    /// @notice Calls per operation, for the run's summary.
    mapping(bytes32 op => uint256) public calls;

    constructor(Launchpad launchpad_, WrappedNative wrapped_, uint256 actorCount) {
        launchpad = launchpad_;
        wrapped = wrapped_;
        for (uint256 i; i < actorCount; ++i) {
            _actors.push(makeAddr(string.concat("lpActor", vm.toString(i))));
        }
    }

    function actors() external view returns (address[] memory) {
        return _actors;
    }

    function tokens() external view returns (address[] memory) {
        return _tokens;
    }

    // ---------------------------------------------------------------- operations

    function createToken(uint256 actorSeed, uint256 value) external {
        if (_tokens.length >= MAX_TOKENS) return;
        address actor = _actor(actorSeed);
        value = bound(value, 0, 50 ether);
        if (value < 1e9) value = 0;
        vm.deal(actor, actor.balance + value);
        vm.prank(actor);
        address token = launchpad.createToken{value: value}("Token", "TKN", "", "", "", "", "", "", 0);
        _tokens.push(token);
        ++calls["createToken"];
    }

    function buy(uint256 actorSeed, uint256 tokenSeed, uint256 value) external {
        (address token, bool ok) = _curveToken(tokenSeed);
        if (!ok) return;
        address actor = _actor(actorSeed);
        value = bound(value, 1e9, 200 ether);
        if (launchpad.estimateBuy(token, value) == 0) return;
        uint256 k = _k(token);
        vm.deal(actor, actor.balance + value);
        vm.prank(actor);
        launchpad.buyTokens{value: value}(token);
        _checkK(token, k);
        ++calls["buy"];
    }

    function sell(uint256 actorSeed, uint256 tokenSeed, uint256 amount) external {
        (address token, bool ok) = _curveToken(tokenSeed);
        if (!ok) return;
        address actor = _actor(actorSeed);
        uint256 balance = LaunchpadToken(token).balanceOf(actor);
        if (balance == 0) return;
        ILaunchpad.TokenMetadata memory m = launchpad.getTokenMetadata(token);
        // forge-lint: disable-next-line(block-timestamp)
        if (actor == m.creator && block.timestamp < m.creationTimestamp + 1 hours) return;
        amount = bound(amount, 1, balance);
        if (launchpad.estimateSell(token, amount) == 0) return;
        uint256 k = _k(token);
        vm.prank(actor);
        launchpad.sellTokens(token, amount);
        _checkK(token, k);
        ++calls["sell"];
    }

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 1, 2 hours));
        ++calls["warp"];
    }

    /// @dev The buy that sells out the curve (it graduates the token when the pair is deployed).
    function sellOut(uint256 actorSeed, uint256 tokenSeed) external {
        (address token, bool ok) = _curveToken(tokenSeed);
        if (!ok) return;
        address actor = _actor(actorSeed);
        uint256 k = _k(token);
        uint256 donated = wrapped.balanceOf(launchpad.getTokenState(token).pair);
        vm.deal(actor, actor.balance + 1000 ether);
        vm.prank(actor);
        launchpad.buyTokens{value: 1000 ether}(token);
        _checkK(token, k);
        if (launchpad.getTokenState(token).graduated) _checkOpening(token, donated);
        ++calls["sellOut"];
    }

    /// @dev `graduate` for a sold-out curve whose pair was not deployed at the sell-out.
    function graduate(uint256 actorSeed, uint256 tokenSeed) external {
        if (_tokens.length == 0) return;
        address token = _tokens[tokenSeed % _tokens.length];
        if (launchpad.getTokenState(token).graduated || launchpad.getTokensForSale(token) != 0) return;
        uint256 donated = wrapped.balanceOf(launchpad.getTokenState(token).pair);
        vm.prank(_actor(actorSeed));
        launchpad.graduate(token);
        _checkOpening(token, donated);
        ++calls["graduate"];
    }

    /// @dev Anyone may deploy a token's pair through the DEX factory before graduation.
    function deployPair(uint256 tokenSeed) external {
        if (_tokens.length == 0) return;
        address pair = launchpad.getTokenState(_tokens[tokenSeed % _tokens.length]).pair;
        if (pair.code.length != 0) return;
        IUniswapV2Factory(launchpad.dexes(0)).createPair(_tokens[tokenSeed % _tokens.length], address(wrapped));
        ++calls["deployPair"];
    }

    /// @dev Wrapped native coin sent to a token's pair before graduation (deployed or not), synced or skimmed.
    function donateToPair(uint256 actorSeed, uint256 tokenSeed, uint256 amount, uint8 then) external {
        if (_tokens.length == 0) return;
        address token = _tokens[tokenSeed % _tokens.length];
        ILaunchpad.TokenState memory s = launchpad.getTokenState(token);
        if (s.graduated) return;
        address actor = _actor(actorSeed);
        amount = bound(amount, 1, 50 ether);
        vm.deal(actor, actor.balance + amount);
        vm.startPrank(actor);
        wrapped.deposit{value: amount}();
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        wrapped.transfer(s.pair, amount);
        if (s.pair.code.length != 0) {
            if (then % 3 == 1) UniswapV2Pair(s.pair).sync();
            else if (then % 3 == 2) UniswapV2Pair(s.pair).skim(actor);
        }
        vm.stopPrank();
        ++calls["donateToPair"];
    }

    function pairTrade(uint256 actorSeed, uint256 tokenSeed, uint256 amount, bool buyTokens) external {
        (address token, UniswapV2Pair pair, bool ok) = _graduatedToken(tokenSeed);
        if (!ok) return;
        address actor = _actor(actorSeed);
        bool tokenIs0 = pair.token0() == token;
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 tokenReserve, uint256 wrappedReserve) =
            tokenIs0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        if (buyTokens) {
            amount = bound(amount, 1e12, 100 ether);
            uint256 out = _v2Out(amount, wrappedReserve, tokenReserve);
            if (out == 0) return;
            vm.deal(actor, actor.balance + amount);
            vm.startPrank(actor);
            wrapped.deposit{value: amount}();
            // forge-lint: disable-next-line(erc20-unchecked-transfer)
            wrapped.transfer(address(pair), amount);
            pair.swap(tokenIs0 ? out : 0, tokenIs0 ? 0 : out, actor, "");
            vm.stopPrank();
        } else {
            uint256 balance = LaunchpadToken(token).balanceOf(actor);
            if (balance == 0) return;
            // The creator's tokens cannot leave its address during the creator's sell lock.
            // forge-lint: disable-next-line(block-timestamp)
            if (actor == LaunchpadToken(token).creator() && block.timestamp < LaunchpadToken(token).creatorUnlockTime())
            {
                return;
            }
            amount = bound(amount, 1, balance);
            uint256 out = _v2Out(amount, tokenReserve, wrappedReserve);
            if (out == 0) return;
            vm.startPrank(actor);
            // forge-lint: disable-next-line(erc20-unchecked-transfer)
            LaunchpadToken(token).transfer(address(pair), amount);
            pair.swap(tokenIs0 ? 0 : out, tokenIs0 ? out : 0, actor, "");
            vm.stopPrank();
        }
        ++calls["pairTrade"];
    }

    function claimFees(uint256 actorSeed, uint256 tokenSeed) external {
        (address token,, bool ok) = _graduatedToken(tokenSeed);
        if (!ok) return;
        vm.prank(_actor(actorSeed));
        launchpad.claimFees(token);
        ++calls["claimFees"];
    }

    function withdrawCreatorFees(uint256 actorSeed) external {
        vm.prank(_actor(actorSeed));
        launchpad.withdrawCreatorFees();
        ++calls["withdrawCreatorFees"];
    }

    function withdrawProtocolFees() external {
        launchpad.withdrawProtocolFees();
        ++calls["withdrawProtocolFees"];
    }

    // ---------------------------------------------------------------- helpers

    function _actor(uint256 seed) internal view returns (address) {
        return _actors[seed % _actors.length];
    }

    /// @dev A token whose curve still trades (not sold out).
    function _curveToken(uint256 seed) internal view returns (address token, bool ok) {
        if (_tokens.length == 0) return (address(0), false);
        token = _tokens[seed % _tokens.length];
        ok = launchpad.getTokensForSale(token) != 0;
    }

    function _graduatedToken(uint256 seed) internal view returns (address token, UniswapV2Pair pair, bool ok) {
        if (_tokens.length == 0) return (address(0), UniswapV2Pair(address(0)), false);
        token = _tokens[seed % _tokens.length];
        ILaunchpad.TokenState memory s = launchpad.getTokenState(token);
        return (token, UniswapV2Pair(s.pair), s.graduated);
    }

    function _k(address token) internal view returns (uint256) {
        (uint256 x, uint256 y) = launchpad.getLiquidity(token);
        return x * y;
    }

    function _checkK(address token, uint256 before) internal {
        if (_k(token) < before) kDecreased = true;
    }

    /// @dev The pool just opened: exactly the raised coin (the curve's final reserve less the virtual one)
    /// against the reserved tokens, unless the donations reached the raised amount.
    function _checkOpening(address token, uint256 donated) internal {
        (uint256 x,) = launchpad.getLiquidity(token);
        uint256 raised = x - launchpad.VIRTUAL_HYPE_LIQUIDITY();
        if (donated >= raised) return;
        UniswapV2Pair pair = UniswapV2Pair(launchpad.getTokenState(token).pair);
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 tokenReserve, uint256 wrappedReserve) =
            pair.token0() == token ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        if (tokenReserve != launchpad.DEX_RESERVE_SUPPLY() || wrappedReserve != raised) openedOffPrice = true;
    }

    function _v2Out(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) internal pure returns (uint256) {
        uint256 amountInWithFee = amountIn * (10_000 - DEX_FEE_BPS);
        return amountInWithFee * reserveOut / (reserveIn * 10_000 + amountInWithFee);
    }
}
