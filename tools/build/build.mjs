// Compiles every app and lib to CommonJS under dist/ with swc (decorator metadata for NestJS, @dex/* path
// aliases rewritten from tsconfig.base.json). Type checking is separate: `npm run typecheck`.
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The whole compile takes 1-3 s on a 2-core machine. */
const BUILD_TIMEOUT_MS = 5 * 60_000;

export function swcConfig() {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: root,
      paths: compilerOptions.paths,
    },
    module: { type: 'commonjs' },
    sourceMaps: true,
  };
}

export function build({ quiet = false } = {}) {
  const started = Date.now();
  execFileSync(process.execPath, [join(root, 'tools/db/generate.mjs')], { cwd: root, stdio: quiet ? 'ignore' : 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'swc-'));
  const configFile = join(dir, '.swcrc');
  writeFileSync(configFile, JSON.stringify(swcConfig()));
  try {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    execFileSync(
      join(root, 'node_modules/.bin/swc'),
      ['apps', 'libs', '-d', 'dist', '--config-file', configFile, '--copy-files', '--ignore', '**/*.spec.ts,**/test/**,libs/contracts/**', '--quiet'],
      {
        cwd: root,
        stdio: quiet ? 'ignore' : 'inherit',
        // The CLI compiles on a pool of worker threads (piscina) that wait for work in Atomics.wait by default. Now
        // and then, with every file written, the process never exited: Node's exit waited to join a worker still
        // parked there (seen on Node 26, in `npm start` and a bench's build). Waiting on their message ports
        // instead, the workers stop with the event loop. The limit turns any other hang into a failure that says so.
        env: { ...process.env, PISCINA_DISABLE_ATOMICS: '1' },
        timeout: BUILD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
    );
  } catch (err) {
    if (err?.code === 'ETIMEDOUT') throw new Error(`swc did not finish within ${BUILD_TIMEOUT_MS / 60_000} minutes; stopped it`);
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!quiet) console.log(`built apps and libs into dist/ in ${Date.now() - started} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build({ quiet: process.argv.includes('--quiet') });
