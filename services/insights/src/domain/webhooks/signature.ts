import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying a delivery's signature (Stripe's scheme): `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'Finance-Signature';

/** HMAC-SHA256 of `"<t>.<raw body>"` keyed with the webhook's secret, as lowercase hex. */
export const signaturePayload = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const signatureHeader = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${signaturePayload(secret, timestamp, body)}`;

/**
 * What a receiver does (docs/webhooks.md shows it): parse the header, recompute the HMAC over the raw body and
 * compare in constant time, refusing a timestamp older than the tolerance (replays).
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [key, value] = item.split('=', 2);
    if (key && value) parts.set(key.trim(), [...(parts.get(key.trim()) ?? []), value.trim()]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signaturePayload(secret, timestamp, body), 'hex');
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
