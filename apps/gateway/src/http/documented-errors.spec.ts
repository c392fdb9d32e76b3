// Every failure a service answers over the bus reaches REST clients through the gateway, so its message must
// be in the endpoint table (`ENDPOINTS`), which /openapi.json and the SDK's types are generated from. This test
// reads the sources of the services behind the REST API and checks each `new BusError(status, message)` with a
// literal or template message against the documented failures of the same status.
import * as messages from '@dex/messages';
import { ENDPOINTS } from '@dex/messages';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../../..');
/** The services whose bus answers the gateway forwards to REST clients (the keeper's commands are not REST). */
const SERVICES = ['aggregator-router', 'amm-quoter', 'launchpad-service', 'indexer'];
/** Sources that answer bus-only subjects, documented in docs/api.md instead. */
const BUS_ONLY = new Set(['apps/amm-quoter/src/quotes/live-quotes.service.ts']);

interface Thrown {
  readonly file: string;
  readonly status: number;
  readonly message: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** A message constant exported by @dex/messages, by name; undefined for any other name. */
function messageConstant(name: string): string | undefined {
  const value = (messages as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `new BusError(<status>, '<message>'`, `new BusError(<status>, \`<template>\`` and `new BusError(<status>, NAME`
 * with NAME a message constant of @dex/messages (a name that is not one is reported as such).
 */
function thrownErrors(): Thrown[] {
  const pattern = /new BusError\(\s*(\d{3}),\s*(?:'((?:\\.|[^'\\])*)'|`((?:\\.|\$\{[^}]*\}|[^`\\])*)`|([A-Z][A-Z0-9_]*)\b)/g;
  return SERVICES.flatMap((service) =>
    sources(join(ROOT, 'apps', service, 'src'))
      .filter((path) => !BUS_ONLY.has(relative(ROOT, path)))
      .flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(pattern)].map((m) => ({
        file: relative(ROOT, path),
        status: Number(m[1]),
        message: m[2] ?? m[3] ?? messageConstant(m[4]) ?? `<not a message constant of @dex/messages: ${m[4]}>`,
      })),
    ),
  );
}

/** A message as a pattern: its variable parts (`${...}` in code, `<...>` in the table) match any text. */
function pattern(message: string, variable: RegExp): RegExp {
  const parts = message.split(variable).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

const documented = Object.values(ENDPOINTS).flatMap((e) => e.errors);

function isDocumented(thrown: Thrown): boolean {
  const code = pattern(thrown.message, /\$\{[^}]*\}/);
  return documented.some((d) => d.status === thrown.status && (code.test(d.message) || pattern(d.message, /<[^>]+>/).test(thrown.message)));
}

describe('failures the services answer', () => {
  const thrown = thrownErrors();

  it('are found in the services’ sources', () => {
    // A guard on the scan itself: an unreadable tree or a changed constructor would leave nothing to check.
    expect(thrown.length).toBeGreaterThan(25);
    expect(thrown).toContainEqual(expect.objectContaining({ status: 404, message: 'No route found' }));
    // A message constant of @dex/messages is read as its text.
    expect(thrown).toContainEqual(expect.objectContaining({ status: 400, message: messages.INVALID_SEARCH_CONTROL }));
  });

  it('are each documented in the endpoint table with the same status', () => {
    const missing = thrown.filter((t) => !isDocumented(t)).map((t) => `${t.file}: ${t.status} ${t.message}`);
    expect(missing).toEqual([]);
  });

  it('match a documented message with a variable part, and not another status or text', () => {
    expect(isDocumented({ file: '', status: 400, message: 'Unsupported chainId: ${chainId}' })).toBe(true);
    expect(isDocumented({ file: '', status: 404, message: 'Unsupported chainId: ${chainId}' })).toBe(false);
    expect(isDocumented({ file: '', status: 400, message: 'Invalid ${param}: too large' })).toBe(true);
    expect(isDocumented({ file: '', status: 400, message: 'Something nobody documented' })).toBe(false);
  });
});
