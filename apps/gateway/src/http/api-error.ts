import { HttpException } from '@nestjs/common';
import type { BusErrorBody, Reply } from '@dex/messages';

/** A failure answered as `{success: false, error, details?}` with an HTTP status. */
export class ApiError extends HttpException {
  constructor(status: number, message: string, details?: string) {
    super(details === undefined ? { success: false, error: message } : { success: false, error: message, details }, status);
  }

  static badRequest(message: string, details?: string): ApiError {
    return new ApiError(400, message, details);
  }

  static fromBus(error: BusErrorBody): ApiError {
    return new ApiError(error.status, error.message, error.details);
  }
}

/** Unwraps a bus reply into the REST envelope `{success: true, data}`, or throws its failure. */
export function envelope<T>(reply: Reply<T>): { success: true; data: T } {
  if (!reply.ok) throw ApiError.fromBus(reply.error);
  return { success: true, data: reply.data };
}
