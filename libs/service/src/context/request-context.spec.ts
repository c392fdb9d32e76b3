import type { LogLevel } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { JsonLogger, type JsonLogLine } from '../logging/logger';
import { currentRequestId, requestIdFrom, runWithRequestId, saneRequestId } from './request-context';

/** A JsonLogger that keeps the lines it would write. */
class CapturingLogger extends JsonLogger {
  readonly lines: JsonLogLine[] = [];

  constructor() {
    super('test', { json: true, colors: false, logLevels: ['log', 'error', 'warn'] });
  }

  protected override printAsJson(message: unknown, options: { context: string; logLevel: LogLevel }): void {
    this.lines.push(this.getJsonLogObject(message, options));
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('takes a sane caller id and refuses anything else', () => {
    expect(saneRequestId('abc-123')).toBe('abc-123');
    expect(saneRequestId('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBeDefined();
    expect(saneRequestId('x'.repeat(128))).toBe('x'.repeat(128));
    expect(saneRequestId('x'.repeat(129))).toBeUndefined();
    expect(saneRequestId('')).toBeUndefined();
    expect(saneRequestId('has space')).toBeUndefined();
    expect(saneRequestId('line\nbreak')).toBeUndefined();
    expect(saneRequestId('"quoted"')).toBeUndefined();
    expect(saneRequestId(['a', 'b'])).toBeUndefined();
    expect(saneRequestId(undefined)).toBeUndefined();
    expect(requestIdFrom('given-id')).toBe('given-id');
    expect(requestIdFrom('bad id')).toMatch(UUID);
    expect(requestIdFrom(undefined)).toMatch(UUID);
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });

  it('follows the work of a request across awaits, timers and events, and not beyond it', async () => {
    const emitter = new EventEmitter();
    const seen: (string | undefined)[] = [];
    emitter.on('tick', () => seen.push(currentRequestId()));
    expect(currentRequestId()).toBeUndefined();
    await Promise.all([
      runWithRequestId('one', async () => {
        await new Promise((r) => setTimeout(r, 20));
        seen.push(currentRequestId());
        emitter.emit('tick');
      }),
      runWithRequestId('two', async () => {
        await Promise.resolve();
        seen.push(currentRequestId());
        await runWithRequestId('nested', async () => seen.push(currentRequestId()));
        seen.push(currentRequestId());
      }),
    ]);
    expect(seen).toEqual(['two', 'nested', 'two', 'one', 'one']);
    expect(currentRequestId()).toBeUndefined();
  });
});

describe('JsonLogger', () => {
  it('adds requestId to the lines written within a request, and only to those', async () => {
    const logger = new CapturingLogger();
    logger.log({ msg: 'outside' });
    await runWithRequestId('req-1', async () => {
      await new Promise((r) => setImmediate(r));
      logger.log({ msg: 'inside' }, 'ctx');
      logger.error({ msg: 'failed inside' });
    });
    logger.warn('after');
    expect(logger.lines).toEqual([
      expect.not.objectContaining({ requestId: expect.anything() }),
      expect.objectContaining({ level: 'log', requestId: 'req-1', context: 'ctx', message: { msg: 'inside' } }),
      expect.objectContaining({ level: 'error', requestId: 'req-1', message: { msg: 'failed inside' } }),
      expect.not.objectContaining({ requestId: expect.anything() }),
    ]);
  });
});
