/** Injection tokens of the keeper's configuration and its chains. */
export const KEEPER_CONFIG = Symbol('KEEPER_CONFIG');
export const KEEPER_CHAINS = Symbol('KEEPER_CHAINS');
