// A pool kind is one module: in the liquidity lib's production code only the kinds' folder (`src/kinds/`) names a
// kind. (How the lib's modules import each other is checked with the routing lib's in tools/lint/test/lib-layers.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { KIND_MODULES } from '../src/kinds/registry';

const SRC = join(__dirname, '..', 'src');
const KINDS = Object.keys(KIND_MODULES);
const inKinds = (mod: string) => mod.startsWith('kinds/');

/** The lib's production modules (no specs), as paths below src/ without `.ts`. */
const modules = (): string[] =>
  readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.spec.ts'))
    .map((path) => path.slice(0, -3).split(sep).join('/'));

const source = (mod: string) => readFileSync(join(SRC, `${mod}.ts`), 'utf8');

/** The string literals of a module's code (quoted, double-quoted or template), its comments left out (no regex literal is read as such). */
function stringLiterals(text: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) === -1 ? text.length : text.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      found.push(text.slice(i + 1, j));
      // A template's expressions may quote strings of their own.
      if (c === '`') found.push(...stringLiterals(text.slice(i + 1, j)));
      i = j + 1;
    } else i++;
  }
  return found;
}

/** The kinds a module's code names as strings, as `module: 'kind'`. */
const kindStrings = (mod: string, text: string): string[] => stringLiterals(text).filter((s) => KINDS.includes(s)).map((s) => `${mod}: '${s}'`);

describe('libs/liquidity kinds', () => {
  it('reads the lib (the checks below have something to check)', () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(6);
    expect(modules().filter(inKinds).flatMap((mod) => kindStrings(mod, source(mod)))).not.toEqual([]);
  });

  it('names a kind only in the kinds folder', () => {
    const named = modules()
      .filter((mod) => !inKinds(mod))
      .flatMap((mod) => kindStrings(mod, source(mod)));
    expect(named).toEqual([]);
  });

  it('finds a kind named in code, not in a comment', () => {
    const text = ["// the 'core' pools", '/* "stable" */', "const k = 'launchpad';", 'const t = `algebra`;', 'const u = `${x ? "uniswap-v3" : y}`;', "const other = 'uniswap-v2-ish';"].join('\n');
    expect(kindStrings('planted', text)).toEqual(["planted: 'launchpad'", "planted: 'algebra'", "planted: 'uniswap-v3'"]);
  });
});
