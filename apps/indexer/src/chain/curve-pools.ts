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
import { readCurveFactoryPools, readCurvePoolCounts, readCurvePoolList, type ChainPublicClient, type CurvePoolFlavor } from '@dex/chain';
import { isCurveKind, type CurveKind } from '@dex/messages';
import type { PoolRow } from '@dex/db';
import type { Address } from 'viem';
import { checksum, curveMetaPoolDeployedEvent, curvePairRows, curvePlainPoolDeployedEvent, logKey, type ChainLog, type DecodedPoolRow } from '../facts';
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
  params: { readonly logs: readonly ChainLog[]; readonly announcers: ReadonlyMap<Address, SourceRef>; readonly blockNumber: bigint },
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
  const counts = await readCurvePoolCounts(client, { factories, blockNumber: params.blockNumber });
  const entries: { factory: Address; index: number; key: string }[] = [];
  factories.forEach((factory, n) => {
    const deployed = byFactory.get(factory)!.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
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
    const pools = await readCurveFactoryPools(client, { factory: address, flavor: FLAVOR[source.kind], blockNumber: params.blockNumber });
    for (const pool of pools) rows.push(...curvePairRows(pool.address, pool.coins, source, { address, blockNumber: params.blockNumber }));
  }
  return rows;
}
