import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { boundedSourceKey, SOURCE_KEY_MAX } from '../../src/domain/imports/source-key.ts';

describe('source keys', () => {
  it('when a key fits, then it is kept as written; when it is longer, then it is its SHA-256, always the same and short', () => {
    const fits = 'x'.repeat(SOURCE_KEY_MAX);
    expect(boundedSourceKey(fits)).toBe(fits);
    const long = `${fits}é`;
    expect(boundedSourceKey(long)).toBe(`sha256:${createHash('sha256').update(long, 'utf8').digest('hex')}`);
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 2000, unit: 'grapheme' }), (key) => {
        const bounded = boundedSourceKey(key);
        expect(bounded.length).toBeLessThanOrEqual(SOURCE_KEY_MAX);
        expect(boundedSourceKey(key)).toBe(bounded);
        if (key.length <= SOURCE_KEY_MAX) expect(bounded).toBe(key);
      }),
    );
  });
});
