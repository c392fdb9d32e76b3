/** Uniswap V3 pools and their forks: concentrated liquidity (`concentrated.ts`), the fee tier named at creation. */
import { concentratedModule } from './concentrated';

export const uniswapV3Kind = concentratedModule('uniswap-v3');
