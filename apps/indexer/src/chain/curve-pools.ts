// What the discovery of Curve NG pools reads from the node (the decode itself stays pure: pool-created.ts takes what is
// read here through the DecodeContext and `discover`'s `read` pools).
//
// - A StableswapNG factory's PlainPoolDeployed names no pool: the pool is the factory's `pool_list(k)`, k its index.
//   Every entry of `pool_list` comes with a PlainPoolDeployed or MetaPoolDeployed log of the factory, so with
//   `pool_count()` read at the batch's last block, the k-th of the factory's m deployment logs of the batch (in chain
//   order) deployed `pool_list(pool_count - (m - k))`: the count less the deployments logged after it, less one. Per
//   batch with such logs: one multicall of `pool_count` (every factory), one of `pool_list` (every plain pool).
// - A Curve factory followed for the first time (no pool of it known) may have pools from before the batch: all of them
//   are read at the batch's last block (`pool_count`, `pool_list(k)`, `get_coins(pool)`: three calls per factory, once)
//   and announced with that block as their created block; those the batch's logs announce keep their own block.
//   A factory deployed within the batch (its `deploymentBlock`) or a batch from block 0 needs no read.
// - A node that no longer keeps the state of the batch's last block (one keeping only recent blocks', while the indexer
//   catches up) refuses these reads: they are made at its newest block instead. There a PlainPoolDeployed's pool is the
//   first entry of `pool_list`, after the one the factory's log before it deployed, that the indexer does not follow yet
//   and whose coins are the log's (entries are appended in deployment order); pools read whole are created at the
//   batch's last block all the same.
import { readCurveFactoryPools, readCurvePoolCounts, readCurvePoolList, type ChainPublicClient, type CurvePoolFlavor } from '@dex/chain';
import { isCurveKind, type CurveKind } from '@dex/messages';
import type { PoolRow } from '@dex/db';
import type { Address } from 'viem';
import { checksum, curveMetaPoolDeployedEvent, curvePairRows, curvePlainPoolDeployedEvent, decodeArgs, logKey, type ChainLog, type DecodedPoolRow } from '../facts';
import type { SourceRef } from './watch-list';

const FLAVOR: Readonly<Record<CurveKind, CurvePoolFlavor>> = { 'curve-stableswap-ng': 'stableswap-ng', 'curve-twocrypto-ng': 'twocrypto-ng' };

const PLAIN = curvePlainPoolDeployedEvent.topic;
const META = curveMetaPoolDeployedEvent.topic;
const topicOf = (log: ChainLog) => log.topics[0]?.toLowerCase();

/**
 * The pool of each PlainPoolDeployed log of a StableswapNG factory among `logs` (every log of the batch's factories,
 * in chain order), read at `blockNumber` (the batch's last block), by the log's `logKey`. Throws when the factory's
 * count does not account for its logs or a `pool_list` entry is empty (the chain moved under the batch).
 */
export async function readCurveDeployments(
  client: ChainPublicClient,
  params: {
    readonly logs: readonly ChainLog[];
    readonly announcers: ReadonlyMap<Address, SourceRef>;
    readonly blockNumber: bigint;
    /** Whether the indexer follows a pool already (for the read at the newest block). */
    readonly known?: (pool: Address) => boolean;
  },
): Promise<Map<string, Address>> {
  const byFactory = new Map<Address, ChainLog[]>();
  for (const log of params.logs) {
    const topic = topicOf(log);
    if ((topic !== PLAIN && topic !== META) || params.announcers.get(log.address)?.kind !== 'curve-stableswap-ng') continue;
    const list = byFactory.get(log.address);
    if (list) list.push(log);
    else byFactory.set(log.address, [log]);
  }
  const factories = [...byFactory].filter(([, logs]) => logs.some((l) => topicOf(l) === PLAIN)).map(([factory]) => factory);
  if (factories.length === 0) return new Map();
  for (const logs of byFactory.values()) logs.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
  const counts = await readCurvePoolCounts(client, { factories, blockNumber: params.blockNumber }).catch(() => undefined);
  if (!counts) return deploymentsAtNewest(client, factories, byFactory, params.known ?? (() => false));
  const entries: { factory: Address; index: number; key: string }[] = [];
  factories.forEach((factory, n) => {
    const deployed = byFactory.get(factory)!;
    deployed.forEach((log, k) => {
      const index = counts[n] - (deployed.length - k);
      if (index < 0) throw new Error(`Curve factory ${factory}: pool_count ${counts[n]} at block ${params.blockNumber} is below its ${deployed.length} deployments logged`);
      if (topicOf(log) === PLAIN) entries.push({ factory, index, key: logKey(log) });
    });
  });
  const pools = await readCurvePoolList(client, { entries, blockNumber: params.blockNumber });
  return new Map(
    entries.map((e, k) => {
      if (BigInt(pools[k]) === 0n) throw new Error(`Curve factory ${e.factory}: pool_list(${e.index}) is empty at block ${params.blockNumber}`);
      return [e.key, checksum(pools[k])];
    }),
  );
}

