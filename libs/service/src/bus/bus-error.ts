import { RpcException } from '@nestjs/microservices';
import { busErrorSchema, type BusErrorBody } from '@dex/messages';

/**
 * A failure a handler reports to its requester; `status` becomes the HTTP status at the gateway.
 * It is an RpcException, so Nest's exception layer hands its body through unchanged.
 */
export class BusError extends RpcException {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
  ) {
    super(details === undefined ? { status, message } : { status, message, details });
    this.name = 'BusError';
  }

  toBody(): BusErrorBody {
    return this.getError() as BusErrorBody;
  }

  /** The body of a BusError that crossed Nest's exception layer, or undefined for any other error. */
  static bodyOf(err: unknown): BusErrorBody | undefined {
    const parsed = busErrorSchema.safeParse(err instanceof BusError ? err.toBody() : err);
    return parsed.success ? parsed.data : undefined;
  }
}
