import { ConfigError } from '@dex/service';
import { HEALTH_SERVICES_DEFAULT, loadGatewayConfig } from './config';

describe('loadGatewayConfig', () => {
  // What a deployment may still pass every service; the gateway reads none of it.
  const serviceEnv = { CHAIN_IDS: '999,4663', RPC_URL_999: 'http://127.0.0.1:8545', RPC_URL_4663: 'http://127.0.0.1:8546', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/dex' };

  it('reads no database URL and no chain setting, even when the environment has them', () => {
    const config = loadGatewayConfig(serviceEnv);
    for (const setting of ['DATABASE_URL', 'CHAIN_IDS', 'RPC_URL_999', 'RPC_URL_4663', 'chains']) expect(config).not.toHaveProperty(setting);
  });

  it('asks every service but the devnet for /health, 3 s each, by default', () => {
    const config = loadGatewayConfig({});
    expect(config.HEALTH_SERVICES).toEqual(['aggregator-router', 'amm-quoter', 'launchpad-service', 'indexer', 'referral-keeper']);
    expect(config.HEALTH_SERVICES).toEqual(HEALTH_SERVICES_DEFAULT);
    expect(config.HEALTH_SERVICE_TIMEOUT_MS).toBe(3_000);
  });

  it('takes the services to ask as a comma-separated list of service names', () => {
    expect(loadGatewayConfig({ HEALTH_SERVICES: ' aggregator-router, indexer ,aggregator-router,' }).HEALTH_SERVICES).toEqual(['aggregator-router', 'indexer']);
    expect(loadGatewayConfig({ HEALTH_SERVICES: 'devnet' }).HEALTH_SERVICES).toEqual(['devnet']);
  });

  it('refuses to start on a name that is no service, the gateway itself, or an empty list', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadGatewayConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      throw new Error('expected a ConfigError');
    };
    const services = 'aggregator-router, amm-quoter, launchpad-service, indexer, referral-keeper, devnet';
    expect(problems({ HEALTH_SERVICES: 'indexer,aggregator' })).toEqual([`invalid setting HEALTH_SERVICES: unknown service aggregator (services: ${services})`]);
    expect(problems({ HEALTH_SERVICES: 'gateway' })).toEqual([`invalid setting HEALTH_SERVICES: unknown service gateway (services: ${services})`]);
    expect(problems({ HEALTH_SERVICES: ' , ' })).toEqual(['invalid setting HEALTH_SERVICES: lists no service']);
    expect(problems({ HEALTH_SERVICE_TIMEOUT_MS: '0' })).toEqual([expect.stringMatching(/^invalid setting HEALTH_SERVICE_TIMEOUT_MS/)]);
  });
});
