// Command line of the migrate step: `node tools/db/migrate.mjs` in the workspace, and
// `node dist/libs/db/src/migrate-cli.js` in the container images (the migration job).
//   [--url postgresql://...] [--dir <migrations folder>]; default DATABASE_URL.
import { DEFAULT_DATABASE_URL, redactUrl } from './database-url';
import { migrate } from './migrate';

function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

export async function runMigrateCli(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = option(argv, '--url') ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  try {
    const result = await migrate(url, {
      migrationsDir: option(argv, '--dir'),
      log: (line) => console.log(`migrate: ${line}`),
    });
    console.log(
      `migrate: ${redactUrl(url)} up to date (${result.applied.length} applied now, ${result.alreadyApplied.length} already applied)`,
    );
    return 0;
  } catch (error) {
    console.error(`migrate: ${(error as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  void runMigrateCli().then((code) => process.exit(code));
}
