// Reads the Prisma schema's data model (DMMF) through the schema wasm module shipped inside the `prisma`
// package (the same `get_dmmf` the CLI calls), without @prisma/internals. The module is driven directly:
// four host imports, strings passed through its allocator.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  hasDefaultValue: boolean;
  isUpdatedAt: boolean;
  nativeType?: [string, string[]] | null;
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
  uniqueFields: string[][];
}

export interface DmmfDatamodel {
  models: DmmfModel[];
  enums: { name: string; dbName?: string | null; values: { name: string; dbName: string | null }[] }[];
}

// The slice of the WebAssembly API used here (the workspace's `lib` setting carries no WebAssembly types).
interface WasmTable {
  grow(delta: number): number;
  get(index: number): unknown;
  set(index: number, value: unknown): void;
}
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; imports(module: object): { module: string; name: string }[] };
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface SchemaWasm {
  memory: { buffer: ArrayBuffer };
  __wbindgen_externrefs: WasmTable;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(ptr: number, size: number, align: number): void;
  __wbindgen_start(): void;
  __externref_table_dealloc(index: number): void;
  get_dmmf(ptr: number, len: number): [number, number, number, number];
}

let wasm: SchemaWasm | undefined;

function loadSchemaWasm(): SchemaWasm {
  if (wasm) return wasm;
  const file = join(dirname(require.resolve('prisma/package.json')), 'build/prisma_schema_build_bg.wasm');
  const module = new Wasm.Module(readFileSync(file));
  const text = (ptr: number, len: number) =>
    new TextDecoder().decode(new Uint8Array(instance.memory.buffer, ptr >>> 0, len));
  const host: Record<string, Record<string, (...args: number[]) => unknown>> = {};
  for (const { module: ns, name } of Wasm.Module.imports(module)) {
    const fns = (host[ns] ??= {});
    if (name.startsWith('__wbg_set_message_')) fns[name] = () => undefined;
    else if (name.startsWith('__wbg_Error_')) fns[name] = (ptr, len) => new Error(text(ptr, len));
    else if (name.includes('throw')) {
      fns[name] = (ptr, len) => {
        throw new Error(text(ptr, len));
      };
    } else if (name === '__wbindgen_init_externref_table') {
      fns[name] = () => {
        const table = instance.__wbindgen_externrefs;
        const base = table.grow(4);
        table.set(0, undefined);
        [undefined, null, true, false].forEach((value, i) => table.set(base + i, value));
      };
    } else throw new Error(`prisma schema wasm wants an unknown import ${ns}.${name}; update this loader`);
  }
  const instance = new Wasm.Instance(module, host).exports as unknown as SchemaWasm;
  instance.__wbindgen_start();
  wasm = instance;
  return instance;
}

export function getDmmf(schema: string): DmmfDatamodel {
  const w = loadSchemaWasm();
  const input = new TextEncoder().encode(JSON.stringify({ prismaSchema: schema }));
  const ptr = w.__wbindgen_malloc(input.length, 1) >>> 0;
  new Uint8Array(w.memory.buffer, ptr, input.length).set(input);
  const [outPtr, outLen, errIndex, failed] = w.get_dmmf(ptr, input.length);
  if (failed) {
    const error = w.__wbindgen_externrefs.get(errIndex) as Error;
    w.__externref_table_dealloc(errIndex);
    throw error;
  }
  const json = new TextDecoder().decode(new Uint8Array(w.memory.buffer, outPtr >>> 0, outLen));
  w.__wbindgen_free(outPtr, outLen, 1);
  return (JSON.parse(json) as { datamodel: DmmfDatamodel }).datamodel;
}
