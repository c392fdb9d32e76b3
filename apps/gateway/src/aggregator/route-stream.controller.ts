import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ROUTE_STREAM_PATH } from '@dex/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validated } from '../http/endpoint';
import { RouteStreams, type StreamSink } from './route-streams';

/**
 * `GET /v2/route/stream`: a live route, as Server-Sent Events. The request is checked as `/v2/route`'s (a 400 in the
 * API's shape before any event), the stream limits then (a 429), and the stream opens: `event: route` with a complete
 * `/v2/route` answer at once and at every view whose answer changed, `event: error` in the API's error shape, a
 * heartbeat comment otherwise, `event: end` at the maximum duration. The client closing the connection ends it.
 */
@Controller()
export class RouteStreamController {
  constructor(@Inject(RouteStreams) private readonly streams: RouteStreams) {}

  @Get(ROUTE_STREAM_PATH)
  stream(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    const request = validated('route', req);
    // Past the limits: a 429 answered by the error filter like any other failure, before the stream starts.
    this.streams.admit(req.ip);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': req.id,
    });
    // A client that reconnects waits a second.
    raw.write('retry: 1000\n\n');
    let open = true;
    const write = (text: string): void => {
      if (open && !raw.destroyed) raw.write(text);
    };
    const sink: StreamSink = {
      event: (name, data, id) => write(`event: ${name}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`),
      comment: (text) => write(`: ${text}\n\n`),
      end: () => {
        if (!open) return;
        open = false;
        raw.end();
      },
    };
    const close = this.streams.open(req.ip, request, sink);
    raw.on('close', () => {
      open = false;
      close();
    });
  }
}
