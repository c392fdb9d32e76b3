// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ILaunchpad
/// @notice Launches ERC20 tokens (1,000,000,000 tokens, 6 decimals) that trade on a constant-product bonding
/// curve against the chain's native coin (HYPE on chain 999, ETH on chain 4663) until the curve's sale
/// allotment is sold; the curve then freezes and the token graduates to a pool of a V2-style DEX seeded with the
/// raised native coin (wrapped) and the reserved tokens.
/// @dev Curve: x * y = k with x = VIRTUAL_HYPE_LIQUIDITY + native raised and y = the virtual token reserve,
/// which starts at INITIAL_VIRTUAL_TOKEN_RESERVE; the curve sells CURVE_SALE_SUPPLY tokens and graduates when
/// y reaches GRADUATION_TOKEN_RESERVE. Fees: 1% of the native coin on both sides (from the input on buys,
/// from the output on sells), half to the token's creator and half to the protocol, accrued and withdrawn.
/// Rounding favours the protocol: the fee rounds up, tokens out round down, native out rounds down.
/// Full description: src/launchpad/README.md.
interface ILaunchpad {
    // ------------------------------------------------------------------ records

    /// @notice The metadata of a launched token.
    /// @param name The token name (immutable).
    /// @param symbol The token symbol (immutable).
    /// @param image_uri The image URI.
    /// @param description Free text.
    /// @param website The website URL.
    /// @param twitter The Twitter / X handle or URL.
    /// @param telegram The Telegram URL.
    /// @param discord The Discord URL.
    /// @param creator The account that created the token.
    /// @param creationTimestamp The block timestamp of the creation.
    /// @param startingLiquidity The virtual native liquidity the curve started with (VIRTUAL_HYPE_LIQUIDITY).
    /// @param dexIndex The DEX the token graduates to (index into `dexes`; always 0).
    struct TokenMetadata {
        string name;
        string symbol;
        string image_uri;
        string description;
        string website;
        string twitter;
        string telegram;
        string discord;
        address creator;
        uint256 creationTimestamp;
        uint256 startingLiquidity;
        uint8 dexIndex;
    }

    /// @notice The trading state of a launched token.
    /// @param hypeReserve The curve's virtual native reserve x (VIRTUAL_HYPE_LIQUIDITY + native raised);
    /// frozen at its last value after graduation.
    /// @param tokenReserve The curve's virtual token reserve y; frozen at GRADUATION_TOKEN_RESERVE after
    /// graduation.
    /// @param pair The address of the token's DEX pair with the wrapped native token. Fixed when the token is
    /// created (the DEX deploys its pairs at deterministic addresses) and locked against deposits until
    /// graduation; the pair contract itself is deployed by graduation at the latest (anyone may deploy it earlier
    /// through the DEX factory).
    /// @param graduated Whether the token moved to `pair`: the pool is seeded and the curve frozen. A curve that
    /// sold out before its pair was deployed is frozen with `graduated` still false until `graduate` runs.
    /// @param lpPrincipal After graduation: the launchpad's LP position measured in sqrt(k) units of the pair
    /// at graduation; the part of the position worth more than this is fees (see `claimFees`).
    /// @param claimedFees Wrapped native coin collected by `claimFees` so far.
    /// @param burnedTokens Tokens collected by `claimFees` and burned so far.
    struct TokenState {
        uint256 hypeReserve;
        uint256 tokenReserve;
        address pair;
        bool graduated;
        uint256 lpPrincipal;
        uint256 claimedFees;
        uint256 burnedTokens;
    }

    // ------------------------------------------------------------------ errors: general

    /// @notice An address that must be set is zero (constructor arguments, fee recipient, DEX factory).
    error ZeroAddress();

    /// @notice An amount that must not be zero is zero (native sent to `buyTokens`, `tokenAmount` of
    /// `sellTokens`).
    error ZeroAmount();

    /// @notice Sending native coin failed (sale proceeds, a refund, a fee withdrawal).
    /// @param to The recipient.
    /// @param amount The amount in wei.
    error EthTransferFailed(address to, uint256 amount);

