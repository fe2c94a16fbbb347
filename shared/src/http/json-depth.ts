import { AppError } from '../errors/app-error.ts';

/** Deepest nesting of arrays and objects a JSON body may have; no contract comes close. */
export const MAX_JSON_DEPTH = 64;

export const DEPTH_MESSAGE = `JSON aninhado além do limite de ${MAX_JSON_DEPTH} níveis`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The deepest nesting of `[`/`{` in a raw JSON text, counted without parsing and without recursion (strings
 * are skipped, escapes included), stopping as soon as `limit` is passed. Works on UTF-8 bytes: every
 * structural character is ASCII and no multi-byte UTF-8 sequence contains an ASCII byte.
 */
export function jsonDepth(body: Uint8Array | string, limit = Number.POSITIVE_INFINITY): number {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return deepest;
}

/**
 * `verify` option for express.json(): runs on the raw body before `JSON.parse`, so a body nested deeper than
 * MAX_JSON_DEPTH is 400 before anything recurses over it (parsing, validation, re-serialization).
 */
export function verifyJsonDepth(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  const text = encoding && !/^utf-?8$/i.test(encoding) ? new TextDecoder(encoding).decode(body) : body;
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new AppError(400, DEPTH_MESSAGE, { details: [{ field: 'body', message: DEPTH_MESSAGE }] });
  }
}
