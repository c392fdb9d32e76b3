// The routing lib's production modules import each other without a circle: each pool kind's folder sits on
// `pools/pool-module.ts` (the bottom), the registry above the kinds, the engine above the registry. The pools (and
// the numeric helpers of math/ they use) import nothing of the engine, and the engine reaches a kind only through
// the registry: outside pools/, only the public index.ts names a kind's folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const SRC = join(__dirname, '..', 'src');

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [relative(SRC, path).slice(0, -3)] : [];
  });
}

/** Each module's relative imports (type imports included), as module paths. */
function importGraph(): Map<string, string[]> {
  const all = new Set(modules(SRC));
  const graph = new Map<string, string[]>();
  for (const mod of all) {
    const text = readFileSync(join(SRC, `${mod}.ts`), 'utf8');
    const targets = [...text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => normalize(join(dirname(mod), m[1])));
    graph.set(
      mod,
      targets.filter((t) => all.has(t)),
    );
  }
  return graph;
}

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

describe('libs/routing imports', () => {
  it('reads the lib (the check below has something to check)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(30);
    expect(graph.get('pools/legs')).toEqual(expect.arrayContaining(['pools/pool-module', 'pools/registry']));
  });

  it('keeps the pools below the engine', () => {
    const bottom = (mod: string) => mod.startsWith('pools/') || mod.startsWith('math/');
    const upward = [...importGraph()].flatMap(([mod, targets]) => (bottom(mod) ? targets.filter((t) => !bottom(t)).map((t) => `${mod} -> ${t}`) : []));
    expect(upward).toEqual([]);
  });

  it('reaches a kind only through the registry', () => {
    const kindFolder = (mod: string) => /^pools\/[^/]+\//.test(mod);
    const graph = importGraph();
    const direct = [...graph].flatMap(([mod, targets]) => (mod.startsWith('pools/') || mod === 'index' ? [] : targets.filter(kindFolder).map((t) => `${mod} -> ${t}`)));
    expect(direct).toEqual([]);
    expect(graph.get('index')).toEqual(expect.arrayContaining(['pools/concentrated/concentrated-math']));
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
