import type { PoolRow } from '@dex/db';
import { encodeAbiParameters, encodeEventTopics, getAddress, pad, toEventSelector, type Address, type Hex } from 'viem';
import type { DecodeContext } from './fact';
import { launchpadGraduatedFact } from './launchpad-graduated';
import type { ChainLog } from './log';
import { referralClaimFact } from './referral-claim';
import { decodeFacts, discover, EVENTS, rowsOf, TOPICS } from './registry';
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
    const hype = 600n * 10n ** 18n;
    const raw = graduated(LAUNCHPAD, words(hype, 250_000_000n * 10n ** 6n, 12_247_448_713_915n));
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
        hypeAmount: hype,
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
