// The settings table the checks use follows apps/*/src/config.ts (read as text: apps are not imported).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APPS } from './settings';

const root = resolve(__dirname, '../../..');
const deployable = readdirSync(join(root, 'apps')).filter((app) => existsSync(join(root, 'apps', app, 'src', 'config.ts')));

describe('the settings table', () => {
  it('names every app that has a config', () => {
    expect(Object.keys(APPS).sort()).toEqual(deployable.sort());
  });

  it.each(deployable)('matches apps/%s/src/config.ts', (app) => {
    const source = readFileSync(join(root, 'apps', app, 'src', 'config.ts'), 'utf8');
    const settings = APPS[app];
    // A service of the chains loads its settings with loadChainServiceSettings(SERVICE, <port>, ...): the base
    // settings, CHAIN_IDS and the RPC URLs come with it.
    const chainService = /loadChainServiceSettings\(\s*SERVICE,\s*(\d+)/.exec(source);
    const port = chainService ? chainService[1] : /httpPortSetting\((\d+)\)/.exec(source)?.[1];
    expect(Number(port)).toBe(settings.port);
    expect(chainService !== null || source.includes('...baseSettings')).toBe(settings.required.includes('NATS_URL'));
    expect(source.includes('...databaseSettings')).toBe(settings.required.includes('DATABASE_URL'));
    expect(chainService !== null || source.includes('loadChainEndpoints(')).toBe(settings.chains);
    // Settings without a default are required.
    for (const [, name] of source.matchAll(/^\s*([A-Z][A-Z0-9_]+): z\.[a-z]+\([^\n]*$/gm)) {
      const line = source.split('\n').find((l) => l.trimStart().startsWith(`${name}:`)) ?? '';
      const hasDefault = /\.default\(|\.optional\(\)/.test(line);
      expect([name, hasDefault || settings.required.includes(name)]).toEqual([name, true]);
    }
  });
});

// Every image runs `dist/apps/<app>/src/main.js`; each app's main.ts is the same: it runs the service
// definition that its service.ts exports as `service`.
const MAIN = "import 'reflect-metadata';\nimport { runService } from '@dex/service';\nimport { service } from './service';\n\nrunService(service);\n";

describe('the entry point of each app', () => {
  it.each(deployable)('apps/%s: main.ts runs the `service` of service.ts', (app) => {
    expect(readFileSync(join(root, 'apps', app, 'src', 'main.ts'), 'utf8')).toBe(MAIN);
    expect(readFileSync(join(root, 'apps', app, 'src', 'service.ts'), 'utf8')).toMatch(/^export const service: ServiceDefinition</m);
  });
});
