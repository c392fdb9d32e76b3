import { defineChain, type Address, type Chain } from 'viem';
import { CHAIN_IDS } from '@dex/messages';

/** Canonical Multicall3 address; the devnet places its Multicall3 here too. */
export const CANONICAL_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export interface ChainInfo {
  readonly chainId: number;
  readonly name: string;
  /** Symbol of the chain's native coin. */
  readonly nativeSymbol: string;
  readonly nativeName: string;
  /** Symbol and name of the wrapped native token (WETH9-style). */
  readonly wrappedNativeSymbol: string;
  readonly wrappedNativeName: string;
  /**
   * The most gas one transaction may use and still be mined in the chain's regular blocks, where that is less
   * than the block gas limit nodes report: HyperEVM mines a small block of 2,000,000 gas every second and a big
   * block (30M) once a minute, and only to accounts that opted in to big blocks.
   */
  readonly smallBlockGasLimit?: number;
  /**
   * The most gas a route's transaction is planned to use (the swaps a route splits into are bounded by it): the
   * small block on HyperEVM, so that every route is mined within a second; half of a 30M block elsewhere, so that
   * a route never needs a block to itself.
   */
  readonly routeGasBudget: number;
}

/** The chains the product serves. */
export const CHAINS = {
  999: {
    chainId: 999,
    name: 'HyperEVM',
    nativeSymbol: 'HYPE',
    nativeName: 'HYPE',
    wrappedNativeSymbol: 'WHYPE',
    wrappedNativeName: 'Wrapped HYPE',
    smallBlockGasLimit: 2_000_000,
    routeGasBudget: 2_000_000,
  },
  4663: {
    chainId: 4663,
    name: 'Chain 4663',
    nativeSymbol: 'ETH',
    nativeName: 'Ether',
    wrappedNativeSymbol: 'WETH',
    wrappedNativeName: 'Wrapped Ether',
    routeGasBudget: 15_000_000,
  },
} as const satisfies Record<number, ChainInfo>;

export type SupportedChainId = keyof typeof CHAINS;

/** The chains the product serves, as the API contract names them. */
export const SUPPORTED_CHAIN_IDS: readonly SupportedChainId[] = CHAIN_IDS;

export function isSupportedChainId(value: unknown): value is SupportedChainId {
  return typeof value === 'number' && (SUPPORTED_CHAIN_IDS as readonly number[]).includes(value);
}

export function getChainInfo(chainId: number): ChainInfo {
  if (!isSupportedChainId(chainId)) {
    throw new Error(`Unsupported chainId: ${chainId}`);
  }
  return CHAINS[chainId];
}

/** A viem chain definition for a supported chain served at `rpcUrl`. */
export function toViemChain(chainId: number, rpcUrl: string, multicall3: Address = CANONICAL_MULTICALL3): Chain {
  const info = getChainInfo(chainId);
  return defineChain({
    id: info.chainId,
    name: info.name,
    nativeCurrency: { name: info.nativeName, symbol: info.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: multicall3 } },
  });
}
