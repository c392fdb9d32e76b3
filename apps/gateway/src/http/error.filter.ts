import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterSeconds } from './api-error';

/**
 * Every failure leaves as `{success: false, error, details?}`; nothing unexpected leaks beyond a 500. A 503 carries
 * `Retry-After` (seconds).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // A 503 (a service overloaded, a chain or the bus out of reach) says when to try again.
      const retryAfter = retryAfterSeconds(status, exception);
      if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
      const body = exception.getResponse();
      if (typeof body === 'object' && body !== null && 'success' in body) {
        void reply.status(status).send(body);
        return;
      }
      const message =
        status === 404 ? `Not found: ${request.method} ${request.url.split('?')[0]}` : typeof body === 'string' ? body : exception.message;
      void reply.status(status).send({ success: false, error: message });
      return;
    }
    this.logger.error({ msg: 'unhandled error', requestId: request.id, url: request.url, err: String(exception) });
    void reply.status(500).send({ success: false, error: 'Internal server error' });
  }
}
