import { healthContract } from '@dex/messages';
import { withTimeout, type NatsBus } from '../bus/nats-bus';

/** One dependency the service needs to do its work. `run` rejects when the dependency is unusable. */
export interface HealthCheck {
  readonly name: string;
  run(): Promise<Record<string, unknown> | void>;
  /** How long the check may take, milliseconds; the report's bound when unset. */
  readonly timeoutMs?: number;
}

export interface CheckResult {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: 'ok' | 'error';
  service: string;
  checks: Record<string, CheckResult>;
}

/** A check's failure that says more than its message: `details` stand beside `error` in the report. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/** Runs every check in parallel, each bounded by its own `timeoutMs` or else by `timeoutMs`. */
export async function runChecks(service: string, checks: readonly HealthCheck[], timeoutMs = 2_500): Promise<HealthReport> {
  const entries = await Promise.all(
    checks.map(async (check): Promise<[string, CheckResult]> => {
      const started = performance.now();
      const bound = check.timeoutMs ?? timeoutMs;
      try {
        const details = await withTimeout(check.run(), bound, `no answer within ${bound} ms`);
        return [check.name, { status: 'up', latencyMs: Math.round(performance.now() - started), ...(details ?? {}) }];
      } catch (err) {
        return [
          check.name,
          {
            status: 'down',
            latencyMs: Math.round(performance.now() - started),
            error: err instanceof Error ? err.message : String(err),
            ...(err instanceof CheckFailure ? err.details : {}),
          },
        ];
      }
    }),
  );
  const results = Object.fromEntries(entries);
  const ok = entries.every(([, r]) => r.status === 'up');
  return { status: ok ? 'ok' : 'error', service, checks: results };
}

/** NATS answers a PING. */
export function natsCheck(bus: NatsBus): HealthCheck {
  return {
    name: 'nats',
    run: async () => ({ rttMs: Math.round((await bus.ping()) * 10) / 10 }),
  };
}

/**
 * Another service's readiness, asked on its `<service>.health` subject: up when it answers within `timeoutMs` that
 * every one of its checks is up, down when it does not answer in time (or at all) or reports a check down. Its own
 * checks come along under `checks`, either way.
 */
export function serviceCheck(bus: NatsBus, service: string, timeoutMs: number): HealthCheck {
  const contract = healthContract(service);
  return {
    name: service,
    // The bus's own timeout answers first, saying what happened; this bound is only a backstop.
    timeoutMs: timeoutMs + 500,
    run: async () => {
      const reply = await bus.request(contract, {}, { timeoutMs });
      if (!reply.ok) throw new Error(reply.error.details ? `${reply.error.message}: ${reply.error.details}` : reply.error.message);
      const { status, checks } = reply.data;
      if (status !== 'ok') {
        const down = Object.entries(checks)
          .filter(([, c]) => c.status !== 'up')
          .map(([name]) => name);
        throw new CheckFailure(`${down.join(', ') || 'a check'} down`, { checks });
      }
      return { checks };
    },
  };
}
