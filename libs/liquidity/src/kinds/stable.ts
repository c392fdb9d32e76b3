/** Solidly-style stable pools: their reserves, set by each Sync (`reserves.ts`); the engine solves their invariant. */
import { reservesModule } from './reserves';

export const stableKind = reservesModule('stable');