    /// @notice A token transfer returned false (the wrapped native token or a launched token).
    /// @param token The token.
    error TokenTransferFailed(address token);

    /// @notice The seller holds fewer tokens than it tries to sell.
    /// @param balance The seller's balance.
    /// @param needed The amount it tried to sell.
    error InsufficientBalance(uint256 balance, uint256 needed);

    // ------------------------------------------------------------------ errors: token lifecycle

    /// @notice A fee function (`claimFees`, `previewClaimFees`, `getClaimedFeesAndBurnedTokens`) was given
    /// a token this launchpad did not create.
    /// @param token The address given.
    error TokenNotCreatedByFactory(address token);

    /// @notice Deploying the token contract failed (its CREATE2 address is occupied).
    error TokenCreationFailed();

    /// @notice The token's curve sold out and is frozen: the token trades on its DEX pair once graduated (in the
    /// sell-out buy, or through `graduate`).
    /// @param token The token.
    error TokenFrozen(address token);

    /// @notice The address is not a token of this launchpad (trading, estimates, metadata reads and
    /// updates). A token cannot be bought before it exists, i.e. before its creator's first purchase.
    /// @param token The address given.
    error TokenNotFound(address token);

    // ------------------------------------------------------------------ errors: trading

    /// @notice The native coin sent buys no token (too small an amount).
    /// @param hypeIn The native coin sent.
    error TokenPurchaseFailed(uint256 hypeIn);

    /// @notice The curve cannot pay for the sale: the native coin out would exceed the native coin raised.
    /// @param hypeOut The native coin the sale would take out (before the fee).
    /// @param realHypeReserve The native coin raised and held for the curve.
    error InsufficientLiquidity(uint256 hypeOut, uint256 realHypeReserve);

    /// @notice The token's creator may not sell within CREATOR_SELL_LOCK of the creation.
    /// @param unlockTime The first timestamp at which the creator may sell.
    error CreatorCannotSellYet(uint256 unlockTime);

    /// @notice The tokens sold are worth no native coin after rounding (too small an amount).
    /// @param tokenAmount The tokens offered.
    error TokenSaleFailed(uint256 tokenAmount);

    // ------------------------------------------------------------------ errors: authorization and setup

    /// @notice Only the token's creator may update its metadata.
    /// @param caller The caller.
    error UnauthorizedMetadataUpdate(address caller);

    /// @notice The DEX index is not supported: tokens graduate to the DEX at index 0 only.
    /// @param dexIndex The index given.
    error UnsupportedDexIndex(uint8 dexIndex);

    /// @notice The token name or symbol is empty.
    error EmptyNameOrSymbol();

    /// @notice A metadata field is longer than its limit (in bytes of UTF-8). The limits keep every launchpad
    /// transaction within a HyperEVM small block (2,000,000 gas): name 32, symbol 16, image_uri 200,
    /// description 800, website, twitter, telegram and discord 100 each.
    /// @param field The field's name, as in `createToken`.
    /// @param length The field's length in bytes.
    /// @param maxLength The field's limit in bytes.
    error MetadataTooLong(string field, uint256 length, uint256 maxLength);

    /// @notice The token has not graduated, so it has no LP position to collect fees from.
    /// @param token The token.
    error TokenNotGraduated(address token);

    /// @notice The result of a simulated fee claim, carried by the revert of `simulateClaimFees`.
    /// @param whypeAmount The wrapped native coin the claim would collect.
    /// @param tokensAmount The tokens the claim would burn.
    error ClaimFeesPreview(uint256 whypeAmount, uint256 tokensAmount);

    /// @notice `graduate` was called for a token whose curve has not sold out, or that already graduated.
    /// @param token The token.
    error GraduationNotPending(address token);

    /// @notice The DEX deployed the token's pair somewhere else than the address the token locks: the DEX does not
    /// derive its pair addresses from the pair code hash registered with it. Nothing is seeded.
    /// @param expected The address the token locks (`TokenState.pair`).
    /// @param actual The pair the DEX created.
    error UnexpectedPair(address expected, address actual);

