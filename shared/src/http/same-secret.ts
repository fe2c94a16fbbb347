import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret a caller gave is the expected one, in time that does not depend on where they differ (nor on
 * the given one's length: it is padded to the expected one's first).
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  const padded = Buffer.alloc(b.length);
  a.copy(padded);
  return timingSafeEqual(padded, b) && a.length === b.length;
}
