// Validation of Kubernetes objects against the Kubernetes API schemas, offline, with the models of the npm
// package kubernetes-models (generated from the Kubernetes OpenAPI specification):
//  - schemaProblems: the package's generated validators (required fields, types, formats, enums);
//  - unknownFieldProblems: fields the schema does not have (a misspelt `readinesProbe`...), which those
//    validators accept as the OpenAPI schemas allow extra properties, but kubectl's strict field validation
//    refuses. Each object is type-checked by TypeScript against the package's interface for its kind, whose
//    excess-property check names every unknown field.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { objectId } from './kustomize';
import type { JsonObject } from './json';

const load = createRequire(__filename);

interface ModelClass {
  new (data: unknown): { validate(): void };
}

const API_VERSION = /^([a-z0-9]+(\.[a-z0-9-]+)*\/)?v[0-9]+((alpha|beta)[0-9]+)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** The kubernetes-models module of an apiVersion and kind: `kubernetes-models/v1/Service`, `.../apps/v1/Deployment`. */
function modelModule(object: JsonObject): { module: string; kind: string } | string {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || !API_VERSION.test(apiVersion)) return `invalid apiVersion ${JSON.stringify(apiVersion)}`;
  if (typeof kind !== 'string' || !KIND.test(kind)) return `invalid kind ${JSON.stringify(kind)}`;
  return { module: `kubernetes-models/${apiVersion}/${kind}`, kind };
}

/** What the Kubernetes schema of the object's apiVersion and kind says is wrong with it (nothing: []). */
export function schemaProblems(object: JsonObject): string[] {
  const target = modelModule(object);
  if (typeof target === 'string') return [target];
  let Model: ModelClass | undefined;
  try {
    Model = (load(target.module) as Record<string, ModelClass | undefined>)[target.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') return [`no Kubernetes schema for ${String(object.apiVersion)} ${target.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (err) {
    return [(err as Error).message];
  }
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
};
const sourceFiles = new Map<string, ts.SourceFile>();
let previous: ts.Program | undefined;

/**
 * For each object, the fields and values its kind's TypeScript interface (kubernetes-models) rejects: unknown
 * fields above all, also wrong types and missing required fields.
 */
export function unknownFieldProblems(objects: readonly JsonObject[]): string[][] {
  const file = join(__dirname, '__manifests__.ts');
  const problems: string[][] = objects.map(() => []);
  const starts: number[] = [];
  const lines: string[] = [];
  objects.forEach((object, i) => {
    const target = modelModule(object);
    if (typeof target === 'string') {
      problems[i].push(target);
      return;
    }
    starts[i] = lines.length;
    lines.push(`import type { I${target.kind} as T${i} } from '${target.module}';`);
    lines.push(...`export const object${i}: T${i} = ${JSON.stringify(object, null, 1)};`.split('\n'));
  });
  const text = lines.join('\n') + '\n';

  const host = ts.createCompilerHost(compilerOptions);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError) => {
    if (name === file) return ts.createSourceFile(name, text, languageVersion, true);
    let source = sourceFiles.get(name);
    if (!source) {
      source = getSourceFile(name, languageVersion, onError);
      if (source) sourceFiles.set(name, source);
    }
    return source;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], compilerOptions, host, previous);
  previous = program;

  for (const d of ts.getPreEmitDiagnostics(program)) {
    // Keys are quoted in the generated source: '"readinesProbe"' reads better as 'readinesProbe'.
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ').replace(/'"([^"']*)"'/g, "'$1'");
    if (!d.file || d.file.fileName !== file || d.start === undefined) {
      problems.forEach((p) => p.push(`TypeScript: ${message}`));
      continue;
    }
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    let owner = -1;
    starts.forEach((start, i) => {
      if (start !== undefined && start <= line) owner = i;
    });
    if (owner < 0) continue;
    // The line of the diagnostic is a key of the object: say where it is.
    const path = jsonPath(lines, starts[owner] + 1, line);
    problems[owner].push(`${path ? `${path}: ` : ''}${message}`);
  }
  return problems;
}

/** The JSON path (spec.template...) of `line` in the pretty-printed object starting at `first`. */
function jsonPath(lines: readonly string[], first: number, line: number): string {
  const stack: { indent: number; key: string }[] = [];
  for (let i = first; i <= line && i < lines.length; i++) {
    const match = /^(\s*)(?:"((?:[^"\\]|\\.)*)":)?\s*([[{]?)/.exec(lines[i]);
    if (!match) continue;
    const indent = match[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    if (match[2] !== undefined) stack.push({ indent, key: match[2] });
  }
  return stack.map((s) => s.key).join('.');
}

/** Both checks for every object: `Kind namespace/name: problem` lines (none: valid). */
export function validateObjects(objects: readonly JsonObject[]): string[] {
  const unknown = unknownFieldProblems(objects);
  return objects.flatMap((object, i) => [...schemaProblems(object), ...unknown[i]].map((p) => `${objectId(object)}: ${p}`));
}
