export * from './fact';
export * from './log';
export * from './registry';
export { blockFact } from './block';
export { transferFact, transferEvent } from './transfer';
export {
  poolCreatedFact,
  poolRow,
  v4PoolRow,
  curvePairRows,
  v2PairCreatedEvent,
  stablePoolCreatedEvent,
  coreRouterPoolAddedEvent,
  v3PoolCreatedEvent,
  algebraPoolEvent,
  curvePlainPoolDeployedEvent,
  curveMetaPoolDeployedEvent,
  curveTwocryptoPoolDeployedEvent,
  type CurvePair,
  type PoolRow as DecodedPoolRow,
} from './pool-created';
export {
  poolConcentratedFact,
  clInitializeEvent,
  clMintEvent,
  clBurnEvent,
  clSwapEvent,
  algebraFeeEvent,
  algebraTickSpacingEvent,
  type ConcentratedEventRow,
} from './pool-concentrated';
export {
  decodeUniswapV4Event,
  v4DonateEvent,
  v4InitializeEvent,
  v4ModifyLiquidityEvent,
  v4ProtocolFeeUpdatedEvent,
  v4SwapEvent,
  V4_POOL_EVENTS,
  type UniswapV4EventRow,
} from './pool-uniswap-v4';
export { tokenCreatedFact } from './token-created';
export { poolUpdatedFact, v2SyncEvent, stableSyncEvent, type ReserveRow } from './pool-updated';
export { swapFact, ammSwapEvent, ammSwapWithRefEvent, type SwapRow } from './swap';
export { referralClaimFact, ammRefFeesClaimedEvent, coreRouterRefFeesDistributedEvent } from './referral-claim';
export { launchpadTokenCreatedFact, launchpadTokenCreatedEvent } from './launchpad-token-created';
export { launchpadTradeFact, launchpadTokensPurchasedEvent, launchpadTokensSoldEvent } from './launchpad-trade';
export { launchpadMetadataFact, launchpadTokenMetadataUpdatedEvent, type LaunchpadMetadataUpdate } from './launchpad-metadata';
export { launchpadGraduatedFact, launchpadTokenGraduatedEvent } from './launchpad-graduated';
