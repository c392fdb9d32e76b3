import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ConcentratedState } from '@dex/liquidity';
import { LiquidityService } from './liquidity.service';

/** A concentrated pool's state as the service holds it: price, tick, active liquidity, fee (pips), tick spacing, initialized ticks ascending. */
function concentratedRecord(c: ConcentratedState) {
  return {
    sqrtPriceX96: c.sqrtPriceX96.toString(),
    tick: c.tick,
    liquidity: c.liquidity.toString(),
    ...(c.fee !== undefined ? { fee: c.fee } : {}),
    ...(c.tickSpacing !== undefined ? { tickSpacing: c.tickSpacing } : {}),
    ticks: [...c.ticks]
      .sort(([a], [b]) => a - b)
      .map(([index, t]) => ({ index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
  };
}

/**
 * `GET /liquidity/:chainId` on the service's own port (not the gateway's): the liquidity state as the service
 * holds it, every pool with its state at the state's block, for operators comparing it with the chain.
 * Amounts are base-unit integer strings; a Uniswap V3 or Algebra pool carries its `concentrated` state. 404 for a chain not served, 503 before the first load.
 */
@Controller('liquidity')
export class LiquidityController {
  constructor(@Inject(LiquidityService) private readonly liquidity: LiquidityService) {}

  @Get(':chainId')
  state(@Param('chainId') chainId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const chain = /^\d+$/.test(chainId) ? this.liquidity.chains.get(Number(chainId)) : undefined;
    if (!chain) {
      reply.status(404);
      return { success: false, error: `Unsupported chainId: ${chainId}` };
    }
    const state = chain.liquidityState;
    if (!state) {
      reply.status(503);
      return { success: false, error: 'Liquidity not loaded yet', details: `chain ${chainId}` };
    }
    const pools = state
      .committedPools()
      .sort((a, b) => a.address.localeCompare(b.address))
      .map((p) => ({
        address: p.address,
        kind: p.kind,
        routerIndex: p.routerIndex,
        token0: p.token0,
        token1: p.token1,
        ...(p.reserves ? { reserve0: p.reserves.reserve0.toString(), reserve1: p.reserves.reserve1.toString() } : {}),
        ...(p.curve ? { nativeReserve: p.curve.nativeReserve.toString(), tokenReserve: p.curve.tokenReserve.toString(), graduated: p.curve.graduated } : {}),
        ...(p.concentrated ? { concentrated: concentratedRecord(p.concentrated) } : {}),
      }));
    return { success: true, data: { chainId: chain.chainId, blockNumber: state.block.toString(), routablePools: chain.snapshot?.pools.length ?? 0, pools } };
  }
}
