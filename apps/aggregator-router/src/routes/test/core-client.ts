// A chain client for the route tests whose core pools answer `estimateSwap` as the test says: it takes the
// `eth_call` to Multicall3's `aggregate3` that `quoteCoreSwaps` sends, as a node would, and records each call's
// block and the estimateSwap calls it held.
import { ammPoolAbi } from '@dex/abis';
import type { ChainPublicClient } from '@dex/chain';
import { decodeFunctionData, encodeFunctionResult, multicall3Abi, type Hex } from 'viem';

export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';

/** One recorded multicall: its block and the estimateSwap calls in it (pool address, [tokenIn, tokenOut, amountIn]). */
export interface RecordedMulticall {
  readonly blockNumber: bigint | undefined;
  readonly contracts: { readonly address: string; readonly args: readonly [string, string, bigint] }[];
}

/**
 * `estimate(pool, amountIn, tokenIn)`: the pool's answer (bigint), a refusal (undefined: the call reverts) or an Error
 * (the node fails the whole multicall).
 */
export function coreQuotingClient(estimate: (pool: string, amountIn: bigint, tokenIn: string) => bigint | undefined | Error) {
  const calls: RecordedMulticall[] = [];
  const fake = {
    chain: { id: 999, contracts: { multicall3: { address: MULTICALL3 } } },
    call: async ({ to, data, blockNumber }: { to: string; data: Hex; blockNumber?: bigint }) => {
      if (to.toLowerCase() !== MULTICALL3) throw new Error(`call to ${to}, not Multicall3`);
      const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data });
      if (functionName !== 'aggregate3') throw new Error(`Multicall3.${functionName}`);
      const contracts = args[0].map((c) => {
        const call = decodeFunctionData({ abi: ammPoolAbi, data: c.callData });
        if (call.functionName !== 'estimateSwap') throw new Error(`pool.${call.functionName}`);
        return { address: c.target, args: call.args as unknown as [string, string, bigint] };
      });
      calls.push({ blockNumber, contracts });
      const results = contracts.map(({ address, args: [tokenIn, , amountIn] }) => {
        const out = estimate(address.toLowerCase(), amountIn, tokenIn.toLowerCase());
        if (out instanceof Error) throw out;
        return out === undefined
          ? { success: false, returnData: '0x' as Hex }
          : { success: true, returnData: encodeFunctionResult({ abi: ammPoolAbi, functionName: 'estimateSwap', result: out }) };
      });
      return { data: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }) };
    },
  };
  return { client: fake as unknown as ChainPublicClient, calls };
}
