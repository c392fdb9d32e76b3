import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthService } from '@dex/service';
import type { FastifyReply } from 'fastify';

/** `GET /health`: readiness of the gateway's dependencies (NATS, Postgres, each chain's RPC). 503 when any is down. */
@Controller()
export class GatewayHealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  @Get('health')
  async health_(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.health.readiness();
    reply.status(report.status === 'ok' ? 200 : 503);
    return { success: report.status === 'ok', data: report };
  }
}
