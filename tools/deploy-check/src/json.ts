/** JSON values as parsed from YAML, and small typed accessors over them. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as an object, or an error naming `what`. */
export function asObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new Error(`${what} must be a mapping`);
  return value;
}

/** The list at `value` (absent: empty), or an error naming `what`. */
export function asList(value: unknown, what: string): Json[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${what} must be a list`);
  return value;
}

export function asString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} must be a string`);
  return value;
}

/** The object at `path` under `root`, if every step is an object. */
export function objectAt(root: unknown, ...path: string[]): JsonObject | undefined {
  let at: unknown = root;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return isObject(at) ? at : undefined;
}

/** The objects of the list at `path` under `root` (absent or not a list: none). */
export function objectsAt(root: unknown, ...path: string[]): JsonObject[] {
  const parent = path.length > 1 ? objectAt(root, ...path.slice(0, -1)) : isObject(root) ? root : undefined;
  const list = parent?.[path[path.length - 1]];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

export function stringAt(root: unknown, ...path: string[]): string | undefined {
  const parent = objectAt(root, ...path.slice(0, -1));
  const value = parent?.[path[path.length - 1]];
  return typeof value === 'string' ? value : undefined;
}

export function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
