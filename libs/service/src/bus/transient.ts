// Failures that say a dependency is busy or out of reach (a socket refused or reset, a node timing out), as opposed
// to a fault of the service: under load they are the common case, and the honest answer is a 503 to try again, not a
// 500. The kit knows the failures of sockets; a module that brings a dependency brings the failures it knows (the
// database's and the chains', in @dex/chain-service) as classifiers.

/** A short description of `err` when it is a dependency being busy or out of reach, else undefined. */
export type TransientFailureClassifier = (err: unknown) => string | undefined;

/** Messages of sockets when a dependency is busy or gone. */
const SOCKET_MESSAGE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|socket hang up/i;

/** `err` and the errors it was caused by, outermost first (at most `depth`). */
export function* causesOf(err: unknown, depth = 8): Generator<unknown> {
  for (let e: unknown = err, i = 0; e && i < depth; e = (e as { cause?: unknown }).cause, i++) yield e;
}

/** An error's message ('' when it has none). */
export function messageOf(err: unknown): string {
  return String((err as { message?: unknown } | null | undefined)?.message ?? '');
}

/** The first line of an error's message, cut short for a `details` string. */
export function firstLine(err: unknown): string {
  return messageOf(err).split('\n')[0].slice(0, 160);
}

/**
 * A short description of `err` when it is a dependency being busy or out of reach, else undefined: what the first
 * of `classifiers` says of it, or a socket's failure anywhere in its causes.
 */
export function transientFailure(err: unknown, classifiers: readonly TransientFailureClassifier[] = []): string | undefined {
  for (const classify of classifiers) {
    const found = classify(err);
    if (found !== undefined) return found;
  }
  for (const e of causesOf(err)) {
    if (SOCKET_MESSAGE.test(messageOf(e))) return `a dependency is busy or out of reach: ${firstLine(e)}`;
  }
  return undefined;
}
