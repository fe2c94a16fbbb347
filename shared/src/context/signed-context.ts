import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who is calling: the key's user and context, resolved by the gateway and trusted by services only when signed. */
export interface CallerContext {
  userId: string;
  profileId: string | null;
  /** The context is a company whose license is active: business endpoints and fields are allowed. */
  business: boolean;
  keyId: string | null;
}

export const CONTEXT_HEADER = 'x-finance-context';
const TTL_MS = 60_000;

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function signContext(ctx: CallerContext, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ ...ctx, exp: now + TTL_MS })).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/** Returns the context when the header is well-formed, correctly signed and not expired; null otherwise. */
export function verifyContext(header: string | undefined, secret: string, now = Date.now()): CallerContext | null {
  if (!header) return null;
  const [payload, signature, extra] = header.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof data.exp !== 'number' || data.exp < now || typeof data.userId !== 'string') return null;
    return {
      userId: data.userId,
      profileId: typeof data.profileId === 'string' ? data.profileId : null,
      business: data.business === true,
      keyId: typeof data.keyId === 'string' ? data.keyId : null,
    };
  } catch {
    return null;
  }
}
