/**
 * Work done once per routing view for identical orders: the requests a view answers with the same order (same
 * tokens, amount, options, recipient and deadline) share one search, one re-quote, one simulation and one gas
 * figure, computed by the first and handed to the others, whether they come while it runs or after. A view is the
 * state of one block (built again when its core samples come in), so what is shared is exactly what each request
 * would have computed on its own: answers stay identical, and work under load grows with the distinct orders of a
 * block rather than with the requests.
 *
 * A refusal is shared while it is under way; afterwards it is kept only where it is the order's answer at that
 * state (a 4xx), never where the chain or a dependency failed (a 5xx, or anything not a `BusError`): the next
 * request tries again. Each view keeps `MAX_PER_VIEW` orders at most (beyond, requests compute on their own); the
 * views themselves are held weakly and go with their snapshots.
 */
import { BusError } from '@dex/service';

/** Orders kept per view at most. */
export const MAX_PER_VIEW = 4_096;

/** An order's key: its JSON, bigints as decimal strings (field order is the order's own, fixed by its builder). */
export function orderKey(order: unknown): string {
  return JSON.stringify(order, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

/** Whether a refusal is the order's answer at the view's state (kept), rather than a failure to find it out. */
function keptRefusal(err: unknown): boolean {
  return err instanceof BusError && err.status >= 400 && err.status < 500;
}

export class ViewMemo<View extends object, T> {
  private readonly views = new WeakMap<View, Map<string, Promise<T>>>();
  /** Answers handed to a request other than the one that computed them. */
  reused = 0;

  /** The order's answer at `view`: computed by `compute`, or the one already computed or under way for the same key. */
  get(view: View, key: string, compute: () => Promise<T>): { readonly answer: Promise<T>; readonly reused: boolean } {
    let answers = this.views.get(view);
    if (!answers) {
      answers = new Map();
      this.views.set(view, answers);
    }
    const known = answers.get(key);
    if (known) {
      this.reused++;
      return { answer: known, reused: true };
    }
    const answer = compute();
    if (answers.size >= MAX_PER_VIEW) return { answer, reused: false };
    answers.set(key, answer);
    const kept = answers;
    answer.catch((err: unknown) => {
      if (!keptRefusal(err) && kept.get(key) === answer) kept.delete(key);
    });
    return { answer, reused: false };
  }
}
