import { z } from 'zod';
import { baseSettings, ConfigError, httpPortSetting, loadSettings } from './config';

describe('loadSettings', () => {
  it('applies embedded defaults', () => {
    const s = loadSettings('svc', { ...baseSettings, ...httpPortSetting(3000) }, {});
    expect(s).toEqual({ NATS_URL: 'nats://127.0.0.1:4222', LOG_LEVEL: 'log', HTTP_HOST: '0.0.0.0', BUS_TIMEOUT_MS: 5000, HTTP_MAX_EVENT_LOOP_LAG_MS: 100, HTTP_PORT: 3000 });
  });

  it('names a missing required setting', () => {
    expect(() => loadSettings('keeper', { KEY: z.string() }, {})).toThrow('keeper cannot start: missing required setting KEY');
  });

  it('treats an empty value as missing', () => {
    expect(() => loadSettings('svc', { KEY: z.string() }, { KEY: '' })).toThrow('missing required setting KEY');
  });

  it('names every malformed setting', () => {
    try {
      loadSettings('svc', { ...baseSettings, ...httpPortSetting(1) }, { HTTP_PORT: '99999', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect(problems.some((p) => p.startsWith('invalid setting HTTP_PORT'))).toBe(true);
      expect(problems.some((p) => p.startsWith('invalid setting LOG_LEVEL'))).toBe(true);
    }
  });
});
