/** Uniswap V2 pairs: constant product on the reserves, the source's fee taken from the input. */
import { getAmountIn as v2AmountIn, getAmountOut as v2AmountOut } from './constant-product';
import type { PoolSnapshotBase } from '../pool-module';
import { ConstantProductLeg, quoteOrZero } from '../leg-helpers';
import type { PoolModule } from '../pool-module';

/** A Uniswap V2 pair: reserves and the source's fee. */
export interface UniswapV2PoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'uniswap-v2';
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly feeBps: number;
}

class UniswapV2Leg extends ConstantProductLeg {
  readonly maxIn = undefined;
  private readonly fee: bigint;
  constructor(
    readonly pool: UniswapV2PoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
    private readonly reserveIn: bigint,
    private readonly reserveOut: bigint,
  ) {
    super(Number(reserveIn), Number(reserveOut), 1 - pool.feeBps / 10_000, 1, Infinity, Number(reserveIn));
    this.fee = BigInt(pool.feeBps);
  }
  quote(amountIn: bigint): bigint {
    return quoteOrZero(() => v2AmountOut(amountIn, this.reserveIn, this.reserveOut, this.fee));
  }
  override quoteIn(amountOut: bigint): bigint | undefined {
    if (amountOut >= this.reserveOut) return undefined;
    return v2AmountIn(amountOut, this.reserveIn, this.reserveOut, this.fee);
  }
}

export const uniswapV2Module: PoolModule<UniswapV2PoolSnapshot> = {
  kind: 'uniswap-v2',
  legsOf(pool) {
    if (pool.reserve0 <= 0n || pool.reserve1 <= 0n) return [];
    return [
      new UniswapV2Leg(pool, pool.token0, pool.token1, pool.reserve0, pool.reserve1),
      new UniswapV2Leg(pool, pool.token1, pool.token0, pool.reserve1, pool.reserve0),
    ];
  },
  feeBps: (pool) => pool.feeBps,
  fee: (pool) => pool.feeBps,
  tickSpacing: () => undefined,
  stable: false,
  refineSplits: () => false,
  quotedOnChain: () => false,
  tradesWhatArrives: true,
  transfersTokens: true,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { 'uniswap-v2': 65_216 }, swapKind: () => 'uniswap-v2' },
};
