import { ENDPOINTS, parseEndpointInput, type EndpointName, type Endpoints } from '@dex/messages';
import type { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError, envelope } from './api-error';

/** The Nest route of an endpoint: its OpenAPI path with `{name}` written `:name`. */
export function routeOf(name: EndpointName): string {
  return ENDPOINTS[name].path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * A request's parameters validated with the endpoint's schema (the one the OpenAPI document is generated
 * from), as the request the gateway sends over NATS; a 400 with the API's message otherwise.
 */
export function validated<N extends EndpointName>(name: N, request: FastifyRequest): z.output<Endpoints[N]['input']> {
  const parsed = parseEndpointInput(ENDPOINTS[name], (request.query ?? {}) as Record<string, unknown>, (request.params ?? {}) as Record<string, unknown>);
  if (!parsed.ok) throw ApiError.badRequest(parsed.error.message, parsed.error.details);
  return parsed.value as z.output<Endpoints[N]['input']>;
}

/** Validates the request, asks the endpoint's service over NATS and answers its reply in the envelope. */
export async function forward(bus: NatsBus, name: EndpointName, request: FastifyRequest): Promise<{ success: true; data: unknown }> {
  const contract = ENDPOINTS[name].contract;
  if (contract === undefined) throw new Error(`${name} is not answered over NATS`);
  return envelope(await bus.request(contract, validated(name, request), { requestId: request.id }));
}
