import { concatHex, numberToHex, stringToHex, type Address, type Hex } from 'viem';
import { GraduationBook, graduationGasLimit, MAX_RETRY_DELAY_MS, tokenFactory, transactionGasCap } from './graduation-book';

const IMPLEMENTATION = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const FACTORY = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const [A, B, C] = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333'] as Address[];

/** The code of a launched token: the 45-byte EIP-1167 proxy, then factory | name length | name | symbol. */
function cloneCode(factory: Address, name: string, symbol: string): Hex {
  const proxy = concatHex(['0x363d3d373d3d3d363d73', IMPLEMENTATION, '0x5af43d82803e903d91602b57fd5bf3']);
  return concatHex([proxy, factory, numberToHex(name.length, { size: 2 }), stringToHex(name), stringToHex(symbol)]);
}

describe('tokenFactory', () => {
  it("reads the DEX factory from the token's immutable arguments, after the 45-byte proxy", () => {
    expect(tokenFactory(cloneCode(FACTORY, 'Fast Hare', 'FHARE'))).toBe(FACTORY);
    expect(tokenFactory(cloneCode(FACTORY, '', ''))).toBe(FACTORY);
  });

  it('refuses an address without a token clone', () => {
    expect(() => tokenFactory(undefined)).toThrow('not a launchpad token: 0 bytes of code');
    expect(() => tokenFactory(cloneCode(FACTORY, 'x', 'y').slice(0, 2 + 2 * 60) as Hex)).toThrow('not a launchpad token: 60 bytes of code');
  });
});

describe('graduationGasLimit', () => {
  const SMALL_BLOCK = 2_000_000n;

  it('adds a fixed margin to the estimate', () => {
    expect(graduationGasLimit(289_409n, SMALL_BLOCK)).toBe(389_409n);
    expect(graduationGasLimit(1_622_282n, SMALL_BLOCK)).toBe(1_722_282n);
  });

  it('keeps a createPair in a HyperEVM small block, where the usual padding (25% + 50,000) would not', () => {
    expect((1_622_282n * 125n) / 100n + 50_000n).toBeGreaterThan(SMALL_BLOCK);
    expect(graduationGasLimit(1_622_282n, SMALL_BLOCK)).toBeLessThanOrEqual(SMALL_BLOCK);
  });

  it('caps the margin at what the block takes, and refuses an estimate beyond it', () => {
    expect(graduationGasLimit(1_950_000n, SMALL_BLOCK)).toBe(SMALL_BLOCK);
    expect(graduationGasLimit(SMALL_BLOCK, SMALL_BLOCK)).toBe(SMALL_BLOCK);
    expect(() => graduationGasLimit(1_892_635n + 200_000n, SMALL_BLOCK)).toThrow('needs 2092635 gas, more than the 2000000 a block takes');
  });
});

describe('transactionGasCap', () => {
  it("is the small blocks' limit on a chain that has them, else the block's", () => {
    expect(transactionGasCap(30_000_000n, 2_000_000n)).toBe(2_000_000n);
    expect(transactionGasCap(30_000_000n)).toBe(30_000_000n);
    expect(transactionGasCap(1_500_000n, 2_000_000n)).toBe(1_500_000n);
  });
});

describe('GraduationBook', () => {
  it('lists tokens from its cursor on and stops watching graduated ones', () => {
    const book = new GraduationBook(1_000);
    expect(book.cursor).toBe(0);
    book.list([A, B]);
    book.list([C]);
    expect(book.cursor).toBe(3);
    expect(book.watched()).toEqual([A, B, C]);
    book.markGraduated(B.toLowerCase() as Address);
    expect(book.watched()).toEqual([A, C]);
    expect(book.isGraduated(B)).toBe(true);
    expect(book.isGraduated(A)).toBe(false);
  });

  it('retries a failed graduation after a delay that doubles with each failure, up to 5 minutes', () => {
    const book = new GraduationBook(1_000);
    book.list([A, B]);
    expect(book.due(A, 0)).toBe(true);
    expect(book.failed(A, 10_000)).toBe(12_000);
    expect(book.due(A, 11_999)).toBe(false);
    expect(book.due(A, 12_000)).toBe(true);
    expect(book.due(B, 10_000)).toBe(true);
    expect(book.failed(A, 12_000)).toBe(16_000);
    expect(book.failed(A, 16_000)).toBe(24_000);
    for (let i = 0; i < 20; i++) book.failed(A, 0);
    expect(book.failed(A, 0)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('forgets the failures of a token once it has graduated', () => {
    const book = new GraduationBook(1_000);
    book.list([A]);
    book.failed(A, 0);
    book.markGraduated(A);
    expect(book.due(A, 0)).toBe(true);
    expect(book.watched()).toEqual([]);
  });
});

describe('GraduationBook.pairsAhead', () => {
  const SUPPLY = 1_000_000n;

  it('names the trading tokens whose sold share reached the progress, not the sold-out ones', () => {
    const book = new GraduationBook(1_000);
    // A: 79.9999% sold, B: 80% sold, C: sold out (graduation's business, not this).
    expect(book.pairsAhead([A, B, C], [200_001n, 200_000n, 0n], SUPPLY, 0.8)).toEqual([B]);
    expect(book.pairsAhead([A, B, C], [200_001n, 200_000n, 0n], SUPPLY, 0.5)).toEqual([A, B]);
    expect(book.pairsAhead([A, B], [SUPPLY, SUPPLY], SUPPLY, 0)).toEqual([A, B]);
  });

  it('names each token once, and none at a progress of 1', () => {
    const book = new GraduationBook(1_000);
    expect(book.pairsAhead([A, B], [1n, 1n], SUPPLY, 1)).toEqual([]);
    book.markPairHandled(A);
    expect(book.pairsAhead([A, B], [1n, 1n], SUPPLY, 0.8)).toEqual([B]);
  });
});
