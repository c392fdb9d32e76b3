// Loads a TypeScript module of the workspace from plain Node: compiles it (and the relative `.ts` files it
// imports) to CommonJS in memory with swc, the compiler the workspace already uses. Packages resolve from
// node_modules as usual. Used by the db tools so their logic lives once, in libs/db/src.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { compileFunction } from 'node:vm';

const require = createRequire(import.meta.url);
const modules = new Map();

function resolveTs(base) {
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

export function loadTs(file) {
  const filename = resolve(file);
  const cached = modules.get(filename);
  if (cached) return cached.exports;

  const { transformSync } = require('@swc/core');
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });

  const module = { exports: {} };
  modules.set(filename, module);
  const dir = dirname(filename);
  const packageRequire = createRequire(filename);
  const localRequire = (specifier) => {
    if (specifier.startsWith('.')) {
      const ts = resolveTs(resolve(dir, specifier));
      if (ts) return loadTs(ts);
    }
    return packageRequire(specifier);
  };
  const body = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  body(module.exports, localRequire, module, filename, dir);
  return module.exports;
}
