import { graduateContract, graduationRunSchema } from './graduate';

const TOKEN = '0x1111111111111111111111111111111111111111';

describe('keeper.graduate', () => {
  it('takes every chain, one chain, or one token of a chain', () => {
    expect(graduateContract.request.parse({})).toEqual({});
    expect(graduateContract.request.parse({ chainId: 999 })).toEqual({ chainId: 999 });
    expect(graduateContract.request.parse({ chainId: 999, token: TOKEN.toUpperCase().replace('0X', '0x') })).toEqual({ chainId: 999, token: TOKEN });
  });

  it('refuses a token without its chain, and a malformed token', () => {
    const noChain = graduateContract.request.safeParse({ token: TOKEN });
    expect(noChain.success).toBe(false);
    expect(noChain.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['chainId', 'a token needs its chainId']]);
    expect(graduateContract.request.safeParse({ chainId: 999, token: '0x12' }).success).toBe(false);
  });

  it('reports an outcome per token, with the transactions the keeper sent', () => {
    const run = { chainId: 999, pending: 1, graduations: [{ token: TOKEN, pair: TOKEN, outcome: 'graduated', pairTxHash: `0x${'ab'.repeat(32)}`, graduateTxHash: `0x${'cd'.repeat(32)}` }] };
    expect(graduationRunSchema.parse(run)).toEqual(run);
    expect(graduationRunSchema.safeParse({ ...run, graduations: [{ token: TOKEN, pair: TOKEN, outcome: 'done' }] }).success).toBe(false);
  });
});
