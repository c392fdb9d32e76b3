// Reading a response body: the client's answers and the route stream's refusals alike.

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field of a JSON body (`error`, `details`), or undefined. */
export const stringField = (body: unknown, key: string): string | undefined => (isRecord(body) && typeof body[key] === 'string' ? body[key] : undefined);

/** The body as JSON, or the text as it is when it is not JSON (`json` false). */
export function parseBody(text: string): { readonly body: unknown; readonly json: boolean } {
  try {
    return { body: JSON.parse(text), json: true };
  } catch {
    return { body: text, json: false };
  }
}
