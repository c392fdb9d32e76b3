import { z } from 'zod';
import { healthSubject } from './subjects';

/**
 * A request/reply contract on the bus: the subject and the schemas of both directions.
 * Both sides validate: the requester before sending and on the reply, the responder on receipt and
 * before replying.
 */
export interface MessageContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly description: string;
  readonly request: Req;
  readonly response: Res;
}

export function defineContract<Req extends z.ZodType, Res extends z.ZodType>(
  contract: MessageContract<Req, Res>,
): MessageContract<Req, Res> {
  return contract;
}

export type RequestOf<C extends MessageContract> = z.input<C['request']>;
export type ParsedRequestOf<C extends MessageContract> = z.output<C['request']>;
export type ResponseOf<C extends MessageContract> = z.output<C['response']>;

/** A typed failure carried back over the bus; `status` is the HTTP status the gateway answers with. */
export const busErrorSchema = z.object({
  status: z.number().int().min(400).max(599),
  message: z.string(),
  details: z.string().optional(),
  /** With a 503: how long to wait before trying again, milliseconds (the gateway's `Retry-After`). */
  retryAfterMs: z.number().int().positive().optional(),
});
export type BusErrorBody = z.infer<typeof busErrorSchema>;

/** Wire shape of every reply: `{ok: true, data}` or `{ok: false, error}`. */
export function replySchema<Res extends z.ZodType>(response: Res) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data: response }),
    z.object({ ok: z.literal(false), error: busErrorSchema }),
  ]);
}

export type Reply<T> = { ok: true; data: T } | { ok: false; error: BusErrorBody };

/** Header that carries the request id across the bus. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Header that carries a request's remaining time across the bus, in whole milliseconds from when it is sent: the
 * handler answers within it or not at all, and passes what is left on to the requests it makes in turn.
 */
export const REQUEST_TIMEOUT_HEADER = 'x-request-timeout-ms';

/** Summarises zod issues as `param: message` pairs for a 400 `details` string. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** One check of a readiness report: its dependency `up` or `down` (`error` says why), and what it found. */
const checkResultSchema = z.looseObject({ status: z.enum(['up', 'down']), latencyMs: z.number(), error: z.string().optional() });

/** Readiness report of a service, as served on `<service>.health` and at its HTTP health endpoint. */
export const healthReportSchema = z.object({
  status: z.enum(['ok', 'error']),
  service: z.string(),
  checks: z.record(z.string(), checkResultSchema),
});

/**
 * The gateway's `GET /health`: its own checks (`nats`) and, under each service's name, that service's answer on
 * `<service>.health`: `up` with the service's own `checks` (NATS, Postgres, each chain's RPC, as it has them), or
 * `down` saying why (no answer within the bound, or some of its checks down, listed under `checks`).
 */
export const gatewayHealthReportSchema = healthReportSchema.extend({
  checks: z.record(z.string(), checkResultSchema.extend({ checks: z.record(z.string(), checkResultSchema).optional() })),
});

/** Every service answers `<service>.health` in its queue group with its readiness report. */
export function healthContract(service: string) {
  return defineContract({
    subject: healthSubject(service),
    description: `Readiness of ${service}: its dependencies and whether each answers`,
    request: z.object({}),
    response: healthReportSchema,
  });
}
