import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What is known about the request being handled, wherever the code runs on its behalf. */
export interface RequestContext {
  readonly requestId: string;
  /**
   * When the requester stops waiting for the answer (`performance.now()` clock), if it said: bus requests made on
   * the request's behalf get only the time that is left, and none once it has passed.
   */
  readonly deadlineAt?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Longest request id taken from a caller; anything longer is replaced by a fresh one. */
export const MAX_REQUEST_ID_LENGTH = 128;

const SANE_REQUEST_ID = new RegExp(`^[A-Za-z0-9._:@/+=-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** `value` when it is a usable request id (1 to 128 characters, no spaces or control characters), else undefined. */
export function saneRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value) ? value : undefined;
}

/** The caller's request id when it is usable, otherwise a new UUID. */
export function requestIdFrom(value: unknown): string {
  return saneRequestId(value) ?? randomUUID();
}

/** Runs `fn` with `requestId` as the current request: log lines and bus requests made within it carry the id. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/** Runs `fn` as the handling of the request `context`: its id and deadline hold for everything done within it. */
export function runWithRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request being handled, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
