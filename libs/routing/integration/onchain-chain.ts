/**
 * The on-chain differential tests' private anvil chain: the testing lib's (`startOnchainChain`, shared with the
 * indexer's Uniswap V4 test), under the names these tests use.
 */
import { artifactOf, ONCHAIN_CALL_GAS, ONCHAIN_CHAIN_ID, type ContractArtifact } from '@dex/testing';

export { inParallel, sendAll, startOnchainChain, type OnchainChain } from '@dex/testing';

export const CHAIN_ID = ONCHAIN_CHAIN_ID;
/** eth_call gas: a swap to the price limit on tick spacing 1 walks thousands of bitmap words. */
export const CALL_GAS = ONCHAIN_CALL_GAS;

export type Artifact = ContractArtifact;
export const artifact = artifactOf;
