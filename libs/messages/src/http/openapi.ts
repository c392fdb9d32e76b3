import { z } from 'zod';
import { ENDPOINTS, errorEnvelopeSchema, ROUTE_STREAM_PATH, TOO_MANY_STREAMS, type Endpoint } from './endpoints';

type JsonSchema = Record<string, unknown>;

/** Version of the REST contract described by the document. */
export const API_VERSION = '2.0.0';

export interface OpenApiOptions {
  readonly title?: string;
  readonly version: string;
  /** Base URLs the document offers for "try it out"; default: the host serving the document. */
  readonly servers?: readonly { url: string; description?: string }[];
}

const TAGS = [
  { name: 'aggregator', description: 'Best routes across every liquidity source, with RouterV2 calldata; token lists, pools and balances' },
  { name: 'core', description: 'The oracle-validated AMM: quotes with router calldata, pools and their 24-hour statistics' },
  { name: 'launchpad', description: 'Tokens on the bonding curve: listings, curve state, trades and estimates' },
  { name: 'service', description: 'Health, metrics and this document' },
];

/** A zod schema as a JSON Schema 2020-12 object (OpenAPI 3.1 schemas are JSON Schema), in its wire (input) form. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A parameter's default and examples are given in its wire form (a query string), so they hold for the input
    // side even where the schema transforms the value; zod keeps them only for the output side of a transform.
    override: ({ zodSchema, jsonSchema }) => {
      const meta = z.globalRegistry.get(zodSchema);
      if (meta?.default !== undefined) jsonSchema.default = meta.default;
      if (meta?.examples !== undefined) jsonSchema.examples = meta.examples as never;
      // `z.number().int()` bounds itself to the safe-integer range; that says nothing to a reader.
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  }) as JsonSchema;
  return json;
}

const REQUEST_ID = {
  description: 'The request id: the caller\'s `x-request-id` when usable (1 to 128 characters of letters, digits and `._:@/+=-`), otherwise a new UUID',
  schema: { type: 'string' },
};
const REQUEST_ID_PARAMETER = { name: 'x-request-id', in: 'header', required: false, ...REQUEST_ID };

function parametersOf(endpoint: Endpoint): JsonSchema[] {
  const json = jsonSchemaOf(endpoint.input);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const parameters = Object.entries(properties).map(([name, property]): JsonSchema => {
    const { description, ...schema } = property;
    const inPath = endpoint.pathParams.includes(name);
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema,
    };
  });
  return [...parameters, REQUEST_ID_PARAMETER];
}

function responsesOf(endpoint: Endpoint): JsonSchema {
  const responses: JsonSchema = {
    200: { description: endpoint.summary, headers: { 'x-request-id': REQUEST_ID }, content: { 'application/json': { schema: jsonSchemaOf(endpoint.body) } } },
  };
  const byStatus = new Map<number, string[]>();
  for (const e of endpoint.errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e.message]);
  for (const [status, messages] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: messages.map((m) => `\`${m}\``).join(', '),
      headers: { 'x-request-id': REQUEST_ID },
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorEnvelopeSchema),
          examples: Object.fromEntries(messages.map((m, i) => [`e${i + 1}`, { summary: m, value: { success: false, error: m } }])),
        },
      },
    };
  }
  return responses;
}

/** The OpenAPI 3.1 document of the REST API, generated from the schemas the gateway validates with. */
export function buildOpenApiDocument(options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of Object.values(ENDPOINTS) as Endpoint[]) {
    paths[endpoint.path] = {
      ...paths[endpoint.path],
      [endpoint.method.toLowerCase()]: {
        operationId: endpoint.operationId,
        tags: [endpoint.tag],
        summary: endpoint.summary,
        ...(endpoint.description ? { description: endpoint.description } : {}),
        parameters: parametersOf(endpoint),
        responses: responsesOf(endpoint),
      },
    };
  }
  // Live routes: /v2/route's parameters, its answers as Server-Sent Events.
  const route = ENDPOINTS.route as Endpoint;
  const refusals = responsesOf({ ...route, errors: [...route.errors.filter((e) => e.status === 400), { status: 429, message: TOO_MANY_STREAMS }] });
  delete refusals[200];
  paths[ROUTE_STREAM_PATH] = {
    get: {
      operationId: 'routeStream',
      tags: [route.tag],
      summary: 'A live route: the /v2/route answer as Server-Sent Events, again at every block in which it changed',
      description:
        'The same parameters as /v2/route, checked the same way (a 400 before the stream). Events: `route`, a complete /v2/route answer in the ' +
        'envelope (`{success: true, data}`, with its quoteId and blockNumber; `id:` the block), at once and then at each new block of the ' +
        "aggregator's liquidity view in which the answer changed (amounts, path or calldata); `error`, the API's error shape " +
        '(`{success: false, error, status, details?}`) when the route is refused or fails, once until the answer changes; a comment line ' +
        '(`: …`) when a view changed nothing, and at least every 15 s; `end` (`{reason: "maxDuration"}`) when the stream reaches its maximum ' +
        'duration (15 minutes by default), after which the connection closes. Identical requests share one search per block. ' +
        'Limits: 10 streams per client address and 5,000 in all by default, a 429 past them.',
      parameters: parametersOf(route),
      responses: {
        200: { description: 'The stream of events', headers: { 'x-request-id': REQUEST_ID }, content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...refusals,
      },
    },
  };
  // Endpoints that answer something other than JSON in the envelope.
  for (const [path, operationId, summary, type] of [
    ['/metrics', 'metrics', 'Prometheus metrics in the text exposition format', 'text/plain'],
    ['/openapi.json', 'openapi', 'This OpenAPI 3.1 document', 'application/json'],
    ['/docs', 'docs', 'Interactive documentation of this document', 'text/html'],
  ] as const) {
    const schema = { type: type === 'application/json' ? 'object' : 'string' };
    paths[path] = { get: { operationId, tags: ['service'], summary, responses: { 200: { description: summary, content: { [type]: { schema } } } } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'DEX API',
      version: options.version,
      description:
        'Swap aggregation, the oracle-validated AMM ("core") and the token launchpad on chains 999 (HyperEVM) and 4663. ' +
        'Every endpoint is public and uses GET. Successes answer `{success: true, data}`; failures answer an HTTP error status with ' +
        '`{success: false, error, details?}`. Each response carries an `x-request-id` header (an incoming one is honoured).',
    },
    ...(options.servers ? { servers: options.servers } : {}),
    tags: TAGS,
    paths,
  };
}
