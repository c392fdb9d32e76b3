import { causesOf, transientFailure, type TransientFailureClassifier } from './transient';

const socketError = (message: string) => Object.assign(new Error(message), { code: message.split(' ')[1] });

describe('transientFailure', () => {
  it("knows a socket's failure anywhere in the causes", () => {
    const err = new Error('fetch failed', { cause: socketError('connect ECONNREFUSED 127.0.0.1:5432') });
    expect(transientFailure(err)).toBe('a dependency is busy or out of reach: connect ECONNREFUSED 127.0.0.1:5432');
  });

  it("asks the service's classifiers first, in order", () => {
    const never: TransientFailureClassifier = () => undefined;
    const store: TransientFailureClassifier = (err) => (err instanceof Error && err.message === 'store busy' ? 'the store is busy' : undefined);
    expect(transientFailure(new Error('store busy'), [never, store])).toBe('the store is busy');
    expect(transientFailure(new Error('store busy'))).toBeUndefined();
  });

  it('leaves a fault of the service alone', () => {
    expect(transientFailure(new TypeError('undefined is not a function'))).toBeUndefined();
    expect(transientFailure(undefined)).toBeUndefined();
  });
});

describe('causesOf', () => {
  it('walks the causes, outermost first, and stops at the bound', () => {
    const inner = new Error('inner');
    const outer = new Error('outer', { cause: new Error('middle', { cause: inner }) });
    expect([...causesOf(outer)].map((e) => (e as Error).message)).toEqual(['outer', 'middle', 'inner']);
    const loop: { message: string; cause?: unknown } = { message: 'loop' };
    loop.cause = loop;
    expect([...causesOf(loop)]).toHaveLength(8);
  });
});
