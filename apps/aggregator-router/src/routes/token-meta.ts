/** Tokens as the API names them: the native coin's markers, the metadata of a chain's tokens. */
import { NATIVE_TOKEN_ADDRESS, NATIVE_TOKEN_ALIAS, type TokenMeta } from '@dex/messages';
import { BusError } from '@dex/service';
import type { ChainLiquidity } from '../liquidity/liquidity.service';

/** The native coin's address in the API: the zero address, or the `0xEeee...` spelling. */
export const isNative = (address: string): boolean => {
  const a = address.toLowerCase();
  return a === NATIVE_TOKEN_ADDRESS || a === NATIVE_TOKEN_ALIAS.toLowerCase();
};

/** A token some pool of the chain trades; otherwise a 400 naming the parameter. */
export function knownToken(chain: ChainLiquidity, address: string, param: string): TokenMeta {
  const meta = chain.token(address);
  if (!meta) throw new BusError(400, `Unknown token: ${param}`, `${address} is not traded by any pool of chain ${chain.chainId}`);
  return meta;
}

/** The chain's native coin, with the wrapped token's decimals. */
export function nativeToken(chain: ChainLiquidity): TokenMeta {
  return { address: NATIVE_TOKEN_ADDRESS, symbol: chain.entry.nativeSymbol, name: chain.entry.nativeSymbol, decimals: chain.token(chain.wrappedNative)?.decimals ?? 18 };
}
