// Contracts on a test chain from a dev account: deployments from an artifact (checked) and transactions that,
// when they revert, say why (the same call simulated at the block before).
import { getAddress, type Abi, type Address, type Hex, type PublicClient, type TransactionReceipt, type WalletClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

/** A compiled contract: its ABI and creation code. */
export interface ContractArtifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

/** An artifact as npm packages ship it (`bytecode` a hex string). */
export const artifactOf = (a: { abi: unknown; bytecode: string }): ContractArtifact => ({ abi: a.abi as Abi, bytecode: a.bytecode as Hex });

export interface ContractWriter {
  deploy(a: ContractArtifact, args?: readonly unknown[]): Promise<Address>;
  send(address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<TransactionReceipt>;
}

/** Gas of each transaction `send` makes (a block's worth on anvil). */
const SEND_GAS = 30_000_000n;

export function contractWriter(client: Pick<PublicClient, 'waitForTransactionReceipt' | 'simulateContract'>, wallet: WalletClient, account: PrivateKeyAccount): ContractWriter {
  return {
    async deploy(a, args = []) {
      const hash = await wallet.deployContract({ abi: a.abi, bytecode: a.bytecode, args, account, chain: wallet.chain } as never);
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('deployment failed');
      return getAddress(receipt.contractAddress);
    },
    async send(address, abi, functionName, args) {
      const hash = await wallet.writeContract({ address, abi, functionName, args, account, chain: wallet.chain, gas: SEND_GAS } as never);
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status === 'success') return receipt;
      const reason = await client
        .simulateContract({ address, abi, functionName, args, account: account.address, blockNumber: receipt.blockNumber - 1n, gas: SEND_GAS } as never)
        .then(() => 'no revert in simulation', (e: Error) => e.message.split('\n').slice(0, 3).join(' '));
      throw new Error(`${functionName} reverted (tx ${hash}): ${reason} ${JSON.stringify(args, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
    },
  };
}
