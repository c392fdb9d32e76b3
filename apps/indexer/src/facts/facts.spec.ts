import { toPoolRow, type PoolRow } from '@dex/db';
import { CHAIN_FACTS, chainEventSchemas } from '@dex/messages';
import { encodeAbiParameters, encodeEventTopics, getAddress, pad, toEventSelector, type Address, type Hex } from 'viem';
import { logKey, type DecodeContext } from './fact';
import { launchpadGraduatedFact } from './launchpad-graduated';
import { launchpadMetadataFact } from './launchpad-metadata';
import { launchpadTradeFact } from './launchpad-trade';
import { isPoolContract, poolRef, type ChainLog } from './log';
import { referralClaimFact } from './referral-claim';
import { poolConcentratedFact } from './pool-concentrated';
import { curvePairRows, poolCreatedFact, type PoolRow as DecodedPoolRow } from './pool-created';
import { poolUpdatedFact } from './pool-updated';
import { decodeFacts, discover, EVENTS, FACTS, rowsOf, TOPICS } from './registry';
import { swapFact } from './swap';
import { transferFact } from './transfer';

const A = getAddress('0x00000000000000000000000000000000000000a1');
const B = getAddress('0x00000000000000000000000000000000000000b2');
const POOL = getAddress('0x00000000000000000000000000000000000000c3');
const FACTORY = getAddress('0x00000000000000000000000000000000000000f4');
const ROUTER = getAddress('0x00000000000000000000000000000000000000f5');
const USER = getAddress('0x00000000000000000000000000000000000000d6');
const REF = ('0x' + '77'.repeat(32)) as Hex;

let logIndex = 0;
const log = (address: Address, topics: Hex[], data: Hex, blockNumber = 5n, txHash = ('0x' + '11'.repeat(32)) as Hex): ChainLog => ({
  address,
  topics,
  data,
  blockNumber,
  blockHash: ('0x' + '22'.repeat(32)) as Hex,
  txHash,
  logIndex: logIndex++,
  timestamp: 1_000n,
});
const words = (...values: bigint[]) => encodeAbiParameters(values.map(() => ({ type: 'uint256' })), values);
const topic = (address: Address) => pad(address.toLowerCase() as Hex);

const corePool: PoolRow = { address: POOL, kind: 'core', routerIndex: 0, source: 'Core', discoveredBy: null, token0: A, token1: B, stable: false, feeBps: null, createdBlock: 0n };
const ctx = (): DecodeContext => ({
  chainId: 999,
  tokens: new Set([A]),
  pools: new Map([[POOL, corePool]]),
  announcers: new Map([
    [FACTORY, { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, feeBps: 30 }],
    [ROUTER, { name: 'Core', kind: 'core', routerIndex: 0, feeBps: null }],
  ]),
  wrappedNative: null,
});

describe('decoding logs', () => {
  it('discovers pools and their new tokens from factory events', () => {
    const pair = getAddress('0x00000000000000000000000000000000000000e7');
    const found = discover([log(FACTORY, [TOPICS.v2PairCreated, topic(A), topic(B)], encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pair, 1n]))], ctx(), () => 1n);
    expect(found.pools).toEqual([expect.objectContaining({ address: pair, kind: 'uniswap-v2', routerIndex: 1, token0: A, token1: B, feeBps: 30, createdBlock: 5n })]);
    expect([...found.tokens.keys()]).toEqual([B]);
  });

  it('decodes transfers of followed tokens, core swaps with and without a referral code, and payouts', () => {
    const facts = decodeFacts(
      [
        log(A, [TOPICS.transfer, topic(USER), topic(POOL)], words(5n)),
        log(B, [TOPICS.transfer, topic(USER), topic(POOL)], words(5n)), // not followed
        log(POOL, [TOPICS.ammSwap, topic(USER), topic(A), topic(B)], words(100n, 90n, 3n)),
        log(POOL, [TOPICS.ammSwapWithRef, topic(USER), topic(B), REF], encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }], [A, 50n, 45n, 2n, 1n])),
        log(ROUTER, encodeEventTopics({ abi: [EVENTS.coreRouterRefFeesDistributed], args: { pool: POOL, refCode: REF, claimWallet: USER } } as never) as Hex[], words(4n, 6n)),
        log(POOL, [TOPICS.ammRefFeesClaimed, REF, topic(USER)], words(4n, 6n)),
        log(A, [TOPICS.transfer, topic(USER)], '0x'), // malformed: skipped
      ],
      ctx(),
      (l) => l.timestamp!,
    );
    expect(rowsOf(facts.rows, transferFact)).toEqual([expect.objectContaining({ token: A, from: USER, to: POOL, value: 5n })]);
    expect(rowsOf(facts.rows, swapFact).map((s) => [s.tokenIn, s.tokenOut, s.amountIn, s.amountOut, s.fee, s.refCode, s.refFee])).toEqual([
      [A, B, 100n, 90n, 3n, null, null],
      [B, A, 50n, 45n, 2n, REF, 1n],
    ]);
    expect(rowsOf(facts.rows, referralClaimFact)).toEqual([expect.objectContaining({ pool: POOL, refCode: REF, wallet: USER, amount0: 4n, amount1: 6n, kind: 'distribution' })]);
  });
});

