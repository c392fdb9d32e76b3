import { BaseError, ContractFunctionRevertedError, HttpRequestError, TimeoutError } from 'viem';

/** Whether `err` is a contract call that reverted (as opposed to a transport or node failure). */
export function isRevert(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError) instanceof ContractFunctionRevertedError;
}

/** The decoded custom error name of a reverted contract call, when the ABI knew it. */
export function revertName(err: unknown): string | undefined {
  const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}

/** The code of a Solidity panic (`Panic(uint256)`, e.g. 0x11 for an arithmetic overflow) a contract call reverted with. */
export function panicCode(err: unknown): number | undefined {
  const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
  const data = reverted instanceof ContractFunctionRevertedError ? reverted.data : undefined;
  return data?.errorName === 'Panic' ? Number(data.args?.[0]) : undefined;
}

/** A short description of any failure of a chain call. */
export function shortMessage(err: unknown): string {
  return err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
}

/** Whether a chain call failed for want of an answer (no provider reachable, or none answered in time). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof BaseError && !!err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
}
