// Token metadata and ERC-20 verification by calling the token. A token is verified when it has code and
// name(), symbol(), decimals(), totalSupply() and balanceOf() all answer with well-formed values. Anything
// else (a revert, an empty or malformed answer, a timeout) makes it unverified; it never throws.
import type { VerifiedTokenMetadata } from '@dex/messages';
import { erc20Abi, erc20Abi_bytes32, hexToString, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';

/** The holder whose balance is asked, to check that balanceOf answers. */
const PROBE_HOLDER: Address = '0x000000000000000000000000000000000000dEaD';
const MAX_TEXT = 200;

export interface ReadTokenMetadataParameters {
  readonly token: Address;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

export type TokenMetadata = VerifiedTokenMetadata;

export type ReadTokenMetadataReturnType = TokenMetadata;

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

/** A bytes32 word as text: UTF-8 up to its first zero byte (undefined when it is not valid UTF-8). */
export function bytes32Text(word: Hex): string | undefined {
  const raw = hexToString(word, { size: 32 });
  const end = raw.indexOf('\u0000');
  const text = end === -1 ? raw : raw.slice(0, end);
  return text.includes('\ufffd') ? undefined : text;
}

function reason(error: unknown): string {
  const message = (error as { shortMessage?: string; message?: string }).shortMessage ?? (error as Error).message ?? String(error);
  return message.split('\n')[0].slice(0, 120);
}

/**
 * A token's ERC-20 metadata, verified: its code, then name(), symbol(), decimals(), totalSupply() and
 * balanceOf() in one multicall. Never throws: every failure is in `verificationError`.
 *
 * @example
 * const meta = await readTokenMetadata(client, { token, blockNumber });
 * if (!meta.isERC20Verified) log(meta.verificationError);
 */
export async function readTokenMetadata(client: ChainPublicClient, params: ReadTokenMetadataParameters): Promise<ReadTokenMetadataReturnType> {
  const { token: address } = params;
  const at = params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber };
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
  const fields = ['name', 'symbol', 'decimals', 'totalSupply', 'balanceOf'] as const;
  type Answer = { status: 'success'; result: unknown } | { status: 'failure'; error: unknown };
  let answers: Answer[];
  try {
    answers = await client.multicall({
      ...at,
      allowFailure: true,
      contracts: [
        { address, abi: erc20Abi, functionName: 'name' },
        { address, abi: erc20Abi, functionName: 'symbol' },
        { address, abi: erc20Abi, functionName: 'decimals' },
        { address, abi: erc20Abi, functionName: 'totalSupply' },
        { address, abi: erc20Abi, functionName: 'balanceOf', args: [PROBE_HOLDER] },
      ],
    });
  } catch (error) {
    answers = fields.map(() => ({ status: 'failure', error }));
  }
  // Tokens such as MKR answer name() and symbol() with a bytes32 word, which does not decode as a string: those
  // two are asked again with the bytes32 ABI and the word read as zero-padded UTF-8.
  const retry = [0, 1].filter((i) => answers[i].status === 'failure');
  if (retry.length) {
    const words = await client
      .multicall({ ...at, allowFailure: true, contracts: retry.map((i) => ({ address, abi: erc20Abi_bytes32, functionName: fields[i] as 'name' | 'symbol' })) })
      .catch(() => []);
    words.forEach((word, k) => {
      if (word.status === 'success') answers[retry[k]] = { status: 'success', result: bytes32Text(word.result as Hex) };
    });
  }
  const value = (i: number): unknown => {
    const answer = answers[i];
    if (answer.status === 'success') return answer.result;
    problems.push(`${fields[i]}(): ${reason(answer.error)}`);
    return undefined;
  };
  const [nameValue, symbolValue, decimalsValue, supplyValue] = [value(0), value(1), value(2), value(3), value(4)];
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
