import { z } from 'zod';
import { healthContract, type MessageContract } from './contract';
import * as messages from './index';
import { CHAIN_FACTS, chainFactsFilter, chainFactSubject, healthSubject, parseChainSubject, QUEUE_GROUPS, quoteTopic, SUBJECTS } from './subjects';

const isContract = (value: unknown): value is MessageContract =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as MessageContract).subject === 'string' &&
  (value as MessageContract).request instanceof z.ZodType &&
  (value as MessageContract).response instanceof z.ZodType;

/** Every contract @dex/messages exports, by export name. */
const contracts: [string, MessageContract][] = Object.entries(messages as Record<string, unknown>).flatMap(([name, value]) => (isContract(value) ? [[name, value] as [string, MessageContract]] : []));
const defined: readonly string[] = Object.values(SUBJECTS);
const services: readonly string[] = Object.values(QUEUE_GROUPS);

describe('bus subjects', () => {
  it('finds the contracts', () => {
    expect(contracts.length).toBeGreaterThanOrEqual(defined.length);
  });

  it.each(contracts)('%s answers on a subject defined in SUBJECTS', (_name, contract) => {
    expect(defined).toContain(contract.subject);
  });

  it('gives every contract a subject of its own', () => {
    const byName = contracts.map(([name, c]) => [c.subject, name]);
    const shared = byName.filter(([subject], i) => byName.findIndex(([other]) => other === subject) !== i);
    expect(shared).toEqual([]);
  });

  it('has a contract for every defined subject, and no subject defined twice', () => {
    expect(new Set(contracts.map(([, c]) => c.subject))).toEqual(new Set(defined));
    expect(new Set(defined).size).toBe(defined.length);
  });

  it('keeps request subjects, health subjects, quote topics and chain facts apart', () => {
    for (const subject of defined) expect(subject).toMatch(/^(?!chain\.|quotes\.)[a-z]+\.[a-z]+$/);
    const health = services.map((service) => healthContract(service).subject);
    expect(health).toEqual(services.map(healthSubject));
    expect(new Set([...defined, ...health]).size).toBe(defined.length + health.length);
    expect(quoteTopic(999, '0xAbC', '0xDeF')).toBe('quotes.999.0xabc.0xdef');
  });

  it.each(Object.values(CHAIN_FACTS))('reads the fact %s back from its subject, within the stream filter', (fact) => {
    const subject = chainFactSubject(4663, fact);
    expect(parseChainSubject(subject)).toEqual({ chainId: 4663, fact });
    expect(subject.startsWith(chainFactsFilter(4663).slice(0, -1))).toBe(true);
    expect(chainFactSubject('*', fact)).toBe(`chain.*.${fact}`);
  });

  it('reads no fact from another subject', () => {
    expect(parseChainSubject('chain.999.unknown')).toBeUndefined();
    expect(parseChainSubject(SUBJECTS.coreQuote)).toBeUndefined();
  });
});
