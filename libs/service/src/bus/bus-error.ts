import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { catchError, throwError, type Observable } from 'rxjs';
import { transientFailure, type TransientFailureClassifier } from './transient';
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
    /** With a 503: how long the requester should wait before trying again, milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super({ status, message, ...(details === undefined ? {} : { details }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
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

/**
 * Turns what a bus handler throws because a dependency is busy or out of reach (`transientFailure`: a socket's
 * failure, or what one of `classifiers` recognises) into a 503 BusError before Nest's exception layer sees it (that
 * layer answers any error that is not a BusError as a generic one, losing what it was, and the server would answer
 * it 500). Other errors pass unchanged. It acts in the bus context only: `startService` registers it globally
 * (the microservice shares the app's settings), with the classifiers of the service's modules (ServiceModule's
 * `transientFailures`).
 */
@Injectable()
export class TransientFailureInterceptor implements NestInterceptor {
  constructor(private readonly classifiers: readonly TransientFailureClassifier[] = []) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    return next.handle().pipe(
      catchError((err: unknown) => {
        const transient = err instanceof BusError ? undefined : transientFailure(err, this.classifiers);
        const subject = (context.switchToRpc().getContext() as { subject?: string } | undefined)?.subject ?? context.getHandler().name;
        return throwError(() => (transient ? new BusError(503, 'Service temporarily unavailable', `${subject}: ${transient}`, 1_000) : err));
      }),
    );
  }
}
