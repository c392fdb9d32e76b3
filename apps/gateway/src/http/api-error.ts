import { HttpException } from '@nestjs/common';
import type { BusErrorBody, Reply } from '@dex/messages';

/** Seconds in `Retry-After` of a 503 whose cause did not say how long to wait. */
export const DEFAULT_RETRY_AFTER_S = 1;

/** A failure answered as `{success: false, error, details?}` with an HTTP status (a 503 with `Retry-After`). */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    details?: string,
    /** With a 503: how long the client should wait before trying again, milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(details === undefined ? { success: false, error: message } : { success: false, error: message, details }, status);
  }

  static badRequest(message: string, details?: string): ApiError {
    return new ApiError(400, message, details);
  }

  static fromBus(error: BusErrorBody): ApiError {
    return new ApiError(error.status, error.message, error.details, error.retryAfterMs);
  }
}

/** Unwraps a bus reply into the REST envelope `{success: true, data}`, or throws its failure. */
export function envelope<T>(reply: Reply<T>): { success: true; data: T } {
  if (!reply.ok) throw ApiError.fromBus(reply.error);
  return { success: true, data: reply.data };
}

/** The `Retry-After` value (whole seconds) of a failure answered with `status`, or undefined when it takes none. */
export function retryAfterSeconds(status: number, exception: unknown): number | undefined {
  if (status !== 503) return undefined;
  const ms = exception instanceof ApiError ? exception.retryAfterMs : undefined;
  return ms === undefined ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil(ms / 1_000));
}
