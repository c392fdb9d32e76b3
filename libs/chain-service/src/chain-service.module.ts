import type { DynamicModule } from '@nestjs/common';
import { ServiceModule, type NatsBus, type ServiceModuleOptions } from '@dex/service';
import type { ChainEndpoint } from './config/chain-settings';
import { connectDatabase, databaseCheck, DatabaseModule } from './database/database.module';
import { rpcCheck } from './health/rpc-health';
import { chainUnreachable, databaseBusy } from './transient';

export interface ChainServiceModuleOptions extends ServiceModuleOptions {
  /** Chains whose RPC the service needs; each becomes a readiness check. */
  readonly chains?: readonly ChainEndpoint[];
  /** When set, the service gets `DB_CLIENT` and a Postgres readiness check. */
  readonly databaseUrl?: string;
}

/**
 * ServiceModule for a service that reaches chains and, optionally, the database: readiness checks of Postgres and
 * of each chain's RPC beside NATS, the database client (`DB_CLIENT`), and their failures that mean busy or out of
 * reach answered 503 on the bus.
 */
export class ChainServiceModule {
  static register(options: ChainServiceModuleOptions): DynamicModule {
    const { chains = [], databaseUrl, ...service } = options;
    const db = databaseUrl === undefined ? undefined : connectDatabase(databaseUrl);
    return ServiceModule.register({
      ...service,
      imports: [...(db ? [DatabaseModule.forRoot(db)] : []), ...(service.imports ?? [])],
      extraChecks: [...(db ? [databaseCheck(db)] : []), ...chains.map((endpoint) => rpcCheck(endpoint)), ...(service.extraChecks ?? [])],
      transientFailures: [chainUnreachable, ...(db ? [databaseBusy] : []), ...(service.transientFailures ?? [])],
    });
  }

  /**
   * `register` from a service's settings (`loadChainServiceSettings`): a readiness check for each of its chains, and
   * its database when its settings read `DATABASE_URL` (`databaseSettings`); the service adds its own controllers
   * and providers.
   */
  static forSettings(
    service: string,
    settings: { readonly chains?: readonly ChainEndpoint[]; readonly DATABASE_URL?: string },
    bus: NatsBus,
    own: Omit<ChainServiceModuleOptions, 'service' | 'bus' | 'chains' | 'databaseUrl'>,
  ): DynamicModule {
    const database = settings.DATABASE_URL === undefined ? {} : { databaseUrl: settings.DATABASE_URL };
    return ChainServiceModule.register({ service, bus, chains: settings.chains, ...database, ...own });
  }
}
