import { z } from 'zod';

/** A setting is missing or malformed; the message names the setting. The service refuses to start. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: readonly string[],
  ) {
    super(`${service} cannot start: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

/** Settings every service has. */
export const baseSettings = {
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('log'),
  HTTP_HOST: z.string().min(1).default('0.0.0.0'),
  /** Per-request timeout of bus requests, in milliseconds. */
  BUS_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** Admission control of the subjects a service answers (each subject apart); unset: the service's own defaults. */
  BUS_MAX_IN_FLIGHT: z.coerce.number().int().positive().optional(),
  BUS_MAX_QUEUED: z.coerce.number().int().nonnegative().optional(),
  BUS_MAX_QUEUE_WAIT_MS: z.coerce.number().int().positive().optional(),
  /** At the gateway, HTTP requests arriving while the event loop lags more than this are refused (503), milliseconds. */
  HTTP_MAX_EVENT_LOOP_LAG_MS: z.coerce.number().int().positive().default(100),
};

export const httpPortSetting = (fallback: number) => ({ HTTP_PORT: port(fallback) });

/** The environment settings are read from. */
export type Env = Record<string, string | undefined>;

function describe(issue: z.core.$ZodIssue, env: Env): string {
  const name = String(issue.path[0] ?? '');
  if (name && (env[name] === undefined || env[name] === '')) return `missing required setting ${name}`;
  return `invalid setting ${name}: ${issue.message}`;
}

/** Parses and validates the environment against a settings shape; throws ConfigError naming each bad setting. */
export function loadSettings<S extends z.ZodRawShape>(service: string, shape: S, env: Env = process.env) {
  const cleaned: Env = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    cleaned[key] = value === '' ? undefined : value;
  }
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      service,
      result.error.issues.map((issue) => describe(issue, env)),
    );
  }
  return result.data;
}
