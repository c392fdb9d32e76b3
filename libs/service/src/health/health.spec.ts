import { CheckFailure, runChecks, type HealthCheck } from './health';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const check = (name: string, run: HealthCheck['run'], timeoutMs?: number): HealthCheck => ({ name, run, ...(timeoutMs === undefined ? {} : { timeoutMs }) });

describe('runChecks', () => {
  it('is ok when every check is up, with what each found', async () => {
    const report = await runChecks('svc', [check('a', async () => ({ rttMs: 1 })), check('b', async () => undefined)]);
    expect(report).toEqual({
      status: 'ok',
      service: 'svc',
      checks: { a: { status: 'up', latencyMs: expect.any(Number), rttMs: 1 }, b: { status: 'up', latencyMs: expect.any(Number) } },
    });
  });

  it('is an error when one check fails, saying why; a CheckFailure brings its details beside the error', async () => {
    const report = await runChecks('svc', [
      check('a', async () => undefined),
      check('b', async () => {
        throw new Error('refused');
      }),
      check('c', async () => {
        throw new CheckFailure('x down', { checks: { x: { status: 'down', latencyMs: 1 } } });
      }),
    ]);
    expect(report.status).toBe('error');
    expect(report.checks.a.status).toBe('up');
    expect(report.checks.b).toEqual({ status: 'down', latencyMs: expect.any(Number), error: 'refused' });
    expect(report.checks.c).toEqual({ status: 'down', latencyMs: expect.any(Number), error: 'x down', checks: { x: { status: 'down', latencyMs: 1 } } });
  });

  it("bounds each check by its own timeoutMs, else by the report's", async () => {
    const started = performance.now();
    const report = await runChecks(
      'svc',
      [check('own', () => sleep(1_000), 50), check('patient', () => sleep(150), 400), check('shared', () => sleep(1_000))],
      100,
    );
    expect(performance.now() - started).toBeLessThan(600);
    expect(report.checks.own).toMatchObject({ status: 'down', error: 'no answer within 50 ms' });
    // Longer than the report's bound, within its own.
    expect(report.checks.patient.status).toBe('up');
    expect(report.checks.shared).toMatchObject({ status: 'down', error: 'no answer within 100 ms' });
  });
});
