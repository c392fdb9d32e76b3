// The routing engine (libs/routing/src) compiled alone with the repository's swc settings into a temporary
// directory (dist/ is not touched), for the benches that time or check the engine without the services.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Compiles libs/routing/src; `engine` is its index module, `cleanup()` removes the temporary directory. */
export async function compileEngine(tempPrefix = 'routing-engine-') {
  const { swcConfig } = await import(join(root, 'tools/build/build.mjs'));
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  const configFile = join(dir, '.swcrc');
  writeFileSync(configFile, JSON.stringify(swcConfig()));
  execFileSync(join(root, 'node_modules/.bin/swc'), ['libs/routing/src', '-d', join(dir, 'out'), '--config-file', configFile, '--ignore', '**/*.spec.ts', '--quiet'], {
    cwd: root,
    stdio: 'inherit',
  });
  const find = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        const hit = find(p);
        if (hit) return hit;
      } else if (name === 'index.js' && d.endsWith(join('routing', 'src'))) return p;
    }
    return undefined;
  };
  const entry = find(join(dir, 'out'));
  if (!entry) throw new Error('compiled engine not found');
  const engine = createRequire(import.meta.url)(entry);
  return { engine, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
