// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IWrappedNative} from "../interfaces/IWrappedNative.sol";
import {IUniswapV2Factory} from "../sources/v2/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "../sources/v2/interfaces/IUniswapV2Pair.sol";
import {ILaunchpad} from "./interfaces/ILaunchpad.sol";
import {LaunchpadToken} from "./LaunchpadToken.sol";
import {LaunchpadTokenDeployer} from "./LaunchpadTokenDeployer.sol";
import {BondingCurve} from "./libraries/BondingCurve.sol";

/// @title Launchpad
/// @notice Creates tokens that trade on a constant-product bonding curve with virtual native liquidity, and
/// graduates each to a V2-style DEX pool when its curve sells out. See ILaunchpad and src/launchpad/README.md.
/// @dev Accounting: this contract's native balance is exactly the sum of the native coin raised by the curves
/// that have not graduated, plus the accrued creator and protocol trading fees (native coin forced in by
/// selfdestruct only adds to it). Launched tokens are held here until sold; each token's balance here is
/// TOTAL_SUPPLY minus the tokens in circulation from its curve.
contract Launchpad is ILaunchpad, Ownable2Step, ReentrancyGuardTransient {
    /// @inheritdoc ILaunchpad
    uint256 public constant VIRTUAL_HYPE_LIQUIDITY = 300 ether;

    /// @inheritdoc ILaunchpad
    uint256 public constant TOTAL_SUPPLY = 1e15;

    /// @inheritdoc ILaunchpad
    uint256 public constant CURVE_SALE_SUPPLY = 750_000_000e6;

    /// @inheritdoc ILaunchpad
    uint256 public constant DEX_RESERVE_SUPPLY = 250_000_000e6;

    /// @inheritdoc ILaunchpad
    uint256 public constant INITIAL_VIRTUAL_TOKEN_RESERVE = 1_125_000_000e6;

    /// @inheritdoc ILaunchpad
    uint256 public constant GRADUATION_TOKEN_RESERVE = INITIAL_VIRTUAL_TOKEN_RESERVE - CURVE_SALE_SUPPLY;

    /// @inheritdoc ILaunchpad
    uint256 public constant FEE_BPS = BondingCurve.FEE_BPS;

    /// @inheritdoc ILaunchpad
    uint256 public constant CREATOR_SELL_LOCK = 1 hours;

    /// @inheritdoc ILaunchpad
    address public immutable wrappedNative;

    /// @notice The contract that deploys the tokens (created by the constructor).
    LaunchpadTokenDeployer public immutable tokenDeployer;

    /// @inheritdoc ILaunchpad
    address public protocolFeeRecipient;

    /// @inheritdoc ILaunchpad
    uint256 public protocolFees;

    /// @inheritdoc ILaunchpad
    mapping(address creator => uint256) public creatorFees;

    address[] private _dexes;
    address[] private _tokens;
    mapping(address token => TokenMetadata) private _metadata;
    mapping(address token => TokenState) private _states;

    /// @dev The non-indexed fields of TokenCreated, in order; see `_emitTokenCreated`.
    struct TokenCreatedData {
        string name;
        string symbol;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
        uint256 creationTimestamp;
        uint256 startingLiquidity;
        uint256 currentHypeReserves;
        uint256 currentTokenReserves;
        uint256 totalSupply;
        uint256 currentPrice;
        uint256 initialPurchaseAmount;
    }

    /// @param wrappedNative_ The wrapped native token (WHYPE on 999, WETH on 4663).
    /// @param dexFactory The V2-style DEX factory registered at index 0.
    /// @param protocolFeeRecipient_ The recipient of the protocol's fees.
    constructor(address wrappedNative_, address dexFactory, address protocolFeeRecipient_) Ownable(msg.sender) {
        if (wrappedNative_ == address(0) || dexFactory == address(0) || protocolFeeRecipient_ == address(0)) {
            revert ZeroAddress();
        }
        wrappedNative = wrappedNative_;
        tokenDeployer = new LaunchpadTokenDeployer();
        protocolFeeRecipient = protocolFeeRecipient_;
        _dexes.push(dexFactory);
        emit DexSet(0, dexFactory);
        emit ProtocolFeeRecipientUpdated(protocolFeeRecipient_);
    }

    // ------------------------------------------------------------------ token lifecycle

    /// @inheritdoc ILaunchpad
    /// @dev The strings are memory arguments (one stack slot each; calldata strings take two and do not fit).
    function createToken(
        string memory name,
        string memory symbol,
        string memory image_uri,
        string memory description,
        string memory website,
        string memory twitter,
        string memory telegram,
        string memory discord,
        uint8 dexIndex
    ) external payable nonReentrant returns (address tokenAddress) {
        return _createToken(
            CreateTokenArgs(name, symbol, image_uri, description, website, twitter, telegram, discord, dexIndex)
        );
    }

    /// @inheritdoc ILaunchpad
    function updateTokenMetadata(
        address token,
        string memory image_uri,
        string memory description,
        string memory website,
        string memory twitter,
        string memory telegram,
        string memory discord
    ) external {
        TokenMetadata storage metadata = _metadata[token];
        address creator = metadata.creator;
        if (creator == address(0)) revert TokenNotFound(token);
        if (msg.sender != creator) revert UnauthorizedMetadataUpdate(msg.sender);
        metadata.image_uri = image_uri;
        metadata.description = description;
        metadata.website = website;
        metadata.twitter = twitter;
        metadata.telegram = telegram;
        metadata.discord = discord;
        _emitMetadataUpdated(token);
    }

    // ------------------------------------------------------------------ trading

    /// @inheritdoc ILaunchpad
    function buyTokens(address token) external payable nonReentrant {
        TokenState storage state = _tradableState(token);
        if (msg.value == 0) revert ZeroAmount();
        BondingCurve.Buy memory buy =
            BondingCurve.quoteBuy(state.hypeReserve, state.tokenReserve, GRADUATION_TOKEN_RESERVE, msg.value);
        if (buy.tokensOut == 0) revert TokenPurchaseFailed(msg.value);
        _executeBuy(token, msg.sender, buy);
    }

    /// @inheritdoc ILaunchpad
    function sellTokens(address token, uint256 tokenAmount) external nonReentrant {
        TokenState storage state = _tradableState(token);
        if (tokenAmount == 0) revert ZeroAmount();
        TokenMetadata storage metadata = _metadata[token];
        address creator = metadata.creator;
        // The lock binds the creator's address whether it calls directly or through a contract (a router) in a
        // transaction it sends; tx.origin only ever adds a restriction here, it never authorizes.
        if (msg.sender == creator || tx.origin == creator) {
            uint256 unlockTime = metadata.creationTimestamp + CREATOR_SELL_LOCK;
            // A validator's few seconds of timestamp leeway do not matter against a one-hour lock.
            // forge-lint: disable-next-line(block-timestamp)
            if (block.timestamp < unlockTime) revert CreatorCannotSellYet(unlockTime);
        }
        uint256 balance = IERC20(token).balanceOf(msg.sender);
        if (balance < tokenAmount) revert InsufficientBalance(balance, tokenAmount);

        uint256 hypeReserve = state.hypeReserve;
        BondingCurve.Sell memory sell = BondingCurve.quoteSell(hypeReserve, state.tokenReserve, tokenAmount);
        // hypeReserve >= VIRTUAL_HYPE_LIQUIDITY always (see _realHypeReserve).
        uint256 realHypeReserve = hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        if (sell.grossOut > realHypeReserve) revert InsufficientLiquidity(sell.grossOut, realHypeReserve);
        if (sell.hypeOut == 0) revert TokenSaleFailed(tokenAmount);

        state.hypeReserve = sell.newHypeReserve;
        state.tokenReserve = sell.newTokenReserve;
        _accrueFee(creator, sell.fee);
        // No approval: the token lets its launchpad move a holder's tokens before graduation, and the
        // launchpad only ever moves the seller's own tokens, to itself.
        if (!LaunchpadToken(token).launchpadTransfer(msg.sender, address(this), tokenAmount)) {
            revert TokenTransferFailed(token);
        }
        _emitTrade(false, token, msg.sender, tokenAmount, sell.hypeOut, sell.newHypeReserve, sell.newTokenReserve);
        _sendNative(msg.sender, sell.hypeOut);
    }

    // ------------------------------------------------------------------ fees

    /// @inheritdoc ILaunchpad
    function claimFees(address token) external nonReentrant returns (uint256 whypeReceived) {
        (whypeReceived,) = _claimFees(token);
    }

    /// @inheritdoc ILaunchpad
    function previewClaimFees(address token) external returns (uint256 whypeAmount, uint256 tokensAmount) {
        try this.simulateClaimFees(token) {
        // Unreachable: simulateClaimFees never returns normally.
        }
        catch (bytes memory reason) {
            // casting to 'bytes4' is safe because it reads the first four bytes, the error selector.
            // forge-lint: disable-next-line(unsafe-typecast)
            if (reason.length == 68 && bytes4(reason) == ClaimFeesPreview.selector) {
                // The revert data is the selector followed by the two words of the result.
                assembly ("memory-safe") {
                    whypeAmount := mload(add(reason, 36))
                    tokensAmount := mload(add(reason, 68))
                }
            } else {
                // Any other failure (unknown token, not graduated) is passed on as it is.
                assembly ("memory-safe") {
                    revert(add(reason, 32), mload(reason))
                }
            }
        }
    }

    /// @inheritdoc ILaunchpad
    /// @dev Not nonReentrant (it never returns, so the guard's exit would be unreachable), but refused inside a
    /// guarded call all the same.
    function simulateClaimFees(address token) external {
        if (_reentrancyGuardEntered()) revert ReentrancyGuardReentrantCall();
        (uint256 whypeAmount, uint256 tokensAmount) = _claimFees(token);
        revert ClaimFeesPreview(whypeAmount, tokensAmount);
    }

    /// @inheritdoc ILaunchpad
    function withdrawCreatorFees() external nonReentrant returns (uint256 amount) {
        amount = creatorFees[msg.sender];
        if (amount == 0) return 0;
        creatorFees[msg.sender] = 0;
        emit CreatorFeesWithdrawn(msg.sender, amount);
        _sendNative(msg.sender, amount);
    }

    /// @inheritdoc ILaunchpad
    function withdrawProtocolFees() external nonReentrant returns (uint256 amount) {
        amount = protocolFees;
        if (amount == 0) return 0;
        protocolFees = 0;
        address recipient = protocolFeeRecipient;
        emit ProtocolFeesWithdrawn(recipient, amount);
        _sendNative(recipient, amount);
    }

    // ------------------------------------------------------------------ views

    /// @inheritdoc ILaunchpad
    function getLiquidity(address token) external view returns (uint256 hypeReserve, uint256 tokenReserve) {
        TokenState storage state = _existingState(token);
        return (state.hypeReserve, state.tokenReserve);
    }

    /// @inheritdoc ILaunchpad
    function estimateBuy(address token, uint256 hypeAmount) external view returns (uint256) {
        TokenState storage state = _tradableState(token);
        if (hypeAmount == 0) return 0;
        return
            BondingCurve.quoteBuy(state.hypeReserve, state.tokenReserve, GRADUATION_TOKEN_RESERVE, hypeAmount).tokensOut;
    }

    /// @inheritdoc ILaunchpad
    function estimateSell(address token, uint256 tokenAmount) external view returns (uint256) {
        TokenState storage state = _tradableState(token);
        if (tokenAmount == 0) return 0;
        uint256 hypeReserve = state.hypeReserve;
        BondingCurve.Sell memory sell = BondingCurve.quoteSell(hypeReserve, state.tokenReserve, tokenAmount);
        uint256 realHypeReserve = hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        if (sell.grossOut > realHypeReserve) revert InsufficientLiquidity(sell.grossOut, realHypeReserve);
        return sell.hypeOut;
    }

    /// @inheritdoc ILaunchpad
    function getTokenMetadata(address token) external view returns (TokenMetadata memory) {
        _existingState(token);
        return _metadata[token];
    }

    /// @inheritdoc ILaunchpad
    function getTokenCreator(address tokenAddress) external view returns (address) {
        address creator = _metadata[tokenAddress].creator;
        if (creator == address(0)) revert TokenNotFound(tokenAddress);
        return creator;
    }

    /// @inheritdoc ILaunchpad
    function getTokenCount() external view returns (uint256) {
        return _tokens.length;
    }

    /// @inheritdoc ILaunchpad
    function getPaginatedTokensWithMetadata(uint256 start, uint256 limit)
        external
        view
        returns (address[] memory tokens, TokenMetadata[] memory metadata)
    {
        uint256 count = _tokens.length;
        uint256 size;
        if (start < count) size = Math.min(limit, count - start);
        tokens = new address[](size);
        metadata = new TokenMetadata[](size);
        for (uint256 i; i < size; ++i) {
            address token = _tokens[start + i];
            tokens[i] = token;
            metadata[i] = _metadata[token];
        }
    }

    /// @inheritdoc ILaunchpad
    function getClaimedFeesAndBurnedTokens(address token)
        external
        view
        returns (uint256 claimedFees, uint256 burnedTokens)
    {
        if (_metadata[token].creator == address(0)) revert TokenNotCreatedByFactory(token);
        TokenState storage state = _states[token];
        return (state.claimedFees, state.burnedTokens);
    }

    /// @inheritdoc ILaunchpad
    function getTokenState(address token) external view returns (TokenState memory) {
        return _existingState(token);
    }

    /// @inheritdoc ILaunchpad
    function getRealHypeReserve(address token) external view returns (uint256) {
        return _realHypeReserve(_existingState(token));
    }

    /// @inheritdoc ILaunchpad
    function getTokensForSale(address token) external view returns (uint256) {
        TokenState storage state = _existingState(token);
        return state.graduated ? 0 : state.tokenReserve - GRADUATION_TOKEN_RESERVE;
    }

    /// @inheritdoc ILaunchpad
    function isLaunchpadToken(address token) external view returns (bool) {
        return _metadata[token].creator != address(0);
    }

    /// @inheritdoc ILaunchpad
    function dexes(uint256 index) external view returns (address) {
        return _dexes[index];
    }

    /// @inheritdoc ILaunchpad
    function dexCount() external view returns (uint256) {
        return _dexes.length;
    }

    // ------------------------------------------------------------------ owner

    /// @inheritdoc ILaunchpad
    function setDex(uint8 dexIndex, address factory) external onlyOwner {
        if (factory == address(0)) revert ZeroAddress();
        uint256 count = _dexes.length;
        if (dexIndex > count) revert UnsupportedDexIndex(dexIndex);
        if (dexIndex == count) _dexes.push(factory);
        else _dexes[dexIndex] = factory;
        emit DexSet(dexIndex, factory);
    }

    /// @inheritdoc ILaunchpad
    function setProtocolFeeRecipient(address recipient) external onlyOwner {
        if (recipient == address(0)) revert ZeroAddress();
        protocolFeeRecipient = recipient;
        emit ProtocolFeeRecipientUpdated(recipient);
    }

    // ------------------------------------------------------------------ internals

    /// @dev createToken's arguments, in order (one memory struct keeps the body's stack small).
    struct CreateTokenArgs {
        string name;
        string symbol;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
        uint8 dexIndex;
    }

    /// @dev createToken: deploys the token and its DEX pair, records it, and runs the creator's first purchase.
    function _createToken(CreateTokenArgs memory args) private returns (address tokenAddress) {
        if (args.dexIndex != 0) revert UnsupportedDexIndex(args.dexIndex);
        if (bytes(args.name).length == 0 || bytes(args.symbol).length == 0) revert EmptyNameOrSymbol();

        tokenAddress = _deployToken(args.name, args.symbol);
        // The pair is created now, before any token leaves this contract, and the token refuses deposits into
        // it until graduation: so the launchpad mints the pair's first LP shares, at the curve's final price.
        address factory = _dexes[args.dexIndex];
        address pair = IUniswapV2Factory(factory).getPair(tokenAddress, wrappedNative);
        if (pair == address(0)) pair = IUniswapV2Factory(factory).createPair(tokenAddress, wrappedNative);
        LaunchpadToken(tokenAddress).setPool(pair);

        _tokens.push(tokenAddress);
        _metadata[tokenAddress] = TokenMetadata({
            name: args.name,
            symbol: args.symbol,
            image_uri: args.image_uri,
            description: args.description,
            website: args.website,
            twitter: args.twitter,
            telegram: args.telegram,
            discord: args.discord,
            creator: msg.sender,
            creationTimestamp: block.timestamp,
            startingLiquidity: VIRTUAL_HYPE_LIQUIDITY,
            dexIndex: args.dexIndex
        });
        TokenState storage state = _states[tokenAddress];
        state.hypeReserve = VIRTUAL_HYPE_LIQUIDITY;
        state.tokenReserve = INITIAL_VIRTUAL_TOKEN_RESERVE;
        state.pair = pair;

        // Anti-sniper: the creator's purchase happens here, in the creating transaction, before the token can
        // be traded by anyone else. The creation event carries the reserves after it.
        BondingCurve.Buy memory buy;
        if (msg.value > 0) {
            buy = BondingCurve.quoteBuy(
                VIRTUAL_HYPE_LIQUIDITY, INITIAL_VIRTUAL_TOKEN_RESERVE, GRADUATION_TOKEN_RESERVE, msg.value
            );
            if (buy.tokensOut == 0) revert TokenPurchaseFailed(msg.value);
        } else {
            buy.newHypeReserve = VIRTUAL_HYPE_LIQUIDITY;
            buy.newTokenReserve = INITIAL_VIRTUAL_TOKEN_RESERVE;
        }
        _emitTokenCreated(tokenAddress, buy);
        if (msg.value > 0) _executeBuy(tokenAddress, msg.sender, buy);
    }

    /// @dev Deploys the token with CREATE2 through the token deployer (salt: creator and index), mapping any
    /// failure to TokenCreationFailed.
    function _deployToken(string memory name, string memory symbol) private returns (address) {
        bytes32 salt = keccak256(abi.encode(msg.sender, _tokens.length));
        try tokenDeployer.deploy(name, symbol, salt) returns (address token) {
            return token;
        } catch {
            revert TokenCreationFailed();
        }
    }

    /// @dev The state of a launchpad token; reverts TokenNotFound for other addresses.
    function _existingState(address token) private view returns (TokenState storage state) {
        if (_metadata[token].creator == address(0)) revert TokenNotFound(token);
        return _states[token];
    }

    /// @dev The state of a launchpad token still trading on its curve; reverts TokenNotFound / TokenFrozen.
    function _tradableState(address token) private view returns (TokenState storage state) {
        state = _existingState(token);
        if (state.graduated) revert TokenFrozen(token);
    }

    /// @dev The native coin raised and held for the curve. The product of the reserves never decreases and the
    /// token reserve never exceeds its start, so hypeReserve >= k0 / INITIAL_VIRTUAL_TOKEN_RESERVE =
    /// VIRTUAL_HYPE_LIQUIDITY and the subtraction cannot underflow.
    function _realHypeReserve(TokenState storage state) private view returns (uint256) {
        return state.graduated ? 0 : state.hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
    }

    /// @dev Applies a quoted buy for `buyer`: reserves, fees, tokens out, event, graduation when sold out, and
    /// the refund of what the buy did not use.
    function _executeBuy(address token, address buyer, BondingCurve.Buy memory buy) private {
        TokenState storage state = _states[token];
        TokenMetadata storage metadata = _metadata[token];
        state.hypeReserve = buy.newHypeReserve;
        state.tokenReserve = buy.newTokenReserve;
        _accrueFee(metadata.creator, buy.fee);
        if (!IERC20(token).transfer(buyer, buy.tokensOut)) revert TokenTransferFailed(token);
        _emitTrade(true, token, buyer, buy.hypeUsed, buy.tokensOut, buy.newHypeReserve, buy.newTokenReserve);
        if (buy.newTokenReserve == GRADUATION_TOKEN_RESERVE) _graduate(token, state);
        // hypeUsed <= msg.value (BondingCurve.quoteBuy never spends more than offered).
        uint256 refund = msg.value - buy.hypeUsed;
        if (refund > 0) _sendNative(buyer, refund);
    }

    /// @dev Moves the sold-out curve to its DEX pair: the raised native coin (wrapped) and the reserved tokens
    /// seed the pair, whose first LP shares come to this contract; the token opens the pair and closes the
    /// launchpad's transfer privilege. Records the position's principal for `claimFees`.
    function _graduate(address token, TokenState storage state) private {
        uint256 hypeAmount = state.hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        address pair = state.pair;
        state.graduated = true;
        LaunchpadToken(token).graduate();
        IWrappedNative(wrappedNative).deposit{value: hypeAmount}();
        if (!IERC20(wrappedNative).transfer(pair, hypeAmount)) revert TokenTransferFailed(wrappedNative);
        if (!IERC20(token).transfer(pair, DEX_RESERVE_SUPPLY)) revert TokenTransferFailed(token);
        uint256 liquidity = IUniswapV2Pair(pair).mint(address(this));
        state.lpPrincipal = _positionValue(IUniswapV2Pair(pair), liquidity, Math.Rounding.Ceil);
        emit TokenGraduated(token, pair, hypeAmount, DEX_RESERVE_SUPPLY, liquidity);
    }

    /// @dev The value of `liquidity` LP shares of `pair` in sqrt(k) units: liquidity * sqrt(r0 * r1) / supply.
    function _positionValue(IUniswapV2Pair pair, uint256 liquidity, Math.Rounding rounding)
        private
        view
        returns (uint256)
    {
        (uint112 reserve0, uint112 reserve1,) = pair.getReserves();
        uint256 rootK = Math.sqrt(uint256(reserve0) * reserve1);
        return Math.mulDiv(liquidity, rootK, IERC20(address(pair)).totalSupply(), rounding);
    }

    /// @dev Collects the LP position's fees: burns the LP shares worth more than the principal (in sqrt(k)
    /// units, as Uniswap V2 measures fee growth for its protocol fee), sends the wrapped native coin half to the
    /// creator and half (plus any odd wei) to the protocol, burns the tokens.
    function _claimFees(address token) private returns (uint256 whypeAmount, uint256 tokensAmount) {
        address creator = _metadata[token].creator;
        if (creator == address(0)) revert TokenNotCreatedByFactory(token);
        TokenState storage state = _states[token];
        if (!state.graduated) revert TokenNotGraduated(token);
        IUniswapV2Pair pair = IUniswapV2Pair(state.pair);
        uint256 feeShares = _feeShares(pair, state.lpPrincipal);
        if (feeShares == 0) return (0, 0);

        if (!pair.transfer(address(pair), feeShares)) revert TokenTransferFailed(address(pair));
        (uint256 amount0, uint256 amount1) = pair.burn(address(this));
        (whypeAmount, tokensAmount) = pair.token0() == wrappedNative ? (amount0, amount1) : (amount1, amount0);
        state.claimedFees += whypeAmount;
        state.burnedTokens += tokensAmount;
        LaunchpadToken(token).burn(tokensAmount);
        _payClaim(token, creator, whypeAmount, tokensAmount);
    }

    /// @dev The LP shares this contract holds beyond those worth `principal` at the pair's current sqrt(k) per
    /// share (rounded up, so the principal is never paid out); 0 when that part is too small to burn (the pair
    /// refuses burns that pay nothing on either side).
    function _feeShares(IUniswapV2Pair pair, uint256 principal) private view returns (uint256) {
        uint256 held = pair.balanceOf(address(this));
        (uint112 reserve0, uint112 reserve1,) = pair.getReserves();
        uint256 supply = pair.totalSupply();
        uint256 keep = Math.mulDiv(principal, supply, Math.sqrt(uint256(reserve0) * reserve1), Math.Rounding.Ceil);
        if (keep >= held) return 0;
        // Cannot underflow: keep < held.
        unchecked {
            held -= keep;
        }
        if (held * reserve0 / supply == 0 || held * reserve1 / supply == 0) return 0;
        return held;
    }

    /// @dev Sends a claim's wrapped native coin half to the creator, the rest to the protocol, and logs it.
    function _payClaim(address token, address creator, uint256 whypeAmount, uint256 tokensAmount) private {
        uint256 creatorAmount = whypeAmount / 2;
        uint256 protocolAmount = whypeAmount - creatorAmount;
        if (!IERC20(wrappedNative).transfer(creator, creatorAmount)) revert TokenTransferFailed(wrappedNative);
        if (!IERC20(wrappedNative).transfer(protocolFeeRecipient, protocolAmount)) {
            revert TokenTransferFailed(wrappedNative);
        }
        emit FeesClaimed(token, msg.sender, whypeAmount, creatorAmount, protocolAmount, tokensAmount);
    }

    /// @dev Splits a trading fee: half (rounded down) to the creator, the rest to the protocol.
    function _accrueFee(address creator, uint256 fee) private {
        uint256 creatorPart = fee / 2;
        creatorFees[creator] += creatorPart;
        protocolFees += fee - creatorPart;
    }

    /// @dev Sends native coin with all gas; reverts EthTransferFailed when the recipient refuses.
    function _sendNative(address to, uint256 amount) private {
        (bool success,) = to.call{value: amount}("");
        if (!success) revert EthTransferFailed(to, amount);
    }

    /// @dev Emits TokenMetadataUpdated with the token's current metadata (kept apart from
    /// `updateTokenMetadata`, whose calldata strings fill the stack).
    function _emitMetadataUpdated(address token) private {
        TokenMetadata memory m = _metadata[token];
        emit TokenMetadataUpdated(
            token,
            m.creator,
            m.name,
            m.symbol,
            m.image_uri,
            m.description,
            m.website,
            m.twitter,
            m.telegram,
            m.discord,
            block.timestamp
        );
    }

    /// @dev Emits TokensPurchased (`isBuy`: amountIn is native, amountOut tokens) or TokensSold (amountIn is
    /// tokens, amountOut native) with the reserves after the trade.
    function _emitTrade(
        bool isBuy,
        address token,
        address trader,
        uint256 amountIn,
        uint256 amountOut,
        uint256 hypeReserve,
        uint256 tokenReserve
    ) private {
        TokenMetadata storage metadata = _metadata[token];
        string memory name = metadata.name;
        string memory symbol = metadata.symbol;
        uint256 price = BondingCurve.price(hypeReserve, tokenReserve);
        uint256 supply = IERC20(token).totalSupply();
        if (isBuy) {
            emit TokensPurchased(
                token,
                trader,
                amountIn,
                amountOut,
                price,
                block.timestamp,
                hypeReserve,
                tokenReserve,
                supply,
                name,
                symbol
            );
        } else {
            emit TokensSold(
                token,
                trader,
                amountIn,
                amountOut,
                price,
                block.timestamp,
                hypeReserve,
                tokenReserve,
                supply,
                name,
                symbol
            );
        }
    }

    /// @dev Emits TokenCreated. Its 15 non-indexed fields do not fit the stack as emit arguments, so they are
    /// ABI-encoded as one tuple (a struct in the same order) and logged with the event's topic. abi.encode of
    /// a dynamic struct is its offset word (0x20) followed by the tuple, which is exactly the event's data.
    function _emitTokenCreated(address token, BondingCurve.Buy memory buy) private {
        TokenMetadata storage m = _metadata[token];
        bytes memory data = abi.encode(
            TokenCreatedData({
                name: m.name,
                symbol: m.symbol,
                image_uri: m.image_uri,
                description: m.description,
                website: m.website,
                twitter: m.twitter,
                telegram: m.telegram,
                discord: m.discord,
                creationTimestamp: m.creationTimestamp,
                startingLiquidity: m.startingLiquidity,
                currentHypeReserves: buy.newHypeReserve,
                currentTokenReserves: buy.newTokenReserve,
                totalSupply: TOTAL_SUPPLY,
                currentPrice: BondingCurve.price(buy.newHypeReserve, buy.newTokenReserve),
                initialPurchaseAmount: buy.tokensOut
            })
        );
        bytes32 topic0 = TokenCreated.selector;
        address creator = m.creator;
        assembly ("memory-safe") {
            // Skip the length word and the leading offset word.
            log3(add(data, 0x40), sub(mload(data), 0x20), topic0, token, creator)
        }
    }
}
