// A pool kind is one module: in the liquidity lib's production code only the kinds' folder (`src/kinds/`) names a
// kind. The state and the routing view reach a kind through the registry (`kinds/registry.ts`) and the bottom
// interface (`kinds/kind-module.ts`); the kinds import nothing above the state's records and facts; nothing imports
// in a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { KIND_MODULES } from '../src/kinds/registry';

const SRC = join(__dirname, '..', 'src');
const KINDS = Object.keys(KIND_MODULES);
const inKinds = (mod: string) => mod.startsWith('kinds/');

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [relative(SRC, path).slice(0, -3)] : [];
  });
}

const source = (mod: string) => readFileSync(join(SRC, `${mod}.ts`), 'utf8');

/** Each module's relative imports (type imports included), as module paths. */
function importGraph(): Map<string, string[]> {
  const all = new Set(modules(SRC));
  const graph = new Map<string, string[]>();
  for (const mod of all) {
    const targets = [...source(mod).matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => normalize(join(dirname(mod), m[1])));
    graph.set(
      mod,
      targets.filter((t) => all.has(t)),
    );
  }
  return graph;
}

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

/** One import circle of the graph, as the modules along it; undefined when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (mod: string): string[] | undefined => {
    state.set(mod, 'open');
    path.push(mod);
    for (const next of graph.get(mod) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(mod, 'done');
    return undefined;
  };
  for (const mod of graph.keys()) {
    if (state.has(mod)) continue;
    const found = visit(mod);
    if (found) return found;
  }
  return undefined;
}

describe('libs/liquidity kinds', () => {
  it('reads the lib (the checks below have something to check)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(15);
    expect(graph.get('chain-state')).toEqual(expect.arrayContaining(['kinds/registry']));
    expect(KINDS.length).toBeGreaterThanOrEqual(6);
    expect(modules(SRC).filter(inKinds).flatMap((mod) => kindStrings(mod, source(mod)))).not.toEqual([]);
  });

  it('names a kind only in the kinds folder', () => {
    const named = modules(SRC)
      .filter((mod) => !inKinds(mod))
      .flatMap((mod) => kindStrings(mod, source(mod)));
    expect(named).toEqual([]);
  });

  it('finds a kind named in code, not in a comment', () => {
    const text = ["// the 'core' pools", '/* "stable" */', "const k = 'launchpad';", 'const t = `algebra`;', 'const u = `${x ? "uniswap-v3" : y}`;', "const other = 'uniswap-v2-ish';"].join('\n');
    expect(kindStrings('planted', text)).toEqual(["planted: 'launchpad'", "planted: 'algebra'", "planted: 'uniswap-v3'"]);
  });

  it('reaches a kind only through the registry and the bottom interface', () => {
    const shared = ['kinds/registry', 'kinds/kind-module'];
    const direct = [...importGraph()].flatMap(([mod, targets]) => (inKinds(mod) ? [] : targets.filter((t) => inKinds(t) && !shared.includes(t)).map((t) => `${mod} -> ${t}`)));
    expect(direct).toEqual([]);
  });

  it('keeps the kinds below the state and the routing view', () => {
    const below = ['facts', 'pool-record', 'routing-context', 'concentrated-state'];
    const upward = [...importGraph()].flatMap(([mod, targets]) => (inKinds(mod) ? targets.filter((t) => !inKinds(t) && !below.includes(t)).map((t) => `${mod} -> ${t}`) : []));
    expect(upward).toEqual([]);
  });

  it('has no circle', () => {
    expect(findCycle(importGraph())).toBeUndefined();
  });

  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
