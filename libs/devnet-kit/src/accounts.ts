import { mnemonicToAccount } from 'viem/accounts';
import { bytesToHex, type Address, type Hex } from 'viem';

/** Anvil's well-known development mnemonic: its accounts are funded on every fresh chain. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  readonly role: string;
  readonly address: Address;
  readonly privateKey: Hex;
}

/** Roles of the first dev accounts, by derivation index. */
export const DEV_ROLES = ['deployer', 'keeper', 'trader-1', 'trader-2', 'trader-3', 'liquidity', 'treasury', 'integrator'] as const;

export function devAccount(index: number): DevAccount {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key for dev account ${index}`);
  return { role: DEV_ROLES[index] ?? `dev-${index}`, address: account.address, privateKey: bytesToHex(key) };
}

export function devAccounts(): DevAccount[] {
  return DEV_ROLES.map((_, index) => devAccount(index));
}
