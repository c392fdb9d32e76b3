import type { PoolRow, TokenRow } from '@dex/db';
import { CHAIN_FACTS, chainEventSchemas, chainFactSubject, type ChainFact, type SourceKind } from '@dex/messages';
import { encodeAbiParameters, encodeEventTopics, getAddress, type AbiEvent, type Address, type Hex } from 'viem';
import type { AnyFact, DecodeContext } from './fact';
import type { ChainLog } from './log';
import { ALL_TOPICS, FACTS, outboxEvents, storeRows } from './registry';

const EMITTER = getAddress('0x00000000000000000000000000000000000000e1');
const OTHER = getAddress('0x00000000000000000000000000000000000000a2');
const last = { number: 9n, hash: '0x' + '22'.repeat(32), parentHash: '0x' + '21'.repeat(32), timestamp: 1_000n };

/** Facts that do not come from a log: the batch's block, a reorg, a token's metadata read from the token. */
const NOT_FROM_LOGS: ChainFact[] = [CHAIN_FACTS.block, CHAIN_FACTS.reorg, CHAIN_FACTS.tokenCreated];

/** A log of `event` from EMITTER with a plausible value for every argument (an array of addresses: OTHER and EMITTER). */
function sampleLog(event: AbiEvent): ChainLog {
  const value = (type: string): unknown => {
    const array = /^(.+)\[(\d*)\]$/.exec(type);
    if (array) return array[1] === 'address' ? [OTHER, EMITTER] : [value(array[1]), value(array[1])];
    return type === 'address' ? OTHER : type === 'bool' ? true : type === 'string' ? 'text' : type === 'bytes32' ? '0x' + '77'.repeat(32) : 7n;
  };
  const args = Object.fromEntries(event.inputs.map((i) => [i.name!, value(i.type)]));
  const data = event.inputs.filter((i) => !i.indexed);
  return {
    address: EMITTER,
    topics: encodeEventTopics({ abi: [event], args } as never) as Hex[],
    data: data.length ? encodeAbiParameters(data, data.map((i) => args[i.name!])) : '0x',
    blockNumber: 9n,
    blockHash: last.hash as Hex,
    txHash: ('0x' + '11'.repeat(32)) as Hex,
    logIndex: 3,
    timestamp: 1_000n,
  };
}

/** The V4 pool of the sample logs: their bytes32 arguments (the PoolId, the first indexed one) are all this. */
const SAMPLE_ID = ('0x' + '77'.repeat(32)) as Address;

/** The pool a sample PlainPoolDeployed log (block 9, log 3) deployed, as read from its factory. */
const SAMPLE_CURVE_POOL = getAddress('0x00000000000000000000000000000000000000c8');

/**
 * EMITTER as a followed token, a pool and an announcer of one kind of source; for `uniswap-v4`, EMITTER is the
 * PoolManager of the sample logs' pool; for the Curve kinds, EMITTER is the factory.
 */
const contextOf = (kind: SourceKind): DecodeContext => ({
  chainId: 999,
  tokens: new Set<Address>([EMITTER]),
  pools: new Map<Address, PoolRow>([
    [EMITTER, { address: EMITTER, kind, routerIndex: 0, source: 'S', discoveredBy: null, token0: OTHER, token1: EMITTER, stable: false, feeBps: null, createdBlock: 0n }],
    ...(kind === 'uniswap-v4'
      ? ([[SAMPLE_ID, { address: SAMPLE_ID, kind, routerIndex: 0, source: 'S', discoveredBy: EMITTER, token0: OTHER, token1: EMITTER, stable: false, feeBps: null, createdBlock: 0n }]] as const)
      : []),
  ]),
  announcers: new Map([[EMITTER, { name: 'S', kind, routerIndex: 0, feeBps: 30 }]]),
  wrappedNative: getAddress('0x00000000000000000000000000000000000000f7'),
  curveDeployments: new Map([['9:3', SAMPLE_CURVE_POOL]]),
});
const KINDS: SourceKind[] = ['uniswap-v2', 'stable', 'core', 'launchpad', 'uniswap-v3', 'algebra', 'uniswap-v4', 'curve-stableswap-ng', 'curve-twocrypto-ng'];

const tokenSample: TokenRow = {
  address: OTHER,
  name: 'Token',
  symbol: 'TKN',
  decimals: 18,
  totalSupply: 1n,
  isERC20Verified: true,
  verificationError: null,
  source: 'pool',
  firstSeenBlock: 9n,
};

