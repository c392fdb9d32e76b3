import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthService, type HealthCheck } from '@dex/service';
import type { FastifyReply } from 'fastify';

/** The checks of the services `GET /health` asks (`serviceCheck` of each of `HEALTH_SERVICES`). */
export const SERVICE_CHECKS = Symbol('SERVICE_CHECKS');

/**
 * `GET /health`: the gateway's own readiness (NATS) and each service's, asked on `<service>.health`; 503 when any
 * is down, a service that does not answer in time among them. The gateway reaches no chain and no database: each
 * service's answer says how its own stand. (`/health/ready`, the gateway's probe, is its own readiness alone.)
 */
@Controller()
export class GatewayHealthController {
  constructor(
    @Inject(HealthService) private readonly health: HealthService,
    @Inject(SERVICE_CHECKS) private readonly services: readonly HealthCheck[],
  ) {}

  @Get('health')
  async health_(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.health.readiness(this.services);
    reply.status(report.status === 'ok' ? 200 : 503);
    return { success: report.status === 'ok', data: report };
  }
}