/**
 * The pools of the PlainPoolDeployed logs, read at the node's newest block (see the module note): each factory's
 * `pool_list` whole with every pool's coins, each log matched in chain order to the first entry after the last matched
 * that the indexer does not follow and whose coins are the log's. Throws for a log no entry matches.
 */
async function deploymentsAtNewest(client: ChainPublicClient, factories: readonly Address[], byFactory: ReadonlyMap<Address, ChainLog[]>, known: (pool: Address) => boolean): Promise<Map<string, Address>> {
  const found = new Map<string, Address>();
  for (const factory of factories) {
    const pools = await readCurveFactoryPools(client, { factory, flavor: 'stableswap-ng' });
    let next = 0;
    for (const log of byFactory.get(factory)!.filter((l) => topicOf(l) === PLAIN)) {
      const { coins } = decodeArgs(curvePlainPoolDeployedEvent.abi, log) as { coins: readonly Address[] };
      const same = (theirs: readonly Address[]) => theirs.length === coins.length && theirs.every((c, i) => c.toLowerCase() === coins[i].toLowerCase());
      let at = next;
      while (at < pools.length && (known(pools[at].address) || !same(pools[at].coins))) at++;
      if (at >= pools.length) throw new Error(`Curve factory ${factory}: no pool of pool_list matches the deployment of block ${log.blockNumber}, log ${log.logIndex}`);
      found.set(logKey(log), checksum(pools[at].address));
      next = at + 1;
    }
  }
  return found;
}

/** A Curve factory followed for the first time in a batch: `read` when its pools from before the batch must be read. */
export interface CurveFactoryToRead {
  address: Address;
  source: SourceRef;
  read: boolean;
}

/**
 * The Curve factories a batch from block `from` follows for the first time: not in `done` (those already looked at),
 * no known pool discovered by it. Each is to be read unless the batch starts at block 0 or at or before its deployment.
 */
export function curveFactoriesToRead(
  announcers: ReadonlyMap<Address, SourceRef>,
  pools: Iterable<Pick<PoolRow, 'discoveredBy'>>,
  done: ReadonlySet<Address>,
  from: bigint,
): CurveFactoryToRead[] {
  const curve = [...announcers].filter(([address, source]) => isCurveKind(source.kind) && !done.has(address));
  if (curve.length === 0) return [];
  const known = new Set<Address>();
  for (const pool of pools) if (pool.discoveredBy) known.add(checksum(pool.discoveredBy));
  return curve
    .filter(([address]) => !known.has(address))
    .map(([address, source]) => ({
      address,
      source,
      read: from > 0n && (source.deploymentBlock === undefined || BigInt(source.deploymentBlock) < from),
    }));
}

/** The pair rows of every pool of the factories to read (`read`), at `blockNumber`, created at that block. */
export async function readCurveFactories(client: ChainPublicClient, params: { readonly factories: readonly CurveFactoryToRead[]; readonly blockNumber: bigint }): Promise<DecodedPoolRow[]> {
  const rows: DecodedPoolRow[] = [];
  for (const { address, source, read } of params.factories) {
    if (!read || !isCurveKind(source.kind)) continue;
    const flavor = FLAVOR[source.kind];
    // A node without the block's state any more: the pools at its newest block (see the module note).
    const pools = await readCurveFactoryPools(client, { factory: address, flavor, blockNumber: params.blockNumber }).catch(() => readCurveFactoryPools(client, { factory: address, flavor }));
    for (const pool of pools) rows.push(...curvePairRows(pool.address, pool.coins, source, { address, blockNumber: params.blockNumber }));
  }
  return rows;
}
