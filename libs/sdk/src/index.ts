export { createDexClient, DEFAULT_TIMEOUT_MS, type CallOptions, type DexClient, type DexClientOptions, type EndpointMethods, type FailureBody, type RawResponse } from './client';
export { DexApiError, DexClientError, DexNetworkError, DexResponseError, type NetworkFailure, type SchemaIssue } from './errors';
export { requestTarget, serialiseParam, type ClientParams, type LooseParams, type NaturalParamTypes, type NaturalParamTypesByEndpoint, type ParamName } from './params';
export type { Validation } from './validate';
export type { EndpointBody, EndpointName } from '@dex/messages';
export { signPermit2Route, withSignature, type SignedRouteTransaction, type TypedDataSigner } from './permit2';
export { sseEvents, type RouteStreamEvent, type RouteStreamOptions } from './route-stream';
