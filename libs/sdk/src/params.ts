import type { Endpoint, EndpointName, EndpointParams } from '@dex/messages';

/**
 * What a parameter accepts besides its wire form (the string the API reads, `z.input` of the endpoint's schema),
 * by parameter name. Numbers and bigints are written in decimal, booleans as `true`/`false`, lists joined with
 * commas.
 */
export interface NaturalParamTypes {
  chainId: number;
  limit: number;
  offset: number;
  /** Integrator fee in basis points. */
  feeBps: number;
  /** /v2/route: percent, e.g. 0.5. */
  slippage: number;
  /** /core/quote: basis points. */
  slippageBps: number;
  multiHop: boolean;
  unwrapNative: boolean;
  /** /v2/route: choose net of gas (default true). */
  gasAware: boolean;
  permit2: boolean;
  metadata: boolean;
  includeCalldata: boolean;
  /** routerIndex values. */
  includeDexes: readonly (number | string)[];
  excludeDexes: readonly (number | string)[];
  /** Token addresses. */
  tokens: readonly string[];
  /** /launchpad/estimate: base units. */
  amount: bigint;
  /** /v2/route: unix seconds. */
  deadline: number | bigint;
  /** /v2/route: percent, e.g. 2.5. */
  maxPriceImpact: number;
}

/** Where one name means different things on different endpoints. */
export interface NaturalParamTypesByEndpoint {
  /** Human-readable amounts in the token's units, e.g. 1.5. */
  route: { amountIn: number; amountOut: number };
  /** Base units: one amount, or a batch. */
  coreQuote: { amountIn: bigint | readonly (bigint | string)[] };
}

type Natural<N extends EndpointName, K> = N extends keyof NaturalParamTypesByEndpoint
  ? K extends keyof NaturalParamTypesByEndpoint[N]
    ? NaturalParamTypesByEndpoint[N][K]
    : ByName<K>
  : ByName<K>;
type ByName<K> = K extends keyof NaturalParamTypes ? NaturalParamTypes[K] : never;

/**
 * The parameters of an endpoint (query and path together): the names and optionality of `z.input` of its
 * schema in `ENDPOINTS`, each accepting its wire string or its natural JavaScript type.
 */
export type ClientParams<N extends EndpointName> = { [K in keyof EndpointParams<N>]: EndpointParams<N>[K] | Natural<N, K> };

/** The same with every parameter optional: what `request` takes, so that the API's own checks can be exercised. */
export type LooseParams<N extends EndpointName> = { [K in keyof EndpointParams<N>]?: EndpointParams<N>[K] | Natural<N, K> };

/** Every parameter name of the API. */
export type ParamName = { [N in EndpointName]: keyof EndpointParams<N> }[EndpointName];

// Compile-time guard: each name in the tables above is a parameter of the API.
type Assert<T extends true> = T;
type _NoStaleNaturalTypes = Assert<[Exclude<keyof NaturalParamTypes, ParamName>] extends [never] ? true : false>;
type _NoStaleEndpointTypes = Assert<
  [{ [N in keyof NaturalParamTypesByEndpoint]: Exclude<keyof NaturalParamTypesByEndpoint[N], keyof EndpointParams<N>> }[keyof NaturalParamTypesByEndpoint]] extends [never]
    ? true
    : false
>;

function scalar(name: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number': {
      const text = String(value);
      if (!Number.isFinite(value) || /e/i.test(text)) throw new TypeError(`${name}: ${text} has no plain decimal form; pass it as a string`);
      return text;
    }
    default:
      throw new TypeError(`${name}: cannot send a value of type ${value === null ? 'null' : typeof value}`);
  }
}

/** A parameter's wire form; `undefined` (and `null`) leave it out. */
export function serialiseParam(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => scalar(name, item)).join(',');
  return scalar(name, value);
}

/**
 * The path (path parameters substituted, URI-encoded) and query string of a request. A missing path parameter
 * is a `TypeError`: the request cannot be addressed.
 */
export function requestTarget(name: string, endpoint: Endpoint, params: Readonly<Record<string, unknown>> = {}): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_match, param: string) => {
    const value = serialiseParam(param, params[param]);
    if (value === undefined || value === '') throw new TypeError(`${name}: missing path parameter ${param}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [key, raw] of Object.entries(params)) {
    if (endpoint.pathParams.includes(key)) continue;
    const value = serialiseParam(key, raw);
    if (value !== undefined) query.append(key, value);
  }
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}
