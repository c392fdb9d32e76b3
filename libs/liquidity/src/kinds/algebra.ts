/** Algebra Integral pools: concentrated liquidity (`concentrated.ts`), the fee and tick spacing set by their events. */
import { concentratedModule } from './concentrated';

export const algebraKind = concentratedModule('algebra');
