/** A concentrated pool's initialized ticks and state as the swap loops read them. */
import { countAtOrBelow } from '../../math/sorted';
import { getSqrtRatioAtTick } from './tick-math';

/** An initialized tick and the liquidity added when the price crosses it upwards. */
export interface TickLiquidity {
  readonly index: number;
  readonly liquidityNet: bigint;
}

/**
 * What a swap reads from a pool: its price, tick, active liquidity, fee (pips), tick spacing and initialized
 * ticks. `ticks` is the pool's tick list as sorted arrays (`tickTable`), built once per pool.
 */
export interface ConcentratedPoolState {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly ticks: TickTable;
}

/** Word edges whose sqrt ratios a tick table keeps at most (a wide position on spacing 1 has thousands). */
const EDGES_KEPT = 1024;

/** Initialized ticks as sorted arrays, with their sqrt ratios computed on first use. */
export class TickTable {
  readonly index: Int32Array;
  readonly liquidityNet: readonly bigint[];
  private readonly ratios: (bigint | undefined)[];

  constructor(ticks: readonly TickLiquidity[]) {
    const sorted = [...ticks].sort((a, b) => a.index - b.index);
    for (let i = 1; i < sorted.length; i++) if (sorted[i].index === sorted[i - 1].index) throw new RangeError(`tick ${sorted[i].index} listed twice`);
    this.index = Int32Array.from(sorted, (t) => t.index);
    this.liquidityNet = sorted.map((t) => t.liquidityNet);
    this.ratios = new Array<bigint | undefined>(sorted.length);
  }

  get length(): number {
    return this.index.length;
  }

  /** The position of the greatest initialized tick <= `tick` (-1 when none). */
  atOrBelow(tick: number): number {
    return countAtOrBelow(this.index, tick) - 1;
  }

  /** The sqrt ratio at the tick at position `i`. */
  ratio(i: number): bigint {
    let r = this.ratios[i];
    if (r === undefined) r = this.ratios[i] = getSqrtRatioAtTick(this.index[i]);
    return r;
  }

  /** The sqrt ratios of ticks that are not initialized (bitmap words' edges) that swaps stepped to, up to EDGES_KEPT. */
  private readonly edges = new Map<number, bigint>();

  /** The sqrt ratio at any tick, kept for the ticks swaps step to (an edge is computed once, not once a swap). */
  edgeRatio(tick: number): bigint {
    let r = this.edges.get(tick);
    if (r === undefined) {
      r = getSqrtRatioAtTick(tick);
      if (this.edges.size < EDGES_KEPT) this.edges.set(tick, r);
    }
    return r;
  }
}
