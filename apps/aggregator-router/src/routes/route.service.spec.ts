import { BusError } from '@dex/service';
import type { LiquidityService } from '../liquidity/liquidity.service';
import { RouteService } from './route.service';

describe('RouteService feeRecipient', () => {
  const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
  const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const ZERO = '0x0000000000000000000000000000000000000000';
  /** A service whose chain 999 has its RouterV2 at ROUTER; a request that gets past the checks waits for liquidity. */
  const service = new RouteService({
    chain: () => ({ chainId: 999, entry: { routerV2: ROUTER }, current: () => Promise.reject(new Error('past the checks')) }),
  } as unknown as LiquidityService);
  const route = (feeRecipient: `0x${string}` | undefined, feeBps: number) =>
    service
      .route({ chainId: 999, tokenIn: WALLET, tokenOut: ZERO, amountIn: '1', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps, ...(feeRecipient === undefined ? {} : { feeRecipient }) })
      .catch((err: unknown) => (err instanceof BusError ? err.toBody() : (err as Error).message));
  const message = 'Invalid feeRecipient: must be a wallet, not the zero address or the router';

  it('refuses the router itself, fee or not (RouterV2 reverts InvalidFeeRecipient)', async () => {
    for (const feeBps of [0, 5]) {
      expect(await route(ROUTER.toLowerCase() as `0x${string}`, feeBps)).toEqual({ status: 400, message, details: `${ROUTER} is the router of chain 999` });
    }
  });

  it('refuses the zero address with a fee (FeeRecipientRequired), accepts it without one', async () => {
    expect(await route(ZERO, 5)).toEqual({ status: 400, message, details: 'the zero address cannot receive a fee (feeBps > 0)' });
    expect(await route(ZERO, 0)).toBe('past the checks');
    expect(await route(WALLET, 5)).toBe('past the checks');
    expect(await route(undefined, 0)).toBe('past the checks');
  });
});
