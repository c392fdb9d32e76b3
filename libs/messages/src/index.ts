export * from './contract';
export * from './primitives';
export * from './subjects';
export * from './aggregator/sources';
export * from './aggregator/dexes';
export * from './devnet/manifest';
export * from './core/quote';
export * from './keeper/distribute';
