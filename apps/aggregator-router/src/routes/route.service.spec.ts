import { BusError } from '@dex/service';
import type { LiquidityService } from '../liquidity/liquidity.service';
import { isNative, RouteService, toBaseUnits } from './route.service';

describe('toBaseUnits', () => {
  it('converts human-readable amounts with the token decimals', () => {
    expect(toBaseUnits('1.5', 6, 'amountIn')).toBe(1_500_000n);
    expect(toBaseUnits('.000001', 6, 'amountIn')).toBe(1n);
    expect(toBaseUnits('3', 18, 'amountOut')).toBe(3n * 10n ** 18n);
  });

  it('rejects more decimals than the token has, and zero', () => {
    expect(() => toBaseUnits('1.0000001', 6, 'amountIn')).toThrow('Invalid amountIn: more decimals than the token has');
    expect(() => toBaseUnits('0.000', 6, 'amountOut')).toThrow('Invalid amountOut: must be a positive decimal number');
  });
});

describe('isNative', () => {
  it('accepts the zero address and the 0xEeee spelling', () => {
    expect(isNative('0x0000000000000000000000000000000000000000')).toBe(true);
    expect(isNative('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')).toBe(true);
    expect(isNative('0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0')).toBe(false);
  });
});

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
