export * from './facts';
export * from './chain-state';
export * from './routing-snapshot';
export * from './concentrated-state';
export * from './concentrated-messages';
export * from './leg-quotes';
