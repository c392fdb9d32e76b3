/** Uniswap V2 pairs: their reserves, set by each Sync (`reserves.ts`). */
import { reservesModule } from './reserves';

export const uniswapV2Kind = reservesModule('uniswap-v2');
