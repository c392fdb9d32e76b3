import { Controller, Get, Header, Inject } from '@nestjs/common';
import { MetricsRegistry } from './metrics';

/** `GET /metrics`: the service's metrics in the Prometheus text format. */
@Controller()
export class MetricsController {
  constructor(@Inject(MetricsRegistry) private readonly metrics: MetricsRegistry) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): string {
    return this.metrics.render();
  }
}