describe('decoding launchpad graduations', () => {
  const LAUNCHPAD = getAddress('0x00000000000000000000000000000000000000f6');
  const TOKEN = getAddress('0x0000000000000000000000000000000000000A07');
  const PAIR = getAddress('0x00000000000000000000000000000000000000e8');
  const withLaunchpad = (): DecodeContext => {
    const c = ctx();
    return { ...c, announcers: new Map([...c.announcers, [LAUNCHPAD, { name: 'Launchpad', kind: 'launchpad', routerIndex: 4, feeBps: 100 }]]) };
  };
  const graduated = (address: Address, data: Hex) => log(address, [TOPICS.launchpadTokenGraduated, topic(TOKEN), topic(PAIR)], data);

  it('has the topic of TokenGraduated(address,address,uint256,uint256,uint256)', () => {
    expect(TOPICS.launchpadTokenGraduated).toBe(toEventSelector('TokenGraduated(address,address,uint256,uint256,uint256)'));
  });

  it('decodes TokenGraduated of the launchpad into a graduation of the token', () => {
    const native = 600n * 10n ** 18n;
    const raw = graduated(LAUNCHPAD, words(native, 250_000_000n * 10n ** 6n, 12_247_448_713_915n));
    // The same event encoded by viem from the declared ABI item decodes alike.
    const encoded = encodeEventTopics({ abi: [EVENTS.launchpadTokenGraduated], args: { token: TOKEN, pair: PAIR } } as never) as Hex[];
    expect(encoded.map((t) => t.toLowerCase())).toEqual(raw.topics.map((t) => t.toLowerCase()));
    const facts = decodeFacts([raw], withLaunchpad(), (l) => l.timestamp!);
    expect(rowsOf(facts.rows, launchpadGraduatedFact)).toEqual([
      {
        blockNumber: 5n,
        logIndex: raw.logIndex,
        txHash: raw.txHash,
        timestamp: 1_000n,
        token: TOKEN,
        pair: PAIR,
        nativeAmount: native,
        tokenAmount: 250_000_000n * 10n ** 6n,
        liquidity: 12_247_448_713_915n,
      },
    ]);
    expect(facts.malformed).toBe(0);
  });

  it('ignores the event from a contract that is not a launchpad, and skips a malformed one', () => {
    const facts = decodeFacts([graduated(FACTORY, words(1n, 2n, 3n)), graduated(LAUNCHPAD, words(1n, 2n))], withLaunchpad(), (l) => l.timestamp!);
    expect(rowsOf(facts.rows, launchpadGraduatedFact)).toEqual([]);
    expect(facts.malformed).toBe(1);
  });
});

