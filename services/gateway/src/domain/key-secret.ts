import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Public part of a key, sent as the Basic username. */
export const generateToken = (): string => `fk_${randomBytes(16).toString('hex')}`;

/** Private part, shown once at creation and stored only as a hash. */
export const generateSecret = (): string => randomBytes(32).toString('base64url');

/** Secrets are random with 256 bits, so a keyed HMAC is enough (no slow KDF needed). */
export const hashSecret = (secret: string, pepper: string): string =>
  createHmac('sha256', pepper).update(secret).digest('hex');

export function secretMatches(secret: string, storedHash: string, pepper: string): boolean {
  const given = Buffer.from(hashSecret(secret, pepper), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * A plain SHA-256 of a secret that matched its key's HMAC, kept by the key cache so the next requests compare
 * it instead of keying a new HMAC (its setup was ≈5 % of the gateway's CPU under creates). The secrets carry
 * 256 random bits, so the digest reveals no more than the stored hash does.
 */
export const secretDigest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

export const digestsEqual = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** Splits an `Authorization: Basic base64(token:secret)` header; null when anything is off. */
export function parseBasicCredentials(header: string | undefined): { token: string; secret: string } | null {
  if (!header) return null;
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') !== match[1].replace(/=+$/, '')) return null;
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { token: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
