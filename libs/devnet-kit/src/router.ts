import { permit2Abi, permit2Bytecode, routerV2Abi, routerV2Bytecode, routerV2Permit2Abi, routerV2Permit2Bytecode } from '@dex/abis';
import { ROUTER_V2_SOURCE_KIND, routerSourceContract } from '@dex/chain';
import type { ManifestChain, SourceKind } from '@dex/messages';
import type { Abi, Address } from 'viem';
import { devAccounts } from './accounts';
import { deploy, send, type ChainInProgress, type DeployContext } from './deploy';

/** RouterV2's `SourceKind` enum, by source kind name (every kind the devnet's sources use; see `ROUTER_V2_SOURCE_KIND`). */
export const ROUTER_SOURCE_KIND: Record<SourceKind, number> = ROUTER_V2_SOURCE_KIND;

/**
 * Deploys Permit2 (no constructor arguments), compiled from @uniswap/v4-periphery's copy of its source (see
 * tools/abis/generate.mjs), at an address of its own: not copied to the canonical address as Multicall3 is, because
 * its domain separator, which names the contract's address, is fixed at construction.
 */
export async function deployPermit2(ctx: DeployContext): Promise<Address> {
  return deploy(ctx, permit2Abi as Abi, permit2Bytecode);
}

/**
 * Deploys RouterV2 (owner: the deployer; protocol fees to the treasury dev account), registers every source of the
 * chain with its routerIndex, factory and fee, and allows each hook a V4 source lists (`hooks`) for that source
 * (`setHookAllowed`), as the deploy tool does on a real chain. Then Permit2 and RouterV2Permit2 (RouterV2's entry for
 * routes signed through Permit2), after every other contract, so that the others' addresses do not move.
 */
export async function deployRouter(
  ctx: DeployContext,
  chain: ChainInProgress,
): Promise<ChainInProgress & Pick<ManifestChain, 'routerV2' | 'permit2' | 'routerV2Permit2' | 'treasury'>> {
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
  const permit2 = await deployPermit2(ctx);
  const routerV2Permit2 = await deploy(ctx, routerV2Permit2Abi as Abi, routerV2Permit2Bytecode, [router, permit2]);
  return {
    ...chain,
    routerV2: router,
    permit2,
    routerV2Permit2,
    treasury: treasury.address,
    deployments: [
      ...chain.deployments,
      { name: 'RouterV2', contract: 'RouterV2', address: router },
      { name: 'Permit2', contract: 'Permit2', address: permit2 },
      { name: 'RouterV2Permit2', contract: 'RouterV2Permit2', address: routerV2Permit2 },
    ],
  };
}
