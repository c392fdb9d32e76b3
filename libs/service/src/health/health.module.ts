import { Controller, Get, Inject, Module, type DynamicModule } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Res } from '@nestjs/common';
import { runChecks, type HealthCheck, type HealthReport } from './health';

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

/** Gathers the service's checks; readiness is green only when every dependency answers. */
export class HealthService {
  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    @Inject(HEALTH_CHECKS) private readonly checks: readonly HealthCheck[],
  ) {}

  /** The report of the service's checks, and of `more` beside them (the gateway's `/health` adds the services). */
  readiness(more: readonly HealthCheck[] = []): Promise<HealthReport> {
    return runChecks(this.service, [...this.checks, ...more]);
  }
}

/** `GET /health/live` (the process answers) and `GET /health/ready` (its dependencies answer). */
@Controller('health')
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  @Get('live')
  live() {
    return { success: true, data: { status: 'ok' } };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.health.readiness();
    reply.status(report.status === 'ok' ? 200 : 503);
    return { success: report.status === 'ok', data: report };
  }
}

@Module({})
export class HealthModule {
  static register(options: { service: string; checks: () => readonly HealthCheck[] }): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_NAME, useValue: options.service },
        { provide: HEALTH_CHECKS, useFactory: options.checks },
        HealthService,
      ],
      exports: [HealthService],
    };
  }
}
