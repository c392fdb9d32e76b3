import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { checkDatabase, createPrismaClient, type DbClient } from '@dex/db';
import type { HealthCheck } from '@dex/service';

export const DB_CLIENT = Symbol('DB_CLIENT');

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DB_CLIENT) private readonly client: DbClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.$disconnect();
  }
}

/** Provides the service's database client (`DB_CLIENT`) and closes it on shutdown. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(client: DbClient): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DB_CLIENT, useValue: client }, DatabaseLifecycle],
      exports: [DB_CLIENT],
    };
  }
}

export function connectDatabase(databaseUrl: string): DbClient {
  return createPrismaClient(databaseUrl, { maxConnections: 5, connectTimeoutMs: 2_000 });
}

/** Postgres answers `SELECT 1`. */
export function databaseCheck(client: DbClient): HealthCheck {
  return {
    name: 'postgres',
    run: async () => {
      const result = await checkDatabase(client, 2_000);
      if (!result.ok) throw new Error(result.error ?? 'database unavailable');
    },
  };
}
