import { CHAIN_FACTS, chainFactSubject, healthSubject, QUEUE_GROUPS, quoteTopic, SUBJECTS } from '@dex/messages';
import { MetricsRegistry } from './metrics';
import { httpMetrics, natsHandlerHistogram, natsRequestHistogram, replyOutcome, subjectLabel } from './service-metrics';

describe('service metrics', () => {
  it('keeps subject labels bounded: chain ids, addresses and UUIDs become *', () => {
    expect(subjectLabel(SUBJECTS.coreQuote)).toBe('core.quote');
    expect(subjectLabel(healthSubject(QUEUE_GROUPS.gateway))).toBe('gateway.health');
    expect(subjectLabel(chainFactSubject(999, CHAIN_FACTS.poolUpdated))).toBe(chainFactSubject('*', CHAIN_FACTS.poolUpdated));
    expect(subjectLabel(quoteTopic(4663, '0x5FbDB2315678afecb367f032d93F642f64180aa3', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'))).toBe('quotes.*.*.*');
    expect(subjectLabel('test.6f1c1d8e-2b7a-4f0e-9a55-1a2b3c4d5e6f.double')).toBe('test.*.double');
    expect(subjectLabel(`x.${'a'.repeat(33)}`)).toBe('x.*');
  });

  it('counts a reply the service meant to give as ok, a failure of 500 or above as error', () => {
    expect(replyOutcome({ ok: true, data: 1 })).toBe('ok');
    expect(replyOutcome({ ok: false, error: { status: 404, message: 'Not found' } })).toBe('ok');
    expect(replyOutcome({ ok: false, error: { status: 500, message: 'Internal error' } })).toBe('error');
    expect(replyOutcome({ ok: false, error: { status: 503, message: 'Unavailable' } })).toBe('error');
  });

  it('registers each metric once per registry, under its documented name', () => {
    const m = new MetricsRegistry('svc');
    const http = httpMetrics(m);
    expect(httpMetrics(m).duration).toBe(http.duration);
    http.duration.observe({ method: 'GET', route: '/core/pool/:address', status: 200 }, 0.003);
    http.requests.inc({ method: 'GET', route: '/core/pool/:address', status: 200 });
    natsRequestHistogram(m).observe({ subject: SUBJECTS.corePool, outcome: 'timeout' }, 5);
    natsHandlerHistogram(m).observe({ subject: SUBJECTS.corePool, outcome: 'ok' }, 0.02);
    const text = m.render();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="/core/pool/:address",status="200",le="0.005"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/core/pool/:address",status="200"} 1');
    expect(text).toContain('nats_request_duration_seconds_bucket{outcome="timeout",subject="core.pool",le="2.5"} 0');
    expect(text).toContain('nats_request_duration_seconds_bucket{outcome="timeout",subject="core.pool",le="5"} 1');
    expect(text).toContain('nats_handler_duration_seconds_count{outcome="ok",subject="core.pool"} 1');
  });
});