    /// @notice The pair code hash given with a DEX factory (constructor, `setDex`) does not match the factory: the
    /// factory's first pair (`allPairs(0)`) is not at the CREATE2 address the hash gives for its two tokens, or,
    /// while the factory has no pair yet, the factory reports another `INIT_CODE_PAIR_HASH()`.
    /// @param factory The factory.
    /// @param pairCodeHash The hash given.
    error PairCodeHashMismatch(address factory, bytes32 pairCodeHash);

    /// @notice The pair code hash given with a DEX factory (constructor, `setDex`) cannot be checked: the factory
    /// has no pair yet and does not report `INIT_CODE_PAIR_HASH()`, or its first pair does not answer `token0()`
    /// and `token1()`. Register it once it has a pair.
    /// @param factory The factory.
    error PairCodeHashUnverifiable(address factory);

    /// @notice The pair already has LP shares at graduation. Unreachable while the pair holds none of the token,
    /// which the token guarantees until graduation; checked all the same.
    /// @param pair The pair.
    error PairAlreadySeeded(address pair);

    // ------------------------------------------------------------------ events (spec)

    /// @notice A token was created; the reserves are the curve's after the creator's first purchase.
    /// @param initialPurchaseAmount The tokens the creator bought inside `createToken` (0 without value).
    /// @param currentPrice Native wei per whole token (10^6 base units), rounded down.
    event TokenCreated(
        address indexed token,
        address indexed creator,
        string name,
        string symbol,
        string image_uri,
        string description,
        string website,
        string twitter,
        string telegram,
        string discord,
        uint256 creationTimestamp,
        uint256 startingLiquidity,
        uint256 currentHypeReserves,
        uint256 currentTokenReserves,
        uint256 totalSupply,
        uint256 currentPrice,
        uint256 initialPurchaseAmount
    );

    /// @notice Tokens were bought on the curve.
    /// @param hypeIn The native coin spent, fee included (a refunded excess is not counted).
    /// @param tokensOut The tokens received.
    /// @param price Native wei per whole token after the trade, rounded down.
    /// @param hypeReserves The curve's virtual native reserve after the trade.
    /// @param tokenReserves The curve's virtual token reserve after the trade.
    /// @param totalSupply The token's total supply.
    event TokensPurchased(
        address indexed token,
        address indexed buyer,
        uint256 hypeIn,
        uint256 tokensOut,
        uint256 price,
        uint256 timestamp,
        uint256 hypeReserves,
        uint256 tokenReserves,
        uint256 totalSupply,
        string name,
        string symbol
    );

    /// @notice Tokens were sold back to the curve.
    /// @param tokensIn The tokens sold.
    /// @param hypeOut The native coin paid to the seller, fee deducted.
    /// @param price Native wei per whole token after the trade, rounded down.
    event TokensSold(
        address indexed token,
        address indexed seller,
        uint256 tokensIn,
        uint256 hypeOut,
        uint256 price,
        uint256 timestamp,
        uint256 hypeReserves,
        uint256 tokenReserves,
        uint256 totalSupply,
        string name,
        string symbol
    );

    /// @notice The creator updated the token's metadata (name and symbol never change).
    event TokenMetadataUpdated(
        address indexed token,
        address indexed creator,
        string name,
        string symbol,
        string image_uri,
        string description,
        string website,
        string twitter,
        string telegram,
        string discord,
        uint256 timestamp
    );

    // ------------------------------------------------------------------ events (launchpad extras)

    /// @notice The token's pool was seeded (the curve sold out); the launchpad holds the LP position.
    /// @param token The token.
    /// @param pair The DEX pair.
    /// @param hypeAmount The wrapped native coin the pool opens with: the native coin raised (wrapped native
    /// coin donated to the pair beforehand stands in for part of it; only a donation larger than the whole of it
    /// makes the pool open with more).
    /// @param tokenAmount The reserved tokens deposited.
    /// @param liquidity The LP tokens minted to the launchpad.
    event TokenGraduated(
        address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity
    );

