import { ammPoolAbi, ammRouterAbi } from '@dex/abis';
import { shortMessage } from '@dex/chain';
import { BusError } from '@dex/service';
import { concatHex, encodeAbiParameters, encodeErrorResult, getContractError, RawContractError, type Abi, type Address, type Hex } from 'viem';
import type { CoreChain, CoreChains } from './core-chains';
import { QuoteService } from './quote.service';

const ROUTER = '0x1111111111111111111111111111111111111111' as Address;
const POOL = '0x2222222222222222222222222222222222222222' as Address;
const TOKEN_IN = '0x3333333333333333333333333333333333333333' as Address;
const TOKEN_OUT = '0x4444444444444444444444444444444444444444' as Address;

/** What viem's readContract throws when the call reverts with `data` (as it does for a reverted Multicall3 entry). */
function reverted(data: Hex, functionName = 'estimateSwapBatch'): Error {
  return getContractError(new RawContractError({ data }), { abi: [...ammRouterAbi, ...ammPoolAbi] as Abi, address: ROUTER, args: [], functionName });
}

/** A quoter on one chain whose router finds POOL and whose `estimateSwapBatch` fails with `estimateError`. */
function quoterFailingWith(estimateError: Error): QuoteService {
  const readContract = async ({ functionName }: { functionName: string }) => {
    switch (functionName) {
      case 'getPoolForPair':
        return POOL;
      case 'getTokens':
        return [TOKEN_IN, TOKEN_OUT];
      case 'getReserves':
        return [10n ** 24n, 10n ** 24n];
      case 'estimateSwapBatch':
        throw estimateError;
    }
    throw new Error(`unexpected read ${functionName}`);
  };
  // The chain actions' multicalls, with allowFailure false: the first failing read throws.
  const multicall = async ({ contracts }: { contracts: { functionName: string }[] }) => {
    const results = [];
    for (const c of contracts) results.push(c.functionName === 'getPoolFees' ? [0n, 0n] : c.functionName === 'oracle' ? ROUTER : await readContract(c));
    return results;
  };
  // Its RPC providers have not been looked at for long: the chain is not stale, and the failures are the pool's.
  const endpoint = { chainId: 999, rpcUrl: 'http://127.0.0.1:1' };
  const chain = { chainId: 999, router: ROUTER, endpoint, client: { readContract, multicall, getBlock: async () => ({ number: 7n, timestamp: 1_700_000_000n }) } } as unknown as CoreChain;
  const chains = { get: (id: number) => (id === 999 ? chain : undefined), all: () => [chain] } as unknown as CoreChains;
  return new QuoteService(chains);
}

const quote = (service: QuoteService, amountsIn: string[]) =>
  service.quote({ chainId: 999, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, amountsIn, includeCalldata: false }).then(
    () => undefined,
    (err: unknown) => (err instanceof BusError ? err.toBody() : err),
  );

describe('QuoteService failures', () => {
  it('answers an arithmetic overflow of the pool (Panic 0x11, amounts from about 10^76) as InsufficientReserve', async () => {
    const panic = reverted(concatHex(['0x4e487b71', encodeAbiParameters([{ type: 'uint256' }], [0x11n])]));
    expect(shortMessage(panic)).toContain('Arithmetic operation resulted in underflow or overflow');
    const body = { status: 400, message: 'Insufficient reserve: amountIn exceeds what the pool can pay', details: 'arithmetic overflow: use a smaller amount' };
    expect(await quote(quoterFailingWith(panic), [(2n ** 256n - 1n).toString()])).toEqual(body);
    // In a batch the whole estimateSwapBatch reverts.
    expect(await quote(quoterFailingWith(panic), ['1000000', (10n ** 76n).toString()])).toEqual(body);
  });

  it('maps the pool’s InsufficientReserve the same way', async () => {
    const error = reverted(encodeErrorResult({ abi: ammPoolAbi as Abi, errorName: 'InsufficientReserve', args: [10n ** 30n, 10n ** 24n] }));
    expect(await quote(quoterFailingWith(error), ['1'])).toMatchObject({ status: 400, message: 'Insufficient reserve: amountIn exceeds what the pool can pay' });
  });

  it('leaves other panics and failures a 500', async () => {
    const divisionByZero = reverted(concatHex(['0x4e487b71', encodeAbiParameters([{ type: 'uint256' }], [0x12n])]));
    expect(await quote(quoterFailingWith(divisionByZero), ['1'])).toMatchObject({ status: 500, message: 'Failed to fetch quote' });
    expect(await quote(quoterFailingWith(new Error('socket hang up')), ['1'])).toEqual({ status: 500, message: 'Failed to fetch quote', details: 'socket hang up' });
  });
});
