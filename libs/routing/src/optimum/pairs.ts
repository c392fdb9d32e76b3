/** Token pairs of a flow graph (from, to) by index, as one number. */

/** A token pair (from, to) by index, as one number. */
const PAIR_BASE = 4096;
export const pairKey = (from: number, to: number): number => from * PAIR_BASE + to;
/** A pair key's tokens. */
export const pairFrom = (pair: number): number => Math.floor(pair / PAIR_BASE);
export const pairTo = (pair: number): number => pair % PAIR_BASE;