    /// @notice The LP fees of a graduated token were collected.
    /// @param token The token.
    /// @param caller Who called `claimFees` (receives nothing).
    /// @param whypeAmount The wrapped native coin collected.
    /// @param creatorAmount The part sent to the creator.
    /// @param protocolAmount The part sent to the protocol fee recipient.
    /// @param tokensBurned The tokens collected and burned.
    event FeesClaimed(
        address indexed token,
        address indexed caller,
        uint256 whypeAmount,
        uint256 creatorAmount,
        uint256 protocolAmount,
        uint256 tokensBurned
    );

    /// @notice A creator withdrew its accrued trading fees.
    event CreatorFeesWithdrawn(address indexed creator, uint256 amount);

    /// @notice The protocol's accrued trading fees were sent to the protocol fee recipient.
    event ProtocolFeesWithdrawn(address indexed recipient, uint256 amount);

    /// @notice The protocol fee recipient changed.
    event ProtocolFeeRecipientUpdated(address indexed recipient);

    /// @notice A DEX factory was registered at `dexIndex`.
    event DexSet(uint8 indexed dexIndex, address indexed factory);

    // ------------------------------------------------------------------ constants

    /// @notice The curve's virtual native liquidity: 300 ether (300 x 10^18 wei of the native coin).
    function VIRTUAL_HYPE_LIQUIDITY() external view returns (uint256);

    /// @notice Every token's supply: 1,000,000,000 x 10^6 base units.
    function TOTAL_SUPPLY() external view returns (uint256);

    /// @notice The tokens the curve sells before graduating: 750,000,000 x 10^6.
    function CURVE_SALE_SUPPLY() external view returns (uint256);

    /// @notice The tokens reserved for the DEX pool at graduation: 250,000,000 x 10^6.
    function DEX_RESERVE_SUPPLY() external view returns (uint256);

    /// @notice The curve's virtual token reserve at creation: 1,125,000,000 x 10^6.
    function INITIAL_VIRTUAL_TOKEN_RESERVE() external view returns (uint256);

    /// @notice The virtual token reserve at which the curve is sold out and the token graduates:
    /// 375,000,000 x 10^6.
    function GRADUATION_TOKEN_RESERVE() external view returns (uint256);

    /// @notice The trading fee in basis points: 100 (1%).
    function FEE_BPS() external view returns (uint256);

    /// @notice How long after the creation the creator may not sell: 1 hour. The token enforces it on every path:
    /// it refuses transfers out of the creator's address until then (LaunchpadToken.CreatorTokensLocked).
    function CREATOR_SELL_LOCK() external view returns (uint256);

    // ------------------------------------------------------------------ token lifecycle