describe('decoding the other facts', () => {
  const STABLE_FACTORY = getAddress('0x00000000000000000000000000000000000000f8');
  const LAUNCHPAD = getAddress('0x00000000000000000000000000000000000000f6');
  const WRAPPED = getAddress('0x00000000000000000000000000000000000000f7');
  const V2 = getAddress('0x00000000000000000000000000000000000000e9');
  const TOKEN = getAddress('0x0000000000000000000000000000000000000A07');
  const encode = (event: string, args: Record<string, unknown>, address: Address) => {
    const abi = EVENTS[event];
    const data = abi.inputs.filter((i) => !i.indexed);
    return log(address, encodeEventTopics({ abi: [abi], args } as never) as Hex[], data.length ? encodeAbiParameters(data, data.map((i) => args[i.name!])) : '0x');
  };
  const full = (): DecodeContext => {
    const c = ctx();
    return {
      ...c,
      tokens: new Set([A, B, WRAPPED]),
      pools: new Map([...c.pools, [V2, { ...corePool, address: V2, kind: 'uniswap-v2' }]]),
      announcers: new Map([
        ...c.announcers,
        [STABLE_FACTORY, { name: 'Stable', kind: 'stable', routerIndex: 2, feeBps: 4 }],
        [LAUNCHPAD, { name: 'Launchpad', kind: 'launchpad', routerIndex: 4, feeBps: 100 }],
      ]),
      wrappedNative: WRAPPED,
    };
  };
  const metadata = { image_uri: 'ipfs://i', description: 'd', website: 'w', twitter: 't', telegram: 'tg', discord: 'dc' };

  it('discovers stable and core pools from their announcers only, once, and not when known', () => {
    const stable = getAddress('0x00000000000000000000000000000000000000e8');
    const found = discover(
      [
        encode('stablePoolCreated', { token0: TOKEN, token1: A, stable: true, pool: stable, allPoolsLength: 1n }, STABLE_FACTORY),
        encode('stablePoolCreated', { token0: TOKEN, token1: A, stable: true, pool: stable, allPoolsLength: 1n }, STABLE_FACTORY),
        encode('coreRouterPoolAdded', { pool: POOL, token0: A, token1: B }, ROUTER), // already followed
        encode('coreRouterPoolAdded', { pool: V2, token0: A, token1: B }, FACTORY), // not the core router
      ],
      full(),
      () => 1n,
    );
    expect(found.pools).toEqual([expect.objectContaining({ address: stable, kind: 'stable', stable: true, token0: TOKEN, token1: A, routerIndex: 2, feeBps: 4, discoveredBy: STABLE_FACTORY })]);
    expect([...found.tokens]).toEqual([[TOKEN, { source: 'pool', block: 5n }]]);
    const added = getAddress('0x00000000000000000000000000000000000000ea');
    const core = discover([encode('coreRouterPoolAdded', { pool: added, token0: A, token1: B }, ROUTER)], full(), () => 1n);
    expect(core.pools).toEqual([expect.objectContaining({ address: added, kind: 'core', token0: A, token1: B, stable: false })]);
  });

  it('discovers a launch: its row, the token as the launchpad’s (even when its pair is created first), and its curve', () => {
    const pair = getAddress('0x00000000000000000000000000000000000000eb');
    const created = encode(
      'launchpadTokenCreated',
      {
        token: TOKEN,
        creator: USER,
        name: 'Launch',
        symbol: 'LCH',
        ...metadata,
        creationTimestamp: 10n,
        startingLiquidity: 1n,
        currentHypeReserves: 2n,
        currentTokenReserves: 3n,
        totalSupply: 4n,
        currentPrice: 5n,
        initialPurchaseAmount: 6n,
      },
      LAUNCHPAD,
    );
    const found = discover([encode('v2PairCreated', { token0: TOKEN, token1: WRAPPED, pair, allPairsLength: 2n }, FACTORY), created], full(), () => 77n);
    expect(found.rows.get(FACTS.find((m) => m.list === 'launchpadTokens')!)).toEqual([
      expect.objectContaining({ address: TOKEN, launchpad: LAUNCHPAD, creator: USER, name: 'Launch', imageUri: 'ipfs://i', nativeReserves: 2n, price: 5n, initialPurchaseAmount: 6n, timestamp: 77n }),
    ]);
    expect(found.pools.map((p) => [p.address, p.kind])).toEqual([
      [pair, 'uniswap-v2'],
      [TOKEN, 'launchpad'],
    ]);
    expect(found.pools[1]).toMatchObject({ token0: WRAPPED, token1: TOKEN, routerIndex: 4, discoveredBy: LAUNCHPAD });
    expect([...found.tokens]).toEqual([[TOKEN, { source: 'launchpad', block: 5n }]]);
  });

  it('keeps the last Sync of each V2 or stable pool, and decodes launchpad trades and metadata', () => {
    const facts = decodeFacts(
      [
        encode('v2Sync', { reserve0: 1n, reserve1: 2n }, V2),
        encode('v2Sync', { reserve0: 1n, reserve1: 2n }, POOL), // a core pool: its reserves are not synced
        encode('v2Sync', { reserve0: 3n, reserve1: 4n }, V2),
        encode('launchpadTokensPurchased', { token: TOKEN, buyer: USER, hypeIn: 10n, tokensOut: 11n, price: 12n, timestamp: 0n, hypeReserves: 13n, tokenReserves: 14n, totalSupply: 15n, name: 'n', symbol: 's' }, LAUNCHPAD),
        encode('launchpadTokensSold', { token: TOKEN, seller: A, tokensIn: 20n, hypeOut: 21n, price: 22n, timestamp: 0n, hypeReserves: 23n, tokenReserves: 24n, totalSupply: 25n, name: 'n', symbol: 's' }, LAUNCHPAD),
        encode('launchpadTokenMetadataUpdated', { token: TOKEN, creator: USER, name: 'n', symbol: 's', ...metadata, timestamp: 0n }, LAUNCHPAD),
        encode('launchpadTokenMetadataUpdated', { token: TOKEN, creator: USER, name: 'n', symbol: 's', ...metadata, timestamp: 0n }, FACTORY), // not a launchpad
      ],
      full(),
      (l) => l.timestamp!,
    );
    expect(rowsOf(facts.rows, poolUpdatedFact).map(({ log: l, ...r }) => ({ ...r, at: l.logIndex }))).toEqual([{ pool: V2, reserve0: 3n, reserve1: 4n, blockNumber: 5n, at: logIndex - 5 }]);
    expect(rowsOf(facts.rows, launchpadTradeFact).map((t) => [t.side, t.trader, t.nativeAmount, t.tokenAmount, t.price, t.nativeReserves, t.tokenReserves, t.totalSupply])).toEqual([
      ['buy', USER, 10n, 11n, 12n, 13n, 14n, 15n],
      ['sell', A, 21n, 20n, 22n, 23n, 24n, 25n],
    ]);
    expect(rowsOf(facts.rows, launchpadMetadataFact)).toEqual([
      expect.objectContaining({ token: TOKEN, creator: USER, imageUri: 'ipfs://i', description: 'd', website: 'w', twitter: 't', telegram: 'tg', discord: 'dc' }),
    ]);
    expect(facts.malformed).toBe(0);
  });
});

