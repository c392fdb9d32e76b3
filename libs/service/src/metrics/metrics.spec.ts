import { MetricsRegistry } from './metrics';

describe('MetricsRegistry', () => {
  it('renders counters, gauges and histograms in the Prometheus text format', () => {
    const m = new MetricsRegistry('svc');
    m.counter('payouts_total', 'Payouts').inc({ chain: 999, token: 'USDC' }, 5);
    m.counter('payouts_total', 'Payouts').inc({ chain: 999, token: 'USDC' });
    m.gauge('lag_blocks', 'Blocks behind').set({ chain: '4663' }, 3);
    const h = m.histogram('latency_seconds', 'Latency', [0.1, 1]);
    h.observe({ route: '/x' }, 0.05);
    h.observe({ route: '/x' }, 0.5);
    const text = m.render();
    expect(text).toContain('service_up{service="svc"} 1');
    expect(text).toContain('# TYPE payouts_total counter\npayouts_total{chain="999",token="USDC"} 6');
    expect(text).toContain('lag_blocks{chain="4663"} 3');
    expect(text).toContain('latency_seconds_bucket{route="/x",le="0.1"} 1');
    expect(text).toContain('latency_seconds_bucket{route="/x",le="1"} 2');
    expect(text).toContain('latency_seconds_bucket{route="/x",le="+Inf"} 2');
    expect(text).toContain('latency_seconds_count{route="/x"} 2');
  });

  it('escapes label values and refuses counters that go down or clashing types', () => {
    const m = new MetricsRegistry('svc');
    m.counter('c_total', 'c').inc({ v: 'a"b\\c' });
    expect(m.render()).toContain('c_total{v="a\\"b\\\\c"} 1');
    expect(() => m.counter('c_total', 'c').inc({}, -1)).toThrow();
    expect(() => m.gauge('c_total', 'g')).toThrow('exists with type counter');
  });
});
