import { routerV2Abi, routerV2Bytecode } from '@dex/abis';
import { ROUTER_V2_SOURCE_KIND, routerSourceContract } from '@dex/chain';
import type { ManifestChain, SourceKind } from '@dex/messages';
import type { Abi, Address } from 'viem';
import { devAccounts } from './accounts';
import { deploy, send, type ChainInProgress, type DeployContext } from './deploy';

/** RouterV2's `SourceKind` enum, by source kind name (every kind the devnet's sources use; see `ROUTER_V2_SOURCE_KIND`). */
export const ROUTER_SOURCE_KIND: Record<SourceKind, number> = ROUTER_V2_SOURCE_KIND;

/**
 * Deploys RouterV2 (owner: the deployer; protocol fees to the treasury dev account), registers every source of the
 * chain with its routerIndex, factory and fee, and allows each hook a V4 source lists (`hooks`) for that source
 * (`setHookAllowed`), as the deploy tool does on a real chain.
 */
export async function deployRouter(
  ctx: DeployContext,
  chain: ChainInProgress,
): Promise<ChainInProgress & Pick<ManifestChain, 'routerV2' | 'treasury'>> {
  const treasury = devAccounts().find((a) => a.role === 'treasury');
  if (!treasury) throw new Error('no treasury dev account');
  const router = await deploy(ctx, routerV2Abi as Abi, routerV2Bytecode, [ctx.deployer.address, chain.wrappedNative.address, treasury.address]);
  for (const source of chain.sources) {
    const factory = routerSourceContract(source) as Address | undefined;
    if (!factory) throw new Error(`source ${source.name} has no factory, router, PoolManager or launchpad address`);
    await send(ctx, {
      address: router,
      abi: routerV2Abi as Abi,
      functionName: 'setSource',
      args: [source.routerIndex, ROUTER_SOURCE_KIND[source.kind], factory, source.feeBps ?? 0],
    });
    for (const hook of source.hooks ?? []) {
      await send(ctx, { address: router, abi: routerV2Abi as Abi, functionName: 'setHookAllowed', args: [source.routerIndex, hook.address, true] });
    }
  }
  return {
    ...chain,
    routerV2: router,
    treasury: treasury.address,
    deployments: [...chain.deployments, { name: 'RouterV2', contract: 'RouterV2', address: router }],
  };
}
