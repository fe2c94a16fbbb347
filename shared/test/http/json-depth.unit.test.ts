import fc from 'fast-check';
import { jsonDepth, MAX_JSON_DEPTH, verifyJsonDepth } from '../../src/http/json-depth.ts';

/** The nesting depth of a parsed value, the reference the raw scan must agree with. */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

describe('JSON depth scan of a raw body', () => {
  it('when any JSON value is scanned, then the depth equals the depth of the parsed value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(jsonDepth(JSON.stringify(value))).toBe(depthOf(value));
        expect(jsonDepth(JSON.stringify(value, null, 2))).toBe(depthOf(value));
      }),
    );
  });

  it('when brackets and escaped quotes sit inside strings, then they do not count', () => {
    expect(jsonDepth('{"a":"[[[{{{","b":"\\"[[[","c":["x\\\\"]}')).toBe(2);
    expect(jsonDepth('"\\u005b[["')).toBe(0);
  });

  it('when a body nests 100,000 levels, then the scan stops past the limit without recursing', () => {
    const body = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonDepth(body, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(() => verifyJsonDepth(null, null, body, 'utf-8')).toThrow(
      expect.objectContaining({ status: 400, message: `JSON aninhado além do limite de ${MAX_JSON_DEPTH} níveis` }),
    );
  });

  it('when a body nests exactly the limit, then it passes; one more level is refused', () => {
    const nested = (levels: number) => Buffer.from(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
    expect(() => verifyJsonDepth(null, null, nested(MAX_JSON_DEPTH), 'utf-8')).not.toThrow();
    expect(() => verifyJsonDepth(null, null, nested(MAX_JSON_DEPTH + 1), 'utf-8')).toThrow();
    const utf16 = Buffer.from(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`, 'utf16le');
    expect(() => verifyJsonDepth(null, null, utf16, 'utf-16le')).toThrow();
  });
});