/** A row of each of the module's events, decoded from a sample log by the module itself. */
function sampleRows(module: AnyFact): unknown[] {
  if (module.stage === 'node') return [tokenSample];
  return module.events.map((event) => {
    const log = sampleLog(event.abi);
    for (const kind of KINDS) {
      const ctx = contextOf(kind);
      const row = module.decode!(log, ctx, { blockNumber: 9n, logIndex: 3, txHash: log.txHash, timestamp: 1_000n }, module.scan?.([log], ctx));
      if (row !== undefined) return row;
    }
    throw new Error(`${module.name}: no context decodes a sample ${event.name}`);
  });
}

describe('the fact registry', () => {
  it('has exactly one module for every fact that comes from a log, with the events it decodes', () => {
    for (const fact of Object.values(CHAIN_FACTS)) {
      const modules = FACTS.filter((m) => m.fact === fact);
      if (fact === CHAIN_FACTS.block || fact === CHAIN_FACTS.reorg) {
        expect(modules).toEqual([]);
        continue;
      }
      expect({ fact, modules: modules.length }).toEqual({ fact, modules: 1 });
      const fromLogs = !NOT_FROM_LOGS.includes(fact);
      expect({ fact, fromLogs: modules[0].stage !== 'node' && modules[0].events.length > 0 && !!modules[0].decode }).toEqual({ fact, fromLogs });
    }
  });

  it('gives every event one module: topics and names are unique, and every topic is asked for', () => {
    const events = FACTS.flatMap((m) => [...m.events, ...(m.context ?? [])]);
    expect(new Set(events.map((e) => e.topic)).size).toBe(events.length);
    expect(new Set(events.map((e) => e.name)).size).toBe(events.length);
    expect([...ALL_TOPICS].sort()).toEqual(events.map((e) => e.topic).sort());
    for (const e of events) expect(e.topic).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('writes each list of the batch from exactly one module', () => {
    const lists = FACTS.map((m) => m.list);
    expect(new Set(lists).size).toBe(lists.length);
    expect([...lists].sort()).toEqual(['concentrated', 'launchpadGraduations', 'launchpadMetadata', 'launchpadTokens', 'launchpadTrades', 'pools', 'referralClaims', 'reserves', 'swaps', 'tokens', 'transfers']);
  });

  it('publishes in the order consumers rely on, the block last', () => {
    const order: ChainFact[] = [
      CHAIN_FACTS.poolCreated,
      CHAIN_FACTS.tokenCreated,
      CHAIN_FACTS.poolUpdated,
      CHAIN_FACTS.poolConcentrated,
      CHAIN_FACTS.swap,
      CHAIN_FACTS.referralClaimed,
      CHAIN_FACTS.launchpadTokenCreated,
      CHAIN_FACTS.launchpadTrade,
      CHAIN_FACTS.launchpadMetadataUpdated,
      CHAIN_FACTS.launchpadTokenGraduated,
    ];
    expect(FACTS.filter((m) => m.fact).map((m) => m.fact)).toEqual(order);
    const decoded = new Map(FACTS.filter((m) => m.stage !== 'node').map((m) => [m, sampleRows(m)]));
    const { facts } = storeRows(decoded, { tokens: [tokenSample] }, { senders: new Map() });
    const subjects = outboxEvents(facts, { chainId: 999, last, hashOf: () => last.hash }).map((e) => e.subject);
    expect(subjects[subjects.length - 1]).toBe(chainFactSubject(999, CHAIN_FACTS.block));
    expect([...new Set(subjects)]).toEqual([...order, CHAIN_FACTS.block].map((fact) => chainFactSubject(999, fact)));
  });

  it.each(FACTS.map((m) => [m.name, m] as const))('%s: a sample row decodes, is stored and its payload passes the fact schema', (_name, module) => {
    const rows = sampleRows(module);
    expect(rows.length).toBeGreaterThan(0);
    if (!module.fact) {
      expect(module.message).toBeUndefined();
      return;
    }
    for (const row of rows) {
      const stored = module.store ? module.store(row, { senders: new Map([['0x' + '11'.repeat(32), OTHER]]) }) : row;
      const { blockNumber, id, payload } = module.message!(stored as never, row, { last });
      expect(id).not.toBe('');
      const message = { chainId: 999, blockNumber: blockNumber.toString(), blockHash: last.hash, ...payload };
      expect(chainEventSchemas[module.fact].safeParse(message)).toMatchObject({ success: true });
    }
  });
});
