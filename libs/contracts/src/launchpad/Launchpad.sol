// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IWrappedNative} from "../interfaces/IWrappedNative.sol";
import {IUniswapV2Factory} from "../sources/v2/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "../sources/v2/interfaces/IUniswapV2Pair.sol";
import {ILaunchpad} from "./interfaces/ILaunchpad.sol";
import {LaunchpadToken} from "./LaunchpadToken.sol";
import {BondingCurve} from "./libraries/BondingCurve.sol";
import {LaunchpadTokenArgs} from "./libraries/LaunchpadTokenArgs.sol";

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

    /// @notice The LaunchpadToken every launched token is a minimal proxy of (deployed by the constructor; its
    /// initializer is disabled).
    address public immutable tokenImplementation;

    /// @inheritdoc ILaunchpad
    address public protocolFeeRecipient;

    /// @inheritdoc ILaunchpad
    uint256 public protocolFees;

    /// @inheritdoc ILaunchpad
    mapping(address creator => uint256) public creatorFees;

    /// @dev What the launchpad records per token. The first slot holds what trades read besides the reserves
    /// (the creator, for the fee and the sell lock; the creation time, for the lock; the graduation flag), the
    /// second the curve's reserves and, from graduation, the LP position's principal; the fee totals are written
    /// only by `claimFees`. The name and symbol live in the token's code (LaunchpadTokenArgs), the pair address in
    /// the token (`pool`); the starting liquidity (VIRTUAL_HYPE_LIQUIDITY) and the DEX index (0) are the same for
    /// every token. Widths: the native reserve stays below 1,000 ether (< 2^96 wei), the token reserve at most
    /// INITIAL_VIRTUAL_TOKEN_RESERVE (< 2^64), the principal at most sqrt(reserve0 * reserve1) of the pool at
    /// graduation (about 4e17; 2^96 would take some 10^25 ether donated to the pair); every write is checked.
    struct Launch {
        address creator;
        uint64 creationTimestamp;
        bool graduated;
        uint96 hypeReserve;
        uint64 tokenReserve;
        uint96 lpPrincipal;
        uint256 claimedFees;
        uint256 burnedTokens;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
    }

    address[] private _dexes;
    /// @dev The pair code hash of each factory in `_dexes`, given and verified when it is registered.
    bytes32[] private _pairCodeHashes;
    address[] private _tokens;
    mapping(address token => Launch) private _launches;

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
    /// @param pairCodeHash The keccak256 of `dexFactory`'s pair creation code, verified as `setDex` does.
    /// @param protocolFeeRecipient_ The recipient of the protocol's fees.
    constructor(address wrappedNative_, address dexFactory, bytes32 pairCodeHash, address protocolFeeRecipient_)
        Ownable(msg.sender)
    {
        if (wrappedNative_ == address(0) || dexFactory == address(0) || protocolFeeRecipient_ == address(0)) {
            revert ZeroAddress();
        }
        _verifyPairCodeHash(dexFactory, pairCodeHash);
        wrappedNative = wrappedNative_;
        tokenImplementation = address(new LaunchpadToken());
        protocolFeeRecipient = protocolFeeRecipient_;
        _dexes.push(dexFactory);
        _pairCodeHashes.push(pairCodeHash);
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
        Launch storage launch = _launches[token];
        address creator = launch.creator;
        if (creator == address(0)) revert TokenNotFound(token);
        if (msg.sender != creator) revert UnauthorizedMetadataUpdate(msg.sender);
        _setLinks(launch, image_uri, description, website, twitter, telegram, discord);
        _emitMetadataUpdated(token);
    }

    /// @inheritdoc ILaunchpad
    function graduate(address token) external nonReentrant {
        Launch storage launch = _existing(token);
        if (launch.graduated || launch.tokenReserve != GRADUATION_TOKEN_RESERVE) revert GraduationNotPending(token);
        address pair = LaunchpadToken(token).pool();
        if (pair.code.length == 0) {
            address created = IUniswapV2Factory(LaunchpadTokenArgs.factory(token)).createPair(token, wrappedNative);
            if (created != pair) revert UnexpectedPair(pair, created);
        }
        _graduate(token, launch, pair);
    }

    // ------------------------------------------------------------------ trading

    /// @inheritdoc ILaunchpad
    function buyTokens(address token) external payable nonReentrant {
        Launch storage launch = _tradable(token);
        if (msg.value == 0) revert ZeroAmount();
        BondingCurve.Buy memory buy =
            BondingCurve.quoteBuy(launch.hypeReserve, launch.tokenReserve, GRADUATION_TOKEN_RESERVE, msg.value);
        if (buy.tokensOut == 0) revert TokenPurchaseFailed(msg.value);
        _executeBuy(token, launch, msg.sender, buy);
    }

    /// @inheritdoc ILaunchpad
    function sellTokens(address token, uint256 tokenAmount) external nonReentrant {
        Launch storage launch = _tradable(token);
        if (tokenAmount == 0) revert ZeroAmount();
        address creator = launch.creator;
        // The lock binds the creator's address whether it calls directly or through a contract (a router) in a
        // transaction it sends; tx.origin only ever adds a restriction here, it never authorizes.
        if (msg.sender == creator || tx.origin == creator) {
            uint256 unlockTime = launch.creationTimestamp + CREATOR_SELL_LOCK;
            // A validator's few seconds of timestamp leeway do not matter against a one-hour lock.
            // forge-lint: disable-next-line(block-timestamp)
            if (block.timestamp < unlockTime) revert CreatorCannotSellYet(unlockTime);
        }
        uint256 balance = IERC20(token).balanceOf(msg.sender);
        if (balance < tokenAmount) revert InsufficientBalance(balance, tokenAmount);

        uint256 hypeReserve = launch.hypeReserve;
        BondingCurve.Sell memory sell = BondingCurve.quoteSell(hypeReserve, launch.tokenReserve, tokenAmount);
        // hypeReserve >= VIRTUAL_HYPE_LIQUIDITY always (see getRealHypeReserve).
        uint256 realHypeReserve = hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        if (sell.grossOut > realHypeReserve) revert InsufficientLiquidity(sell.grossOut, realHypeReserve);
        if (sell.hypeOut == 0) revert TokenSaleFailed(tokenAmount);

        _setReserves(launch, sell.newHypeReserve, sell.newTokenReserve);
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
        Launch storage launch = _existing(token);
        return (launch.hypeReserve, launch.tokenReserve);
    }

    /// @inheritdoc ILaunchpad
    function estimateBuy(address token, uint256 hypeAmount) external view returns (uint256) {
        Launch storage launch = _tradable(token);
        if (hypeAmount == 0) return 0;
        return
            BondingCurve.quoteBuy(launch.hypeReserve, launch.tokenReserve, GRADUATION_TOKEN_RESERVE, hypeAmount)
            .tokensOut;
    }

    /// @inheritdoc ILaunchpad
    function estimateSell(address token, uint256 tokenAmount) external view returns (uint256) {
        Launch storage launch = _tradable(token);
        if (tokenAmount == 0) return 0;
        uint256 hypeReserve = launch.hypeReserve;
        BondingCurve.Sell memory sell = BondingCurve.quoteSell(hypeReserve, launch.tokenReserve, tokenAmount);
        uint256 realHypeReserve = hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        if (sell.grossOut > realHypeReserve) revert InsufficientLiquidity(sell.grossOut, realHypeReserve);
        return sell.hypeOut;
    }

    /// @inheritdoc ILaunchpad
    function getTokenMetadata(address token) external view returns (TokenMetadata memory) {
        return _metadata(token, _existing(token));
    }

    /// @inheritdoc ILaunchpad
    function getTokenCreator(address tokenAddress) external view returns (address) {
        return _existing(tokenAddress).creator;
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
            metadata[i] = _metadata(token, _launches[token]);
        }
    }

    /// @inheritdoc ILaunchpad
    function getClaimedFeesAndBurnedTokens(address token)
        external
        view
        returns (uint256 claimedFees, uint256 burnedTokens)
    {
        Launch storage launch = _launches[token];
        if (launch.creator == address(0)) revert TokenNotCreatedByFactory(token);
        return (launch.claimedFees, launch.burnedTokens);
    }

    /// @inheritdoc ILaunchpad
    function getTokenState(address token) external view returns (TokenState memory) {
        Launch storage launch = _existing(token);
        return TokenState({
            hypeReserve: launch.hypeReserve,
            tokenReserve: launch.tokenReserve,
            pair: LaunchpadToken(token).pool(),
            graduated: launch.graduated,
            lpPrincipal: launch.lpPrincipal,
            claimedFees: launch.claimedFees,
            burnedTokens: launch.burnedTokens
        });
    }

    /// @inheritdoc ILaunchpad
    /// @dev The product of the reserves never decreases and the token reserve never exceeds its start, so
    /// hypeReserve >= k0 / INITIAL_VIRTUAL_TOKEN_RESERVE = VIRTUAL_HYPE_LIQUIDITY and the subtraction cannot
    /// underflow.
    function getRealHypeReserve(address token) external view returns (uint256) {
        Launch storage launch = _existing(token);
        return launch.graduated ? 0 : launch.hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
    }

    /// @inheritdoc ILaunchpad
    function getTokensForSale(address token) external view returns (uint256) {
        Launch storage launch = _existing(token);
        return launch.graduated ? 0 : launch.tokenReserve - GRADUATION_TOKEN_RESERVE;
    }

    /// @inheritdoc ILaunchpad
    function isLaunchpadToken(address token) external view returns (bool) {
        return _launches[token].creator != address(0);
    }

    /// @inheritdoc ILaunchpad
    function dexes(uint256 index) external view returns (address) {
        return _dexes[index];
    }

    /// @inheritdoc ILaunchpad
    function dexCount() external view returns (uint256) {
        return _dexes.length;
    }

    /// @inheritdoc ILaunchpad
    function dexPairCodeHash(uint256 index) external view returns (bytes32) {
        return _pairCodeHashes[index];
    }

    // ------------------------------------------------------------------ owner

    /// @inheritdoc ILaunchpad
    function setDex(uint8 dexIndex, address factory, bytes32 pairCodeHash) external onlyOwner {
        if (factory == address(0)) revert ZeroAddress();
        uint256 count = _dexes.length;
        if (dexIndex > count) revert UnsupportedDexIndex(dexIndex);
        _verifyPairCodeHash(factory, pairCodeHash);
        if (dexIndex == count) {
            _dexes.push(factory);
            _pairCodeHashes.push(pairCodeHash);
        } else {
            _dexes[dexIndex] = factory;
            _pairCodeHashes[dexIndex] = pairCodeHash;
        }
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

    /// @dev createToken: deploys the token (a minimal proxy), locks its pair's address, records it, and runs the
    /// creator's first purchase.
    function _createToken(CreateTokenArgs memory args) private returns (address token) {
        if (args.dexIndex != 0) revert UnsupportedDexIndex(args.dexIndex);
        if (bytes(args.name).length == 0 || bytes(args.symbol).length == 0) revert EmptyNameOrSymbol();
        _checkLength("name", args.name, MAX_NAME_LENGTH);
        _checkLength("symbol", args.symbol, MAX_SYMBOL_LENGTH);

        address factory = _dexes[args.dexIndex];
        token = _deployToken(factory, args.name, args.symbol);
        // The pair is not deployed here (that alone costs more than the rest of createToken), but its address is
        // fixed: the DEX deploys the pair of (token, wrappedNative) at the CREATE2 address of its factory with the
        // pair's code hash. The token refuses deposits into that address from this instant until graduation,
        // whether the pair exists yet or not, so the launchpad mints the pair's first LP shares, at the curve's
        // final price.
        // The creator's sell lock: the token refuses transfers out of the creator's address until
        // creationTimestamp + CREATOR_SELL_LOCK, the end `sellTokens` checks too.
        LaunchpadToken(token)
            .initialize(
                _pairAddress(factory, _pairCodeHashes[args.dexIndex], token),
                SafeCast.toUint64(block.timestamp + CREATOR_SELL_LOCK)
            );

        _tokens.push(token);
        Launch storage launch = _launches[token];
        launch.creator = msg.sender;
        launch.creationTimestamp = uint64(block.timestamp);
        _setLinks(launch, args.image_uri, args.description, args.website, args.twitter, args.telegram, args.discord);
        _setReserves(launch, VIRTUAL_HYPE_LIQUIDITY, INITIAL_VIRTUAL_TOKEN_RESERVE);

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
        _emitTokenCreated(token, args, buy);
        if (msg.value > 0) _executeBuy(token, launch, msg.sender, buy);
    }

    /// @dev The metadata limits in bytes (see `MetadataTooLong`). Every creation and trade stores or logs the
    /// metadata (the name and symbol are in every trade event), about 660 gas a byte: with every field at its
    /// limit, a creation whose purchase sells out the curve and graduates the token still fits 2,000,000 gas.
    uint256 private constant MAX_NAME_LENGTH = 32;
    uint256 private constant MAX_SYMBOL_LENGTH = 16;
    uint256 private constant MAX_IMAGE_URI_LENGTH = 200;
    uint256 private constant MAX_DESCRIPTION_LENGTH = 800;
    uint256 private constant MAX_LINK_LENGTH = 100;

    /// @dev Reverts MetadataTooLong unless `value` is at most `maxLength` bytes.
    function _checkLength(string memory field, string memory value, uint256 maxLength) private pure {
        uint256 length = bytes(value).length;
        if (length > maxLength) revert MetadataTooLong(field, length, maxLength);
    }

    /// @dev Stores the metadata a creator may update (everything but the name and symbol), each field within
    /// its limit.
    function _setLinks(
        Launch storage launch,
        string memory image_uri,
        string memory description,
        string memory website,
        string memory twitter,
        string memory telegram,
        string memory discord
    ) private {
        _checkLength("image_uri", image_uri, MAX_IMAGE_URI_LENGTH);
        _checkLength("description", description, MAX_DESCRIPTION_LENGTH);
        _checkLength("website", website, MAX_LINK_LENGTH);
        _checkLength("twitter", twitter, MAX_LINK_LENGTH);
        _checkLength("telegram", telegram, MAX_LINK_LENGTH);
        _checkLength("discord", discord, MAX_LINK_LENGTH);
        launch.image_uri = image_uri;
        launch.description = description;
        launch.website = website;
        launch.twitter = twitter;
        launch.telegram = telegram;
        launch.discord = discord;
    }

    /// @dev Deploys the token as a minimal proxy of `tokenImplementation` with CREATE2 (salt: creator and
    /// index), its DEX factory, creator, name and symbol appended as immutable arguments. An occupied address is reported
    /// as TokenCreationFailed.
    function _deployToken(address factory, string memory name, string memory symbol) private returns (address) {
        bytes memory cloneArgs = LaunchpadTokenArgs.encode(factory, msg.sender, name, symbol);
        bytes32 salt = keccak256(abi.encode(msg.sender, _tokens.length));
        address predicted = Clones.predictDeterministicAddressWithImmutableArgs(tokenImplementation, cloneArgs, salt);
        if (predicted.code.length != 0) revert TokenCreationFailed();
        return Clones.cloneDeterministicWithImmutableArgs(tokenImplementation, cloneArgs, salt);
    }

    /// @dev The address `factory` deploys the pair of `token` and the wrapped native token at (Uniswap V2:
    /// CREATE2 with salt keccak256(token0, token1) and the pair's creation code hash).
    function _pairAddress(address factory, bytes32 pairCodeHash, address token) private view returns (address) {
        (address token0, address token1) = token < wrappedNative ? (token, wrappedNative) : (wrappedNative, token);
        return _create2Pair(factory, pairCodeHash, token0, token1);
    }

    /// @dev The CREATE2 address of the pair of the sorted `token0` < `token1` deployed by `factory` from code
    /// hashing to `pairCodeHash`.
    function _create2Pair(address factory, bytes32 pairCodeHash, address token0, address token1)
        private
        pure
        returns (address)
    {
        return Create2.computeAddress(keccak256(abi.encodePacked(token0, token1)), pairCodeHash, factory);
    }

    /// @dev Checks that `factory` deploys its pairs from code hashing to `pairCodeHash`, so that the addresses the
    /// launchpad locks are where the factory will deploy them. With pairs (`allPairsLength() > 0`): the first one,
    /// `allPairs(0)`, must be the CREATE2 address the hash gives for its `token0()` and `token1()` (as the factory
    /// sorted them). Without a pair yet: the factory must report the same hash as `INIT_CODE_PAIR_HASH()`, which
    /// canonical Uniswap V2 factories and many forks do not have. Reverts PairCodeHashMismatch when a check fails
    /// and PairCodeHashUnverifiable when neither can be made. All calls are static and tolerate a missing getter
    /// (a factory without `allPairsLength` counts as having no pair).
    function _verifyPairCodeHash(address factory, bytes32 pairCodeHash) private view {
        (bool ok, bytes32 word) = _staticWord(factory, abi.encodeCall(IUniswapV2Factory.allPairsLength, ()));
        if (ok && word != 0) {
            address pair;
            address token0;
            address token1;
            (ok, pair) = _staticAddress(factory, abi.encodeCall(IUniswapV2Factory.allPairs, (0)));
            if (ok) (ok, token0) = _staticAddress(pair, abi.encodeCall(IUniswapV2Pair.token0, ()));
            if (ok) (ok, token1) = _staticAddress(pair, abi.encodeCall(IUniswapV2Pair.token1, ()));
            if (!ok) revert PairCodeHashUnverifiable(factory);
            if (_create2Pair(factory, pairCodeHash, token0, token1) != pair) {
                revert PairCodeHashMismatch(factory, pairCodeHash);
            }
            return;
        }
        (ok, word) = _staticWord(factory, abi.encodeCall(IUniswapV2Factory.INIT_CODE_PAIR_HASH, ()));
        if (!ok) revert PairCodeHashUnverifiable(factory);
        if (word != pairCodeHash) revert PairCodeHashMismatch(factory, pairCodeHash);
    }

    /// @dev The first word `target` returns for `data` (a static call); `ok` false when the call reverts or
    /// returns less than a word (a missing function, an account without code).
    function _staticWord(address target, bytes memory data) private view returns (bool ok, bytes32 word) {
        bytes memory result;
        (ok, result) = target.staticcall(data);
        if (!ok || result.length < 32) return (false, 0);
        // casting to 'bytes32' is safe because the result holds at least 32 bytes: this reads its first word.
        // forge-lint: disable-next-line(unsafe-typecast)
        word = bytes32(result);
    }

    /// @dev `_staticWord` read as an address; `ok` false unless the word is a clean, nonzero address.
    function _staticAddress(address target, bytes memory data) private view returns (bool ok, address account) {
        bytes32 word;
        (ok, word) = _staticWord(target, data);
        // casting to 'uint160' is safe because the word is checked to fit 160 bits first.
        // forge-lint: disable-next-line(unsafe-typecast)
        if (!ok || uint256(word) >> 160 != 0 || word == 0) return (false, address(0));
        account = address(uint160(uint256(word)));
    }

    /// @dev The record of a launchpad token; reverts TokenNotFound for other addresses.
    function _existing(address token) private view returns (Launch storage launch) {
        launch = _launches[token];
        if (launch.creator == address(0)) revert TokenNotFound(token);
    }

    /// @dev The record of a launchpad token still trading on its curve; reverts TokenNotFound / TokenFrozen.
    /// A curve is frozen once sold out, graduated or not yet (graduation happens only at the sell-out).
    function _tradable(address token) private view returns (Launch storage launch) {
        launch = _existing(token);
        if (launch.tokenReserve == GRADUATION_TOKEN_RESERVE) revert TokenFrozen(token);
    }

    /// @dev Writes the curve's reserves (see Launch for the widths).
    function _setReserves(Launch storage launch, uint256 hypeReserve, uint256 tokenReserve) private {
        launch.hypeReserve = SafeCast.toUint96(hypeReserve);
        launch.tokenReserve = SafeCast.toUint64(tokenReserve);
    }

    /// @dev The token's metadata record: name and symbol from the token, the rest from storage.
    function _metadata(address token, Launch storage launch) private view returns (TokenMetadata memory) {
        return TokenMetadata({
            name: LaunchpadTokenArgs.name(token),
            symbol: LaunchpadTokenArgs.symbol(token),
            image_uri: launch.image_uri,
            description: launch.description,
            website: launch.website,
            twitter: launch.twitter,
            telegram: launch.telegram,
            discord: launch.discord,
            creator: launch.creator,
            creationTimestamp: launch.creationTimestamp,
            startingLiquidity: VIRTUAL_HYPE_LIQUIDITY,
            dexIndex: 0
        });
    }

    /// @dev Applies a quoted buy for `buyer`: reserves, fees, tokens out, event; at the sell-out, graduation when
    /// the pair is deployed; then the refund of what the buy did not use.
    function _executeBuy(address token, Launch storage launch, address buyer, BondingCurve.Buy memory buy) private {
        _setReserves(launch, buy.newHypeReserve, buy.newTokenReserve);
        _accrueFee(launch.creator, buy.fee);
        if (!IERC20(token).transfer(buyer, buy.tokensOut)) revert TokenTransferFailed(token);
        _emitTrade(true, token, buyer, buy.hypeUsed, buy.tokensOut, buy.newHypeReserve, buy.newTokenReserve);
        if (buy.newTokenReserve == GRADUATION_TOKEN_RESERVE) {
            // Sold out: the curve is frozen from now on. With the pair deployed the token graduates here (a few
            // hundred thousand gas); deploying the pair as well (about 1.6M gas) would not fit a 2M-gas block
            // together with this buy, so then `graduate` deploys it and completes the graduation.
            address pair = LaunchpadToken(token).pool();
            if (pair.code.length != 0) _graduate(token, launch, pair);
        }
        // hypeUsed <= msg.value (BondingCurve.quoteBuy never spends more than offered).
        uint256 refund = msg.value - buy.hypeUsed;
        if (refund > 0) _sendNative(buyer, refund);
    }

    /// @dev Moves the sold-out curve to its deployed DEX pair: the raised native coin (wrapped) and the reserved
    /// tokens seed the pair, whose first LP shares come to this contract; the token opens the pair and closes the
    /// launchpad's transfer privilege. Records the position's principal for `claimFees`.
    ///
    /// Until the token's `graduate()` below, the token refused every transfer into the pair (from the token's
    /// first instant, before the pair existed too), so the pair holds none of it: nobody can have minted LP
    /// shares (a first mint needs both sides) and no swap can have run (its token reserve is 0). Only wrapped
    /// native coin can have reached the pair, as a donation, moved into its reserves by `sync` or not. That coin
    /// stands in for part of the raised coin: the launchpad adds only what is missing up to the raised amount, so
    /// the pool opens at exactly the raised amount against DEX_RESERVE_SUPPLY (the curve's final price), and the
    /// raised coin it did not need accrues as fees (half creator, half protocol). Only a donation larger than the
    /// whole raised amount leaves the pool opening higher (the launchpad then adds 1 wei if the pair synced it,
    /// since a mint needs some of each side); it cannot open lower.
    function _graduate(address token, Launch storage launch, address pair) private {
        uint256 raised = launch.hypeReserve - VIRTUAL_HYPE_LIQUIDITY;
        launch.graduated = true;
        LaunchpadToken(token).graduate();
        if (IERC20(pair).totalSupply() != 0) revert PairAlreadySeeded(pair);

        bool wrappedIs0 = wrappedNative < token;
        uint256 donated = IERC20(wrappedNative).balanceOf(pair);
        uint256 deposit;
        if (donated < raised) {
            deposit = raised - donated;
        } else {
            (uint112 r0, uint112 r1,) = IUniswapV2Pair(pair).getReserves();
            if (donated == (wrappedIs0 ? r0 : r1)) deposit = 1;
        }
        if (deposit > 0) {
            IWrappedNative(wrappedNative).deposit{value: deposit}();
            if (!IERC20(wrappedNative).transfer(pair, deposit)) revert TokenTransferFailed(wrappedNative);
        }
        if (!IERC20(token).transfer(pair, DEX_RESERVE_SUPPLY)) revert TokenTransferFailed(token);
        uint256 liquidity = IUniswapV2Pair(pair).mint(address(this));
        if (deposit < raised) _accrueFee(launch.creator, raised - deposit);

        (uint112 reserve0, uint112 reserve1,) = IUniswapV2Pair(pair).getReserves();
        launch.lpPrincipal = SafeCast.toUint96(
            Math.mulDiv(
                liquidity, Math.sqrt(uint256(reserve0) * reserve1), IERC20(pair).totalSupply(), Math.Rounding.Ceil
            )
        );
        emit TokenGraduated(token, pair, wrappedIs0 ? reserve0 : reserve1, DEX_RESERVE_SUPPLY, liquidity);
    }

    /// @dev Collects the LP position's fees: burns the LP shares worth more than the principal (in sqrt(k)
    /// units, as Uniswap V2 measures fee growth for its protocol fee), sends the wrapped native coin half to the
    /// creator and half (plus any odd wei) to the protocol, burns the tokens.
    function _claimFees(address token) private returns (uint256 whypeAmount, uint256 tokensAmount) {
        Launch storage launch = _launches[token];
        address creator = launch.creator;
        if (creator == address(0)) revert TokenNotCreatedByFactory(token);
        if (!launch.graduated) revert TokenNotGraduated(token);
        IUniswapV2Pair pair = IUniswapV2Pair(LaunchpadToken(token).pool());
        uint256 feeShares = _feeShares(pair, launch.lpPrincipal);
        if (feeShares == 0) return (0, 0);

        if (!pair.transfer(address(pair), feeShares)) revert TokenTransferFailed(address(pair));
        (uint256 amount0, uint256 amount1) = pair.burn(address(this));
        (whypeAmount, tokensAmount) = wrappedNative < token ? (amount0, amount1) : (amount1, amount0);
        launch.claimedFees += whypeAmount;
        launch.burnedTokens += tokensAmount;
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
    /// `updateTokenMetadata`, whose string arguments fill the stack).
    function _emitMetadataUpdated(address token) private {
        TokenMetadata memory m = _metadata(token, _launches[token]);
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
        string memory name = LaunchpadTokenArgs.name(token);
        string memory symbol = LaunchpadTokenArgs.symbol(token);
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
    function _emitTokenCreated(address token, CreateTokenArgs memory args, BondingCurve.Buy memory buy) private {
        bytes memory data = abi.encode(
            TokenCreatedData({
                name: args.name,
                symbol: args.symbol,
                image_uri: args.image_uri,
                description: args.description,
                website: args.website,
                twitter: args.twitter,
                telegram: args.telegram,
                discord: args.discord,
                creationTimestamp: block.timestamp,
                startingLiquidity: VIRTUAL_HYPE_LIQUIDITY,
                currentHypeReserves: buy.newHypeReserve,
                currentTokenReserves: buy.newTokenReserve,
                totalSupply: TOTAL_SUPPLY,
                currentPrice: BondingCurve.price(buy.newHypeReserve, buy.newTokenReserve),
                initialPurchaseAmount: buy.tokensOut
            })
        );
        bytes32 topic0 = TokenCreated.selector;
        address creator = msg.sender;
        assembly ("memory-safe") {
            // Skip the length word and the leading offset word.
            log3(add(data, 0x40), sub(mload(data), 0x20), topic0, token, creator)
        }
    }
}