describe('concentrated pools', () => {
  const V3 = getAddress('0x00000000000000000000000000000000000000e8');
  const ALGEBRA = getAddress('0x00000000000000000000000000000000000000e9');
  const V3_FACTORY = getAddress('0x00000000000000000000000000000000000000fa');
  const ALGEBRA_FACTORY = getAddress('0x00000000000000000000000000000000000000fb');
  /** A log of the module's event `name` with `args`, encoded by viem from the event's ABI item. */
  const eventLog = (address: Address, name: string, args: Record<string, unknown>): ChainLog => {
    const event = EVENTS[name];
    const data = event.inputs.filter((i) => !i.indexed);
    return log(
      address,
      encodeEventTopics({ abi: [event], args } as never) as Hex[],
      data.length ? encodeAbiParameters(data, data.map((i) => args[i.name!])) : '0x',
    );
  };
  const clCtx = (): DecodeContext => ({
    ...ctx(),
    announcers: new Map([
      [V3_FACTORY, { name: 'V3', kind: 'uniswap-v3', routerIndex: 5, feeBps: null }],
      [ALGEBRA_FACTORY, { name: 'Algebra', kind: 'algebra', routerIndex: 6, feeBps: null }],
    ]),
  });

  it('discovers V3 pools with their fee and tick spacing, and Algebra pools', () => {
    const found = discover(
      [
        eventLog(V3_FACTORY, 'v3PoolCreated', { token0: A, token1: B, fee: 500, tickSpacing: 10, pool: V3 }),
        eventLog(ALGEBRA_FACTORY, 'algebraPool', { token0: A, token1: B, pool: ALGEBRA }),
        // A V3 PoolCreated from the Algebra factory is not its source's event.
        eventLog(ALGEBRA_FACTORY, 'v3PoolCreated', { token0: A, token1: B, fee: 500, tickSpacing: 10, pool: POOL }),
      ],
      clCtx(),
      () => 1n,
    );
    expect(found.pools).toEqual([
      expect.objectContaining({ address: V3, kind: 'uniswap-v3', routerIndex: 5, token0: A, token1: B, fee: 500, tickSpacing: 10 }),
      expect.objectContaining({ address: ALGEBRA, kind: 'algebra', routerIndex: 6, token0: A, token1: B }),
    ]);
  });

  it('decodes every event of the pools, negative ticks and amounts included, in chain order', () => {
    const pool = (address: Address, kind: 'uniswap-v3' | 'algebra'): [Address, PoolRow] => [address, { ...corePool, address, kind }];
    const context = { ...clCtx(), pools: new Map([pool(V3, 'uniswap-v3'), pool(ALGEBRA, 'algebra')]) };
    const logs = [
      eventLog(V3, 'clInitialize', { sqrtPriceX96: 2n ** 96n, tick: -3 }),
      eventLog(V3, 'clMint', { sender: USER, owner: USER, tickLower: -120, tickUpper: 60, amount: 10n ** 18n, amount0: 5n, amount1: 6n }),
      eventLog(V3, 'clSwap', { sender: USER, recipient: USER, amount0: -7n, amount1: 9n, sqrtPriceX96: 2n ** 96n + 1n, liquidity: 10n ** 18n, tick: -1 }),
      eventLog(V3, 'clBurn', { owner: USER, tickLower: -120, tickUpper: 60, amount: 0n, amount0: 0n, amount1: 0n }),
      // Algebra's own events count on Algebra pools only.
      eventLog(V3, 'algebraFee', { fee: 100 }),
      eventLog(ALGEBRA, 'algebraFee', { fee: 2500 }),
      eventLog(ALGEBRA, 'algebraTickSpacing', { newTickSpacing: 60 }),
      // Not a followed concentrated pool.
      eventLog(POOL, 'clInitialize', { sqrtPriceX96: 2n ** 96n, tick: 0 }),
    ];
    const rows = rowsOf(decodeFacts(logs, context, () => 1_000n).rows, poolConcentratedFact);
    expect(rows.map(({ blockNumber: _b, logIndex: _l, txHash: _t, timestamp: _ts, ...r }) => r)).toEqual([
      { pool: V3, event: 'initialize', sqrtPriceX96: 2n ** 96n, tick: -3 },
      { pool: V3, event: 'mint', owner: USER, tickLower: -120, tickUpper: 60, liquidity: 10n ** 18n, amount0: 5n, amount1: 6n },
      { pool: V3, event: 'swap', amount0: -7n, amount1: 9n, sqrtPriceX96: 2n ** 96n + 1n, liquidity: 10n ** 18n, tick: -1 },
      { pool: V3, event: 'burn', owner: USER, tickLower: -120, tickUpper: 60, liquidity: 0n, amount0: 0n, amount1: 0n },
      { pool: ALGEBRA, event: 'fee', fee: 2500 },
      { pool: ALGEBRA, event: 'tickSpacing', tickSpacing: 60 },
    ]);
    expect(rows.map((r) => r.logIndex)).toEqual([...rows.map((r) => r.logIndex)].sort((a, b) => a - b));
  });
});

