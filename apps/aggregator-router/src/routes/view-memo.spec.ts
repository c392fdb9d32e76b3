import { BusError } from '@dex/service';
import { MAX_PER_VIEW, orderKey, ViewMemo } from './view-memo';

describe('ViewMemo', () => {
  const counting = () => {
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      compute: (value: string) => () => {
        calls++;
        return Promise.resolve(value);
      },
    };
  };

  it('computes an order once per view, for requests during and after the first', async () => {
    const memo = new ViewMemo<object, string>();
    const view = {};
    const c = counting();
    const first = memo.get(view, 'a', c.compute('one'));
    const during = memo.get(view, 'a', c.compute('two'));
    expect(await first.answer).toBe('one');
    const after = memo.get(view, 'a', c.compute('three'));
    expect([await during.answer, await after.answer]).toEqual(['one', 'one']);
    expect([first.reused, during.reused, after.reused]).toEqual([false, true, true]);
    expect(c.calls).toBe(1);
    expect(memo.reused).toBe(2);
  });

  it('computes again for another view or another order', async () => {
    const memo = new ViewMemo<object, string>();
    const [view, next] = [{}, {}];
    const c = counting();
    await memo.get(view, 'a', c.compute('one')).answer;
    expect(await memo.get(next, 'a', c.compute('two')).answer).toBe('two');
    expect(await memo.get(view, 'b', c.compute('three')).answer).toBe('three');
    expect(c.calls).toBe(3);
  });

  it("keeps a 4xx refusal (the order's answer) and forgets a 5xx or any other failure", async () => {
    const memo = new ViewMemo<object, string>();
    const view = {};
    const refused = memo.get(view, 'a', () => Promise.reject(new BusError(404, 'No route found')));
    await expect(refused.answer).rejects.toMatchObject({ status: 404 });
    const again = memo.get(view, 'a', () => Promise.resolve('found'));
    expect(again.reused).toBe(true);
    await expect(again.answer).rejects.toMatchObject({ status: 404 });

    for (const failure of [new BusError(503, 'Service temporarily unavailable'), new Error('socket hang up')]) {
      const failed = memo.get(view, failure.message, () => Promise.reject(failure));
      await expect(failed.answer).rejects.toBe(failure);
      await Promise.resolve();
      const retried = memo.get(view, failure.message, () => Promise.resolve('answered'));
      expect(retried.reused).toBe(false);
      expect(await retried.answer).toBe('answered');
    }
  });

  it(`keeps ${MAX_PER_VIEW} orders a view at most; beyond, each request computes its own`, async () => {
    const memo = new ViewMemo<object, number>();
    const view = {};
    for (let i = 0; i < MAX_PER_VIEW; i++) await memo.get(view, String(i), () => Promise.resolve(i)).answer;
    const c = { calls: 0 };
    const over = () => memo.get(view, 'over', () => Promise.resolve(++c.calls));
    expect([await over().answer, await over().answer]).toEqual([1, 2]);
    expect(memo.get(view, '0', () => Promise.resolve(-1)).reused).toBe(true);
  });

  it('keys an order by its fields, bigints included', () => {
    expect(orderKey({ amount: { amountIn: 10n }, tokenIn: '0xa' })).toBe(orderKey({ amount: { amountIn: 10n }, tokenIn: '0xa' }));
    expect(orderKey({ amount: { amountIn: 10n } })).not.toBe(orderKey({ amount: { amountIn: 11n } }));
    expect(orderKey({ amount: { amountIn: 10n } })).not.toBe(orderKey({ amount: { amountIn: '10' } }));
  });
});
