import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SecretBox, SecretUnreadable } from '../../src/domain/open-banking/secret-box.ts';

const key = () => randomBytes(32).toString('base64');

describe('secrets sealed at rest (AES-256-GCM with a key id)', () => {
  const old = `k1:${key()}`;
  const next = `k2:${key()}`;

  it('when any text is sealed, then the sealed text hides it and opens back to it', () => {
    const box = new SecretBox(old);
    fc.assert(
      fc.property(fc.string({ minLength: 8 }), (plain) => {
        const sealed = box.seal(plain);
        expect(sealed).toMatch(/^v1\.k1\./);
        expect(sealed).not.toContain(plain);
        expect(box.open(sealed)).toBe(plain);
      }),
    );
  });

  it('when the key rotates (new key first, old kept), then old texts open and new ones seal under the new key', () => {
    const sealed = new SecretBox(old).seal('refresh-token');
    const rotated = new SecretBox(`${next},${old}`);
    expect(rotated.open(sealed)).toBe('refresh-token');
    expect(rotated.isStale(sealed)).toBe(true);
    const resealed = rotated.seal('refresh-token');
    expect(resealed).toMatch(/^v1\.k2\./);
    expect(rotated.isStale(resealed)).toBe(false);
    // once the old key is gone its texts cannot be opened
    expect(() => new SecretBox(next).open(sealed)).toThrow(SecretUnreadable);
  });

  it('when a sealed text is tampered with or its key id changed, then it does not open', () => {
    const box = new SecretBox(`${next},${old}`);
    const sealed = box.seal('segredo');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url'), parts[4]].join('.'))).toThrow(
      SecretUnreadable,
    );
    expect(() => box.open(['v1', 'k1', ...parts.slice(2)].join('.'))).toThrow(SecretUnreadable);
    expect(() => box.open('not sealed')).toThrow(SecretUnreadable);
  });

  it('when the keyring is malformed, then it is refused', () => {
    expect(() => new SecretBox('k1')).toThrow(/OPEN_BANKING_ENCRYPTION_KEYS/);
    expect(() => new SecretBox(`k1:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/);
  });
});
