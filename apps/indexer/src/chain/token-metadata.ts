// Token metadata and ERC20 verification by calling the token. A token is verified when it has code and
// name(), symbol(), decimals(), totalSupply() and balanceOf() all answer with well-formed values. Anything
// else (a revert, an empty or malformed answer, a timeout) makes it unverified; it never throws.
import type { ChainPublicClient } from '@dex/chain';
import type { TokenRow, TokenSource } from '@dex/db';
import { erc20Abi, type Address } from 'viem';

const PROBE_HOLDER: Address = '0x000000000000000000000000000000000000dEaD';
const MAX_TEXT = 200;

export interface TokenMetadata {
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint | null;
  isERC20Verified: boolean;
  verificationError: string | null;
}

function printable(value: unknown, field: string, problems: string[], allowEmpty: boolean): string {
  if (typeof value !== 'string') {
    problems.push(`${field}() did not return a string`);
    return '';
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\ufffd]/.test(value) || value.length > MAX_TEXT || (!allowEmpty && value.trim() === '')) {
    problems.push(`${field}() returned a malformed string`);
    return '';
  }
  return value;
}

function reason(error: unknown): string {
  const message = (error as { shortMessage?: string; message?: string }).shortMessage ?? (error as Error).message ?? String(error);
  return message.split('\n')[0].slice(0, 120);
}

export async function readTokenMetadata(client: ChainPublicClient, address: Address, blockNumber?: bigint): Promise<TokenMetadata> {
  const at = blockNumber === undefined ? {} : { blockNumber };
  const problems: string[] = [];
  let code: string | undefined;
  try {
    code = await client.getCode({ address, ...at });
  } catch (error) {
    problems.push(`code: ${reason(error)}`);
  }
  if (!code || code === '0x') {
    return { name: '', symbol: '', decimals: 0, totalSupply: null, isERC20Verified: false, verificationError: problems[0] ?? 'no contract code' };
  }
  const call = <T>(functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply' | 'balanceOf') =>
    client.readContract({ address, abi: erc20Abi, functionName, ...(functionName === 'balanceOf' ? { args: [PROBE_HOLDER] } : {}), ...at } as never) as Promise<T>;
  const [name, symbol, decimals, totalSupply, balance] = await Promise.allSettled([
    call<string>('name'),
    call<string>('symbol'),
    call<number>('decimals'),
    call<bigint>('totalSupply'),
    call<bigint>('balanceOf'),
  ]);
  const value = <T>(result: PromiseSettledResult<T>, field: string): T | undefined => {
    if (result.status === 'fulfilled') return result.value;
    problems.push(`${field}(): ${reason(result.reason)}`);
    return undefined;
  };
  const nameValue = value(name, 'name');
  const symbolValue = value(symbol, 'symbol');
  const decimalsValue = value(decimals, 'decimals');
  const supplyValue = value(totalSupply, 'totalSupply');
  value(balance, 'balanceOf');
  const meta: TokenMetadata = {
    name: nameValue === undefined ? '' : printable(nameValue, 'name', problems, true),
    symbol: symbolValue === undefined ? '' : printable(symbolValue, 'symbol', problems, false),
    decimals: 0,
    totalSupply: typeof supplyValue === 'bigint' ? supplyValue : null,
    isERC20Verified: false,
    verificationError: null,
  };
  if (decimalsValue !== undefined) {
    const n = Number(decimalsValue);
    if (Number.isInteger(n) && n >= 0 && n <= 255) meta.decimals = n;
    else problems.push('decimals() is out of range');
  }
  meta.isERC20Verified = problems.length === 0;
  meta.verificationError = problems.length ? problems.join('; ').slice(0, 500) : null;
  return meta;
}

export function tokenRow(address: Address, meta: TokenMetadata, source: TokenSource, firstSeenBlock: bigint): TokenRow {
  return { address, ...meta, source, firstSeenBlock };
}
