// Readiness probe for services: one `SELECT 1` bounded by a timeout.
import type { DbClient } from './client';

export interface DatabaseHealth {
  ok: boolean;
  latencyMs: number;
  /** Why the check failed; absent when ok. */
  error?: string;
}

export async function checkDatabase(client: DbClient, timeoutMs = 2_000): Promise<DatabaseHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([client.$queryRaw`SELECT 1`, timeout]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
