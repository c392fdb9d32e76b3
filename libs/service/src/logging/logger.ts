import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { LOG_LEVELS } from '../config/config';
import { currentRequestId } from '../context/request-context';

/** Levels at or above `level`, in Nest's naming. */
export function levelsFrom(level: (typeof LOG_LEVELS)[number]): LogLevel[] {
  const index = LOG_LEVELS.indexOf(level);
  return LOG_LEVELS.slice(0, index + 1) as LogLevel[];
}

/** One log line as written. */
export interface JsonLogLine {
  level: LogLevel;
  pid: number;
  timestamp: number;
  message: unknown;
  context?: string;
  stack?: unknown;
  requestId?: string;
}

/**
 * One JSON object per line on stdout/stderr, with the service name as the context prefix. A line written
 * while a request is handled (an HTTP request, a bus request, or work started from one) carries its
 * `requestId`.
 */
export class JsonLogger extends ConsoleLogger {
  protected override getJsonLogObject(
    message: unknown,
    options: { context: string; logLevel: LogLevel; writeStreamType?: 'stdout' | 'stderr'; errorStack?: unknown },
  ): JsonLogLine {
    const line = super.getJsonLogObject(message, options);
    const requestId = currentRequestId();
    return requestId === undefined ? line : { ...line, requestId };
  }
}

export function createJsonLogger(service: string, level: (typeof LOG_LEVELS)[number] = 'log'): JsonLogger {
  return new JsonLogger(service, { json: true, logLevels: levelsFrom(level), colors: false });
}
