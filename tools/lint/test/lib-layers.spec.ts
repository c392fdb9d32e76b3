// The layers of the libs where a pool kind is a module (docs/routing.md), read from their production modules'
// relative imports: no import circle; each kind's module sits below the rest of its lib and is reached through the
// lib's registry of kinds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** A lib's production modules (no specs), as paths below its src/ without `.ts`. */
function modules(src: string, dir = src): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(src, path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [relative(src, path).slice(0, -3)] : [];
  });
}

/** Each production module's relative imports (type imports included) of the lib at `lib` (its src/), as module paths. */
function importGraph(lib: string): Map<string, string[]> {
  const src = join(ROOT, lib, 'src');
  const all = new Set(modules(src));
  const graph = new Map<string, string[]>();
  for (const mod of all) {
    const text = readFileSync(join(src, `${mod}.ts`), 'utf8');
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

/** The imports `from -> to` of the graph that `crosses` refuses. */
const crossing = (graph: Map<string, string[]>, crosses: (from: string, to: string) => boolean): string[] =>
  [...graph].flatMap(([from, targets]) => targets.filter((to) => crosses(from, to)).map((to) => `${from} -> ${to}`));

describe('import layers', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', ['b']], ['b', []]]))).toBeUndefined();
  });

  describe('libs/routing', () => {
    // Each pool kind's folder sits on `pools/pool-module.ts` (the bottom), the registry above the kinds, the engine
    // above the registry. The pools (and the numeric helpers of math/ they use) import nothing of the engine, and
    // the engine reaches a kind only through the registry: outside pools/, only the public index.ts names a kind's
    // folder.
    const graph = importGraph('libs/routing');
    const bottom = (mod: string) => mod.startsWith('pools/') || mod.startsWith('math/');
    const kindFolder = (mod: string) => /^pools\/[^/]+\//.test(mod);

    it('reads the lib (the checks below have something to check)', () => {
      expect(graph.size).toBeGreaterThan(30);
      expect(graph.get('pools/legs')).toEqual(expect.arrayContaining(['pools/pool-module', 'pools/registry']));
      expect(graph.get('index')).toEqual(expect.arrayContaining(['pools/concentrated/concentrated-math']));
    });

    it('keeps the pools below the engine', () => {
      expect(crossing(graph, (from, to) => bottom(from) && !bottom(to))).toEqual([]);
    });

    it('reaches a kind only through the registry', () => {
      expect(crossing(graph, (from, to) => !from.startsWith('pools/') && from !== 'index' && kindFolder(to))).toEqual([]);
    });

    it('has no circle', () => {
      expect(findCycle(graph)).toBeUndefined();
    });
  });

  describe('libs/liquidity', () => {
    // The state and the routing view reach a kind through the registry (`kinds/registry.ts`) and the bottom
    // interface (`kinds/kind-module.ts`); the kinds import nothing above the state's records and facts.
    const graph = importGraph('libs/liquidity');
    const inKinds = (mod: string) => mod.startsWith('kinds/');
    const shared = ['kinds/registry', 'kinds/kind-module'];
    const below = ['facts', 'pool-record', 'routing-context', 'concentrated-state'];

    it('reads the lib (the checks below have something to check)', () => {
      expect(graph.size).toBeGreaterThan(15);
      expect(graph.get('chain-state')).toEqual(expect.arrayContaining(['kinds/registry']));
    });

    it('reaches a kind only through the registry and the bottom interface', () => {
      expect(crossing(graph, (from, to) => !inKinds(from) && inKinds(to) && !shared.includes(to))).toEqual([]);
    });

    it('keeps the kinds below the state and the routing view', () => {
      expect(crossing(graph, (from, to) => inKinds(from) && !inKinds(to) && !below.includes(to))).toEqual([]);
    });

    it('has no circle', () => {
      expect(findCycle(graph)).toBeUndefined();
    });
  });
});
