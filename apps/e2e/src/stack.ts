// A stack under test: fresh chains, a database of its own and a private NATS server, then the named apps on
// them (each with the settings every app reads: the chains' RPC URLs, NATS_URL, DATABASE_URL, SOURCES_CONFIG).
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { startApp, type AppProcess } from './processes';

export interface TestStack {
  readonly chains: TestChains;
  readonly db: TestDatabase;
  readonly nats: PrivateNatsServer;
  /** The settings the apps were started with. */
  readonly env: Record<string, string>;
  /** The started apps, by name. */
  app(name: string): AppProcess;
  /** Starts more apps, in parallel, with the stack's settings and `env` over them. */
  startApps(names: readonly string[], env?: Record<string, string>): Promise<void>;
  /** Stops the apps, then the chains, the database and the NATS server. */
  stop(): Promise<void>;
}

export interface TestStackOptions {
  readonly chainIds?: readonly number[];
  /** Apps to start, in parallel. */
  readonly apps: readonly string[];
  /** Settings beyond the common ones (they win over them). */
  readonly env?: Record<string, string>;
  /** Runs on the chains before any app starts (e.g. transactions the apps should find already mined). */
  readonly beforeApps?: (chains: TestChains) => Promise<void>;
}

export async function startTestStack(options: TestStackOptions): Promise<TestStack> {
  const [chains, db, nats] = await Promise.all([startTestChains(options.chainIds ?? [999]), createTestDatabase(), startPrivateNatsServer()]);
  const apps = new Map<string, AppProcess>();
  const stop = async () => {
    await Promise.all([...apps.values()].map((a) => a.stop()));
    await Promise.all([chains.stop(), db.drop(), nats.dispose()]);
  };
  // The gateway refuses requests while its event loop lags (HTTP_MAX_EVENT_LOOP_LAG_MS, 100 ms deployed): on a busy
  // test machine that would fail functional requests at random. Stacks relax it unless a test sets it; the refusal
  // itself is covered by its own spec and bench/overload.
  const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, HTTP_MAX_EVENT_LOOP_LAG_MS: '60000', ...options.env };
  // The gateway's /health asks the services of the stack (`HEALTH_SERVICES`), unless a test names others.
  const services = options.apps.filter((name) => name !== 'gateway' && name !== 'devnet');
  const appEnv = (name: string, extra: Record<string, string>) => ({ ...env, ...(name === 'gateway' && services.length > 0 ? { HEALTH_SERVICES: services.join(',') } : {}), ...options.env, ...extra });
  const startApps = async (names: readonly string[], extra: Record<string, string> = {}) => {
    const started = await Promise.allSettled(names.map(async (name) => apps.set(name, await startApp(name, appEnv(name, extra)))));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    await options.beforeApps?.(chains);
    await startApps(options.apps);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    chains,
    db,
    nats,
    env,
    app: (name) => {
      const app = apps.get(name);
      if (!app) throw new Error(`${name} is not part of this stack`);
      return app;
    },
    startApps,
    stop,
  };
}
