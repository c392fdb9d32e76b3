import { settablePriceOracleAbi, testERC20Abi, wrappedNativeAbi } from '@dex/abis';
import { DEV_TOKEN_GRANT, deployContext, devAccount, send, type DevAccount } from '@dex/devnet-kit';
import type { ManifestChain } from '@dex/messages';
import { parseUnits, type Abi } from 'viem';

/**
 * Dev accounts the simulator trades from: derivation indexes 8 and 9 of the dev mnemonic, which anvil funds
 * with native coin but no other role uses, so their nonces never race the deployer's, the keeper's or a
 * trader's.
 */
export const SIMULATOR_ACCOUNT_INDEXES = [8, 9] as const;

/** Native coin each simulator account wraps at start, in whole coins. */
export const SIMULATOR_WRAPPED_GRANT = 10_000n;

export function simulatorAccounts(): DevAccount[] {
  return SIMULATOR_ACCOUNT_INDEXES.map((index, n) => ({ ...devAccount(index), role: `simulator-${n + 1}` }));
}

/**
 * Gives the simulator accounts what they trade with on one chain: every test token (minted by the deployer,
 * their owner), wrapped native coin (wrapped by each account from its own native balance), and the right to
 * set the core oracle's prices. Runs once, right after deployment and before anything else sends from the
 * deployer.
 */
export async function fundSimulatorAccounts(chain: ManifestChain, accounts: readonly DevAccount[]): Promise<void> {
  const ctx = deployContext(chain.chainId, chain.rpcUrl);
  for (const token of chain.tokens) {
    for (const account of accounts) {
      await send(ctx, {
        address: token.address,
        abi: testERC20Abi as Abi,
        functionName: 'mint',
        args: [account.address, parseUnits(DEV_TOKEN_GRANT.toString(), token.decimals)],
      });
    }
  }
  for (const account of accounts) {
    await send(ctx, { address: chain.core.oracle, abi: settablePriceOracleAbi as Abi, functionName: 'setUpdater', args: [account.address, true] });
    await send(
      ctx,
      { address: chain.wrappedNative.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: parseUnits(SIMULATOR_WRAPPED_GRANT.toString(), 18) },
      account,
    );
  }
}
