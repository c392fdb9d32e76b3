// A service that lacks a setting refuses to start and names the setting.
import { spawnApp } from '../src';

jest.setTimeout(30_000);

async function refusal(name: string, env: Record<string, string>) {
  const proc = spawnApp(name, env);
  const code = await proc.exited;
  const lines = proc.output().split('\n').filter(Boolean);
  return { code, last: JSON.parse(lines[lines.length - 1]) };
}

describe('configuration is validated at boot', () => {
  it('referral-keeper refuses to start without its keeper key, saying so', async () => {
    const { code, last } = await refusal('referral-keeper', { RPC_URL_999: 'http://127.0.0.1:1', RPC_URL_4663: 'http://127.0.0.1:2' });
    expect(code).toBe(78);
    expect(last.level).toBe('fatal');
    expect(last.message).toContain('missing required setting KEEPER_PRIVATE_KEY');
  });

  it('names each missing RPC URL', async () => {
    const { code, last } = await refusal('amm-quoter', { SOURCES_CONFIG: '/nonexistent/sources.json' });
    expect(code).toBe(78);
    expect(last.problems).toEqual(['missing required setting RPC_URL_999', 'missing required setting RPC_URL_4663']);
  });

  it('the gateway, which reaches no chain, names a service it cannot ask for /health', async () => {
    const { code, last } = await refusal('gateway', { HEALTH_SERVICES: 'aggregator-router,aggregator' });
    expect(code).toBe(78);
    expect(last.problems).toEqual(['invalid setting HEALTH_SERVICES: unknown service aggregator (services: aggregator-router, amm-quoter, launchpad-service, indexer, referral-keeper, devnet)']);
  });

  it('names a malformed setting', async () => {
    const { code, last } = await refusal('indexer', { CHAIN_IDS: '999', RPC_URL_999: 'http://127.0.0.1:1', HTTP_PORT: 'eighty' });
    expect(code).toBe(78);
    expect(last.message).toContain('invalid setting HTTP_PORT');
  });

  it('aggregator-router names an unreadable sources file', async () => {
    const { code, last } = await refusal('aggregator-router', { CHAIN_IDS: '999', RPC_URL_999: 'http://127.0.0.1:1', SOURCES_CONFIG: '/nonexistent/sources.json' });
    expect(code).toBe(78);
    expect(last.message).toContain('invalid setting SOURCES_CONFIG');
  });
});
