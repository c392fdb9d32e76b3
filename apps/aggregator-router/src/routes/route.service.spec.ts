import { BusError } from '@dex/service';
import type { LiquidityService } from '../liquidity/liquidity.service';
import { TokenTransfers } from '../tokens/token-transfers';
import { checkPriceImpact, RouteService } from './route.service';

describe('RouteService feeRecipient', () => {
  const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
  const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const ZERO = '0x0000000000000000000000000000000000000000';
  /** A service whose chain 999 has its RouterV2 at ROUTER; a request that gets past the checks waits for liquidity. */
  const liquidity = {
    chain: () => ({ chainId: 999, entry: { routerV2: ROUTER }, current: () => Promise.reject(new Error('past the checks')) }),
  } as unknown as LiquidityService;
  const service = new RouteService(liquidity, new TokenTransfers(liquidity));
  const route = (feeRecipient: `0x${string}` | undefined, feeBps: number) =>
    service
      .route({ chainId: 999, tokenIn: WALLET, tokenOut: ZERO, amountIn: '1', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps, gasAware: true, permit2: false, ...(feeRecipient === undefined ? {} : { feeRecipient }) })
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

describe('RouteService recipient', () => {
  const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
  const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const ZERO = '0x0000000000000000000000000000000000000000';
  const liquidity = {
    chain: () => ({ chainId: 999, entry: { routerV2: ROUTER }, current: () => Promise.reject(new Error('past the checks')) }),
  } as unknown as LiquidityService;
  const service = new RouteService(liquidity, new TokenTransfers(liquidity));
  const route = (recipient: `0x${string}`) =>
    service
      .route({ chainId: 999, tokenIn: WALLET, tokenOut: ZERO, amountIn: '1', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps: 0, gasAware: true, permit2: false, recipient })
      .catch((err: unknown) => (err instanceof BusError ? err.toBody() : (err as Error).message));
  const message = 'Invalid recipient: must be a wallet, not the zero address or the router';

  it('refuses the router itself and the zero address (RouterV2 reverts InvalidRecipient)', async () => {
    expect(await route(ROUTER.toLowerCase() as `0x${string}`)).toEqual({ status: 400, message, details: `${ROUTER} is the router of chain 999` });
    expect(await route(ZERO)).toEqual({ status: 400, message, details: 'RouterV2 reverts InvalidRecipient for the zero address' });
    expect(await route(WALLET)).toBe('past the checks');
  });
});

describe('checkPriceImpact', () => {
  const refused = (impact: number, max: number) => {
    try {
      checkPriceImpact(impact, max);
      return undefined;
    } catch (err) {
      return (err as BusError).toBody();
    }
  };

  it('refuses a route above maxPriceImpact with a 422 naming the impact found', () => {
    expect(refused(0.123456, 5)).toEqual({ status: 422, message: 'Price impact too high: 12.35% exceeds maxPriceImpact 5%', details: expect.stringContaining('averagePriceImpact 0.123456') });
    expect(refused(0.00001234, 0)).toEqual(expect.objectContaining({ status: 422, message: 'Price impact too high: 0.001234% exceeds maxPriceImpact 0%' }));
    expect(refused(1, 99.5)?.message).toBe('Price impact too high: 100% exceeds maxPriceImpact 99.5%');
  });

  it('lets a route at or below the limit through, and any route without one', () => {
    expect(refused(0.05, 5)).toBeUndefined();
    expect(refused(0, 0)).toBeUndefined();
    expect(refused(1, 100)).toBeUndefined();
    expect(() => checkPriceImpact(1, undefined)).not.toThrow();
  });
});