    /// @notice Creates a token and, with the native coin sent, buys it for the caller in the same transaction,
    /// before anybody else can (anti-sniper). The token is a minimal proxy of one implementation; its DEX pair's
    /// address is fixed and locked now, the pair itself is deployed by graduation at the latest.
    /// Each metadata field has a length limit (see `MetadataTooLong`).
    /// @param name The token name (non-empty, at most 32 bytes).
    /// @param symbol The token symbol (non-empty, at most 16 bytes).
    /// @param image_uri The image URI (at most 200 bytes).
    /// @param description Free text (at most 800 bytes).
    /// @param website The website URL (at most 100 bytes).
    /// @param twitter The Twitter / X handle or URL (at most 100 bytes).
    /// @param telegram The Telegram URL (at most 100 bytes).
    /// @param discord The Discord URL (at most 100 bytes).
    /// @param dexIndex The DEX to graduate to; must be 0.
    /// @return tokenAddress The new token.
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
    ) external payable returns (address tokenAddress);

    /// @notice Updates the token's metadata; only its creator may. Name and symbol are immutable; the fields
    /// have createToken's length limits (`MetadataTooLong`).
    /// @param token The token.
    /// @param image_uri The new image URI.
    /// @param description The new description.
    /// @param website The new website URL.
    /// @param twitter The new Twitter / X handle or URL.
    /// @param telegram The new Telegram URL.
    /// @param discord The new Discord URL.
    function updateTokenMetadata(
        address token,
        string memory image_uri,
        string memory description,
        string memory website,
        string memory twitter,
        string memory telegram,
        string memory discord
    ) external;

    // ------------------------------------------------------------------ trading

    /// @notice Buys tokens with the native coin sent; the tokens go to the caller. 1% of the native coin is the
    /// fee. The buy that sells out the curve is filled partially, the rest refunded to the caller, and the curve
    /// freezes. If the token's DEX pair is deployed, the token graduates in the same call; otherwise `graduate`
    /// completes it (deploying the pair there would not fit a 2,000,000-gas block together with the buy).
    /// @param token The token.
    function buyTokens(address token) external payable;

    /// @notice Sells `tokenAmount` of the caller's tokens to the curve for native coin, paid to the caller less
    /// the 1% fee. Needs no approval: the launchpad moves the tokens through the token's launchpad-only
    /// `launchpadTransfer`, always from the caller.
    /// @param token The token.
    /// @param tokenAmount The tokens to sell.
    function sellTokens(address token, uint256 tokenAmount) external;

    /// @notice Graduates a token whose curve sold out before its DEX pair was deployed: deploys the pair through
    /// the token's DEX factory if it is still missing, and seeds it as the sell-out buy would have (see
    /// `TokenGraduated`). Anyone may call; the caller pays the gas and receives nothing.
    /// @param token The token.
    function graduate(address token) external;

    // ------------------------------------------------------------------ fees

    /// @notice Collects the fees earned by the launchpad's LP position of a graduated token: the wrapped
    /// native coin goes half to the creator and half to the protocol fee recipient, the tokens are burned.
    /// Anyone may call; the caller receives nothing. Returns 0 when there is nothing to collect.
    /// @param token The token.
    /// @return whypeReceived The wrapped native coin collected.
    function claimFees(address token) external returns (uint256 whypeReceived);

    /// @notice What `claimFees` would collect now. Not a view (it simulates the claim and undoes it): invoke
    /// it as a static call (eth_call).
    /// @param token The token.
    /// @return whypeAmount The wrapped native coin that would be collected.
    /// @return tokensAmount The tokens that would be burned.
    function previewClaimFees(address token) external returns (uint256 whypeAmount, uint256 tokensAmount);

    /// @notice Performs `claimFees` and always reverts with `ClaimFeesPreview(whypeAmount, tokensAmount)`,
    /// undoing it. Used by `previewClaimFees`.
    /// @param token The token.
    function simulateClaimFees(address token) external;

    /// @notice Sends the caller its accrued creator trading fees (in native coin).
    /// @return amount The amount sent.
    function withdrawCreatorFees() external returns (uint256 amount);

    /// @notice Sends the accrued protocol trading fees (in native coin) to the protocol fee recipient. Anyone
    /// may call.
    /// @return amount The amount sent.
    function withdrawProtocolFees() external returns (uint256 amount);

    // ------------------------------------------------------------------ views

    /// @notice The curve's current virtual reserves.
    /// @param token The token.
    /// @return hypeReserve VIRTUAL_HYPE_LIQUIDITY plus the native coin raised.
    /// @return tokenReserve The virtual token reserve.
    function getLiquidity(address token) external view returns (uint256 hypeReserve, uint256 tokenReserve);

    /// @notice The tokens `buyTokens` would give now for `hypeAmount` of native coin, fee included (capped at
    /// what remains for sale). 0 where `buyTokens` would revert for a zero or too small amount.
    /// @param token The token.
    /// @param hypeAmount The native coin to spend.
    /// @return The tokens out.
    function estimateBuy(address token, uint256 hypeAmount) external view returns (uint256);

    /// @notice The native coin `sellTokens` would pay now for `tokenAmount`, fee deducted.
    /// @param token The token.
    /// @param tokenAmount The tokens to sell.
    /// @return The native coin out.
    function estimateSell(address token, uint256 tokenAmount) external view returns (uint256);

    /// @notice The token's metadata.
    /// @param token The token.
    /// @return The metadata.
    function getTokenMetadata(address token) external view returns (TokenMetadata memory);

    /// @notice The token's creator.
    /// @param tokenAddress The token.
    /// @return The creator.
    function getTokenCreator(address tokenAddress) external view returns (address);

    /// @notice The number of tokens created.
    /// @return The count.
    function getTokenCount() external view returns (uint256);

    /// @notice Tokens in creation order from index `start`, at most `limit` of them, with their metadata.
    /// Empty when `start` is past the end.
    /// @param start The first index.
    /// @param limit The most to return.
    /// @return tokens The token addresses.
    /// @return metadata Their metadata, in the same order.
    function getPaginatedTokensWithMetadata(uint256 start, uint256 limit)
        external
        view
        returns (address[] memory tokens, TokenMetadata[] memory metadata);

    /// @notice What `claimFees` collected so far for the token.
    /// @param token The token.
    /// @return claimedFees The wrapped native coin collected.
    /// @return burnedTokens The tokens burned.
    function getClaimedFeesAndBurnedTokens(address token)
        external
        view
        returns (uint256 claimedFees, uint256 burnedTokens);

    /// @notice The token's trading state (reserves, pair, graduation, fee totals).
    /// @param token The token.
    /// @return The state.
    function getTokenState(address token) external view returns (TokenState memory);

    /// @notice The native coin raised and held for the token's curve (0 after graduation).
    /// @param token The token.
    /// @return The amount in wei.
    function getRealHypeReserve(address token) external view returns (uint256);

    /// @notice The tokens still for sale on the curve (0 after graduation).
    /// @param token The token.
    /// @return The amount in base units.
    function getTokensForSale(address token) external view returns (uint256);

    /// @notice Whether `token` was created by this launchpad.
    /// @param token The address.
    /// @return True for launchpad tokens.
    function isLaunchpadToken(address token) external view returns (bool);

    /// @notice The creator trading fees accrued to `creator` and not yet withdrawn.
    function creatorFees(address creator) external view returns (uint256);

    /// @notice The protocol trading fees accrued and not yet withdrawn.
    function protocolFees() external view returns (uint256);

    /// @notice The wrapped native token pools are seeded with.
    function wrappedNative() external view returns (address);

    /// @notice The recipient of the protocol's fees.
    function protocolFeeRecipient() external view returns (address);

    /// @notice The V2-style DEX factory registered at `index`.
    function dexes(uint256 index) external view returns (address);

    /// @notice The number of registered DEXes.
    function dexCount() external view returns (uint256);

    /// @notice The pair code hash registered with the DEX factory at `index` (the keccak256 of its pairs' creation
    /// code), from which the launchpad derives each new token's pair address.
    function dexPairCodeHash(uint256 index) external view returns (bytes32);

    // ------------------------------------------------------------------ owner

    /// @notice Registers a V2-style DEX factory at `dexIndex` (replacing it, or appending when
    /// `dexIndex == dexCount()`) with the keccak256 of its pairs' creation code, from which the launchpad derives
    /// each new token's pair address (CREATE2 of the factory, salt `keccak256(abi.encodePacked(token0, token1))`).
    /// The hash is verified against the factory: when it has pairs, `allPairs(0)` must sit at the address the hash
    /// gives for that pair's `token0()` / `token1()`; otherwise the factory must report the same hash as
    /// `INIT_CODE_PAIR_HASH()`. `PairCodeHashMismatch` when it does not match, `PairCodeHashUnverifiable` when
    /// neither check is possible. Tokens keep the pair (and factory) they were created with. Owner only.
    /// @param dexIndex The index.
    /// @param factory The factory.
    /// @param pairCodeHash The keccak256 of the factory's pair creation code.
    function setDex(uint8 dexIndex, address factory, bytes32 pairCodeHash) external;

    /// @notice Sets the protocol fee recipient. Owner only.
    /// @param recipient The new recipient.
    function setProtocolFeeRecipient(address recipient) external;
}
