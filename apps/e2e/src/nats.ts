// One private NATS server per test file. Suites run in parallel, and services of the same name share a queue
// group: on one server, a suite's request could be answered by another suite's service (on another chain).
import { startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';

let server: Promise<PrivateNatsServer> | undefined;

/** The URL of this test file's own NATS server (JetStream on), started on first use. */
export function fileNatsUrl(): Promise<string> {
  server ??= startPrivateNatsServer();
  return server.then((s) => s.url);
}

afterAll(async () => {
  await (await server)?.dispose();
});
