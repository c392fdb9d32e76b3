import { HTTP_FAILURES, REQUEST_ID_HEADER } from '@dex/messages';
import type { ServiceDefinition } from '@dex/service';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';

interface Failure {
  readonly status: number;
  readonly message: string;
}

/** What Fastify finds wrong before routing a request (`frameworkErrors`), by error code. */
const ROUTING_FAILURES: Record<string, Failure> = {
  FST_ERR_BAD_URL: HTTP_FAILURES.badUrl,
  FST_ERR_MAX_PARAM_LENGTH: HTTP_FAILURES.uriTooLong,
};

/** What Node's HTTP parser refuses (the server's `clientError` event), by error code; any other is a 400. */
const CONNECTION_FAILURES: Record<string, Failure> = {
  HPE_HEADER_OVERFLOW: HTTP_FAILURES.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: HTTP_FAILURES.timeout,
};

/** A request line's start: a method token then a space, at the start of the packet or after an earlier request's end. */
const REQUEST_START = /(?:^|\r\n\r\n)([A-Z]{3,10}) /g;

/**
 * The method of the request Node's parser refused, read from the packet it was parsing (`rawPacket`, up to
 * `bytesParsed` where known): the last request line that starts in it. Undefined when the packet holds none
 * (the request line came in an earlier packet of the same request).
 */
export function refusedMethod(rawPacket: unknown, bytesParsed?: number): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const text = rawPacket.subarray(0, bytesParsed === undefined || bytesParsed <= 0 ? undefined : Math.min(rawPacket.length, bytesParsed + 1)).toString('latin1');
  let method: string | undefined;
  for (const m of text.matchAll(REQUEST_START)) method = m[1];
  return method;
}

/**
 * Failures met before any route answer `{success: false, error}` too, with the status Fastify would give them:
 * a URL that does not decode (`%zz`), a path parameter over Fastify's length limit, a request whose line and
 * headers exceed Node's limit (16 KB) or that Node cannot parse.
 */
export const gatewayHttpErrors: NonNullable<ServiceDefinition<unknown>['httpErrors']> = {
  frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const failure = ROUTING_FAILURES[error.code] ?? { status: 500, message: 'Internal server error' };
    // Sent outside the route hooks: the request id header is set here.
    void reply.status(failure.status).header(REQUEST_ID_HEADER, request.id).send({ success: false, error: failure.message });
  },
  clientErrorHandler: (error, socket) => {
    // As Fastify's own handler: a reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const failure = CONNECTION_FAILURES[error.code] ?? HTTP_FAILURES.badRequest;
    const body = JSON.stringify({ success: false, error: failure.message });
    // The answer to a HEAD request has no body (RFC 9110, 9.3.2): its headers are those a GET would get.
    const head = refusedMethod((error as { rawPacket?: unknown }).rawPacket, (error as { bytesParsed?: number }).bytesParsed) === 'HEAD';
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
      );
    }
    socket.destroy(error);
  },
};