describe('Uniswap V4 pools', () => {
  const MANAGER = getAddress('0x00000000000000000000000000000000000000fc');
  const OTHER_MANAGER = getAddress('0x00000000000000000000000000000000000000fd');
  /** The chain's wrapped native token: it sorts above B, so a native pool's token0 sorts above its token1. */
  const WRAPPED = getAddress('0x00000000000000000000000000000000000000fe');
  const NATIVE = getAddress('0x0000000000000000000000000000000000000000');
  const ID = ('0x' + 'ab'.repeat(32)) as Hex;
  const OTHER_ID = ('0x' + 'cd'.repeat(32)) as Hex;
  const NO_HOOK = NATIVE;
  const eventLog = (address: Address, name: string, args: Record<string, unknown>): ChainLog => {
    const event = EVENTS[name];
    const data = event.inputs.filter((i) => !i.indexed);
    return log(address, encodeEventTopics({ abi: [event], args } as never) as Hex[], encodeAbiParameters(data, data.map((i) => args[i.name!])));
  };
  const initialize = (id: Hex, currency0: Address, currency1: Address, manager = MANAGER) =>
    eventLog(manager, 'v4Initialize', { id, currency0, currency1, fee: 0x800000, tickSpacing: 60, hooks: NO_HOOK, sqrtPriceX96: 2n ** 96n, tick: -1 });
  const v4Ctx = (wrappedNative: Address | null = WRAPPED): DecodeContext => ({
    ...ctx(),
    wrappedNative,
    announcers: new Map([
      [MANAGER, { name: 'V4', kind: 'uniswap-v4', routerIndex: 9, feeBps: null }],
      [OTHER_MANAGER, { name: 'V3', kind: 'uniswap-v3', routerIndex: 5, feeBps: null }],
    ]),
  });

  it("discovers a pool from its PoolManager's Initialize: its PoolId, its key, the native coin as the wrapped token in the key's order", () => {
    const found = discover([initialize(ID, NATIVE, B), initialize(OTHER_ID, A, B, OTHER_MANAGER)], v4Ctx(), () => 1n);
    expect(found.pools).toEqual([
      {
        address: ID,
        kind: 'uniswap-v4',
        routerIndex: 9,
        source: 'V4',
        discoveredBy: MANAGER,
        token0: WRAPPED,
        token1: B,
        stable: false,
        feeBps: null,
        createdBlock: 5n,
        fee: 0x800000,
        tickSpacing: 60,
        uniswapV4: { poolManager: MANAGER, currency0: NATIVE, currency1: B, hooks: NO_HOOK, sqrtPriceX96: 2n ** 96n, tick: -1 },
      },
    ]);
    expect(BigInt(found.pools[0].token0)).toBeGreaterThan(BigInt(found.pools[0].token1));
    // A is followed already; the wrapped native token is new.
    expect([...found.tokens.keys()]).toEqual([WRAPPED, B]);
    // Without a wrapped native token the native coin stays address(0), not a token to follow.
    const bare = discover([initialize(ID, NATIVE, B)], v4Ctx(null), () => 1n);
    expect(bare.pools[0]).toMatchObject({ token0: NATIVE, token1: B });
    expect([...bare.tokens.keys()]).toEqual([B]);
    // Known already: not announced again.
    expect(discover([initialize(ID, NATIVE, B)], { ...v4Ctx(), pools: new Map([[ID as Address, found.pools[0]]]) }, () => 1n).pools).toEqual([]);
  });

  it('decodes the events of its pools from their own PoolManager, by PoolId, negative amounts, ticks and deltas included', () => {
    const found = discover([initialize(ID, NATIVE, B)], v4Ctx(), () => 1n).pools[0];
    const context = { ...v4Ctx(), pools: new Map<Address, PoolRow>([[ID as Address, found]]) };
    const salt = ('0x' + '0f'.repeat(32)) as Hex;
    const logs = [
      eventLog(MANAGER, 'v4ModifyLiquidity', { id: ID, sender: USER, tickLower: -120, tickUpper: 60, liquidityDelta: -(10n ** 18n), salt }),
      eventLog(MANAGER, 'v4Swap', { id: ID, sender: USER, amount0: -7n, amount1: 9n, sqrtPriceX96: 2n ** 96n + 1n, liquidity: 10n ** 18n, tick: -887_000, fee: 3_000 }),
      eventLog(MANAGER, 'v4Donate', { id: ID, sender: USER, amount0: 5n, amount1: 0n }),
      eventLog(MANAGER, 'v4ProtocolFeeUpdated', { id: ID, protocolFee: 1000 | (250 << 12) }),
      // A pool the indexer does not follow; the same id from another contract.
      eventLog(MANAGER, 'v4Donate', { id: OTHER_ID, sender: USER, amount0: 5n, amount1: 0n }),
      eventLog(OTHER_MANAGER, 'v4Donate', { id: ID, sender: USER, amount0: 5n, amount1: 0n }),
    ];
    const rows = rowsOf(decodeFacts(logs, context, () => 1_000n).rows, poolConcentratedFact);
    expect(rows.map(({ blockNumber: _b, logIndex: _l, txHash: _t, timestamp: _ts, ...r }) => r)).toEqual([
      { pool: ID, event: 'modifyLiquidity', sender: USER, tickLower: -120, tickUpper: 60, liquidityDelta: -(10n ** 18n), salt },
      { pool: ID, event: 'swap', sender: USER, amount0: -7n, amount1: 9n, sqrtPriceX96: 2n ** 96n + 1n, liquidity: 10n ** 18n, tick: -887_000, fee: 3_000 },
      { pool: ID, event: 'donate', sender: USER, amount0: 5n, amount1: 0n },
      { pool: ID, event: 'protocolFee', protocolFee: 1000 | (250 << 12) },
    ]);
    // Published as pool.concentrated facts of the pool's id, which the schema takes.
    for (const row of rows) {
      const { blockNumber, payload } = poolConcentratedFact.message!(row, row, { last: { number: 5n, hash: '0x' + '22'.repeat(32), parentHash: '0x' + '21'.repeat(32), timestamp: 1n } });
      const message = { chainId: 999, blockNumber: blockNumber.toString(), blockHash: '0x' + '22'.repeat(32), ...payload };
      expect(chainEventSchemas[CHAIN_FACTS.poolConcentrated].parse(message)).toMatchObject({ address: ID, event: row.event });
    }
  });

  it('publishes the pool-created fact with the PoolId, the key and the first price', () => {
    const found = discover([initialize(ID, NATIVE, B)], v4Ctx(), () => 1n).pools[0];
    const { blockNumber, payload } = poolCreatedFact.message!(toPoolRow(found), found, { last: { number: 5n, hash: '0x' + '22'.repeat(32), parentHash: '0x' + '21'.repeat(32), timestamp: 1n } });
    const parsed = chainEventSchemas[CHAIN_FACTS.poolCreated].parse({ chainId: 999, blockNumber: blockNumber.toString(), blockHash: '0x' + '22'.repeat(32), ...payload });
    expect(parsed).toMatchObject({ address: ID, kind: 'uniswap-v4', routerIndex: 9, token0: WRAPPED, token1: B, fee: 0x800000, tickSpacing: 60, poolManager: MANAGER, currency0: NATIVE, currency1: B, hooks: NO_HOOK, sqrtPriceX96: (2n ** 96n).toString(), tick: -1 });
  });
});

