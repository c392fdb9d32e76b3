import type { BusErrorBody } from '@dex/messages';

/** A failure a handler reports to its requester; `status` becomes the HTTP status at the gateway. */
export class BusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'BusError';
  }

  toBody(): BusErrorBody {
    return this.details === undefined
      ? { status: this.status, message: this.message }
      : { status: this.status, message: this.message, details: this.details };
  }
}
