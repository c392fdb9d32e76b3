import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { LOG_LEVELS } from '../config/config';

/** Levels at or above `level`, in Nest's naming. */
export function levelsFrom(level: (typeof LOG_LEVELS)[number]): LogLevel[] {
  const index = LOG_LEVELS.indexOf(level);
  return LOG_LEVELS.slice(0, index + 1) as LogLevel[];
}

/** One JSON object per line on stdout/stderr, with the service name as the context prefix. */
export function createJsonLogger(service: string, level: (typeof LOG_LEVELS)[number] = 'log'): ConsoleLogger {
  return new ConsoleLogger(service, { json: true, logLevels: levelsFrom(level), colors: false });
}