describe('Curve NG pools', () => {
  const NG = getAddress('0x00000000000000000000000000000000000000f8');
  const TWO = getAddress('0x00000000000000000000000000000000000000f9');
  const C = getAddress('0x00000000000000000000000000000000000000cc');
  // Pools with letters in their addresses: the pair ids are in lower case, the pools checksummed.
  const POOL2 = getAddress('0xabcdef0000000000000000000000000000000002');
  const POOL3 = getAddress('0xabcdef0000000000000000000000000000000003');
  const CRYPTO = getAddress('0xabcdef00000000000000000000000000000000c2');
  const last = { number: 5n, hash: '0x' + '22'.repeat(32), parentHash: '0x' + '21'.repeat(32), timestamp: 1n };
  const eventLog = (address: Address, name: string, args: Record<string, unknown>): ChainLog => {
    const event = EVENTS[name];
    const data = event.inputs.filter((i) => !i.indexed);
    return log(address, encodeEventTopics({ abi: [event], args } as never) as Hex[], encodeAbiParameters(data, data.map((i) => args[i.name!])));
  };
  const plain = (coins: Address[], address = NG) => eventLog(address, 'curvePlainPoolDeployed', { coins, A: 200n, fee: 4_000_000n, deployer: USER });
  const meta = () => eventLog(NG, 'curveMetaPoolDeployed', { coin: C, base_pool: POOL3, A: 200n, fee: 4_000_000n, deployer: USER });
  const twocrypto = (pool: Address, coins: [Address, Address]) =>
    eventLog(TWO, 'curveTwocryptoPoolDeployed', {
      pool,
      name: 'Curve TwoCrypto',
      symbol: 'crv2',
      coins,
      math: FACTORY,
      salt: '0x' + '33'.repeat(32),
      precisions: [1n, 10n ** 12n],
      packed_A_gamma: 1n,
      packed_fee_params: 2n,
      packed_rebalancing_params: 3n,
      packed_prices: 10n ** 18n,
      deployer: USER,
    });
  const curveCtx = (deployments: [ChainLog, Address][] = []): DecodeContext => ({
    ...ctx(),
    announcers: new Map([
      [NG, { name: 'Curve NG', kind: 'curve-stableswap-ng', routerIndex: 10, feeBps: null }],
      [TWO, { name: 'Curve Twocrypto', kind: 'curve-twocrypto-ng', routerIndex: 11, feeBps: null }],
      [FACTORY, { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, feeBps: 30 }],
    ]),
    curveDeployments: new Map(deployments.map(([l, pool]) => [logKey(l), pool])),
  });
  const pair = (pool: Address, i: number, j: number) => `${pool.toLowerCase()}:${i}:${j}`;
  const payloadOf = (row: DecodedPoolRow) => {
    const { blockNumber, payload } = poolCreatedFact.message!(toPoolRow(row), row, { last });
    return chainEventSchemas[CHAIN_FACTS.poolCreated].parse({ chainId: 999, blockNumber: blockNumber.toString(), blockHash: last.hash, ...payload });
  };

  it('has the topics of the NG factories’ events', () => {
    expect(TOPICS.curvePlainPoolDeployed).toBe(toEventSelector('PlainPoolDeployed(address[],uint256,uint256,address)'));
    expect(TOPICS.curveMetaPoolDeployed).toBe(toEventSelector('MetaPoolDeployed(address,address,uint256,uint256,address)'));
    expect(TOPICS.curveTwocryptoPoolDeployed).toBe(
      toEventSelector('TwocryptoPoolDeployed(address,string,string,address[2],address,bytes32,uint256[2],uint256,uint256,uint256,uint256,address)'),
    );
  });

  it('discovers the pools of two PlainPoolDeployed of one block as their coin pairs i < j, in the pools’ coin order, from the pools read for the logs', () => {
    const two = plain([B, A]);
    const three = plain([A, C, B]);
    const unread = plain([A, B]);
    const found = discover([two, meta(), three, unread, plain([A, C], FACTORY)], curveCtx([[two, POOL2], [three, POOL3]]), () => 1n);
    const base = { kind: 'curve-stableswap-ng', routerIndex: 10, source: 'Curve NG', discoveredBy: NG, stable: true, feeBps: null, createdBlock: 5n };
    expect(found.pools).toEqual([
      { ...base, address: pair(POOL2, 0, 1), token0: B, token1: A, curve: { pool: POOL2, i: 0, j: 1, nCoins: 2, coins: [B, A] } },
      { ...base, address: pair(POOL3, 0, 1), token0: A, token1: C, curve: { pool: POOL3, i: 0, j: 1, nCoins: 3, coins: [A, C, B] } },
      { ...base, address: pair(POOL3, 0, 2), token0: A, token1: B, curve: { pool: POOL3, i: 0, j: 2, nCoins: 3, coins: [A, C, B] } },
      { ...base, address: pair(POOL3, 1, 2), token0: C, token1: B, curve: { pool: POOL3, i: 1, j: 2, nCoins: 3, coins: [A, C, B] } },
    ]);
    // A is followed already.
    expect([...found.tokens.keys()]).toEqual([B, C]);
    // Published with the pool (checksummed), the coins' indexes and the coin count.
    expect(payloadOf(found.pools[3] as DecodedPoolRow)).toEqual({
      chainId: 999,
      blockNumber: '5',
      blockHash: last.hash,
      timestamp: 1,
      address: pair(POOL3, 1, 2),
      kind: 'curve-stableswap-ng',
      routerIndex: 10,
      token0: C,
      token1: B,
      stable: true,
      pool: POOL3,
      i: 1,
      j: 2,
      nCoins: 3,
    });
    // Known pairs (by their pair ids, whatever the case they come in) are not announced again; the others are.
    expect(poolRef(pair(POOL3, 0, 2).toUpperCase().replace('0X', '0x'))).toBe(pair(POOL3, 0, 2));
    expect([isPoolContract(pair(POOL3, 0, 2)), isPoolContract(POOL3), isPoolContract(('0x' + 'ab'.repeat(32)) as Hex)]).toEqual([false, true, false]);
    const known = { ...curveCtx([[three, POOL3]]), pools: new Map(found.pools.slice(1, 3).map((p) => [poolRef(p.address), p])) };
    expect(discover([three], known, () => 1n).pools.map((p) => p.address)).toEqual([pair(POOL3, 1, 2)]);
  });

  it('discovers a TwocryptoPoolDeployed’s pool from the event itself: one pair, not stable', () => {
    const found = discover([twocrypto(CRYPTO, [C, A])], curveCtx(), () => 1n);
    expect(found.pools).toEqual([
      {
        address: pair(CRYPTO, 0, 1),
        kind: 'curve-twocrypto-ng',
        routerIndex: 11,
        source: 'Curve Twocrypto',
        discoveredBy: TWO,
        token0: C,
        token1: A,
        stable: false,
        feeBps: null,
        createdBlock: 5n,
        curve: { pool: CRYPTO, i: 0, j: 1, nCoins: 2, coins: [C, A] },
      },
    ]);
    expect(payloadOf(found.pools[0] as DecodedPoolRow)).toMatchObject({ address: pair(CRYPTO, 0, 1), kind: 'curve-twocrypto-ng', stable: false, pool: CRYPTO, i: 0, j: 1, nCoins: 2 });
    // Not from a factory of another kind.
    expect(discover([twocrypto(CRYPTO, [C, A])], { ...curveCtx(), announcers: new Map([[TWO, { name: 'S', kind: 'curve-stableswap-ng', routerIndex: 10, feeBps: null }]]) }, () => 1n).pools).toEqual([]);
  });

  it('adds the pools read from a factory after those the logs announce, keeping the logs’ own', () => {
    const source = { name: 'Curve NG', kind: 'curve-stableswap-ng', routerIndex: 10, feeBps: null } as const;
    const three = plain([A, C, B]);
    const read = [...curvePairRows(POOL2, [B, A], source, { address: NG, blockNumber: 9n }), ...curvePairRows(POOL3, [A, C, B], source, { address: NG, blockNumber: 9n })];
    const found = discover([three], curveCtx([[three, POOL3]]), () => 1n, read);
    expect(found.pools.map((p) => [p.address, p.createdBlock])).toEqual([
      [pair(POOL3, 0, 1), 5n],
      [pair(POOL3, 0, 2), 5n],
      [pair(POOL3, 1, 2), 5n],
      [pair(POOL2, 0, 1), 9n],
    ]);
    expect(() => curvePairRows(POOL2, [A], source, { address: NG, blockNumber: 9n })).toThrow();
  });
});
