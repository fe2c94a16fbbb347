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

/**
 * The context the gateway signs for a public route (no API key: a bank's redirect of the customer's browser): no
 * user, so it can reach no context's records; the handler finds its record by what the request carries.
 */
export const ANONYMOUS_CONTEXT: CallerContext = {
  userId: '00000000-0000-0000-0000-000000000000',
  profileId: null,
  business: false,
  keyId: null,
};

export const isAnonymous = (ctx: CallerContext) => ctx.userId === ANONYMOUS_CONTEXT.userId && ctx.keyId === null;
const TTL_MS = 60_000;

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** How long a signed header is reused for the same context (it stays valid for at least TTL − this). */
const REUSE_MS = 10_000;
/** Past this many entries a cache starts over (contexts of live keys, headers of the last minute). */
const MAX_CACHED = 10_000;

const signed = new Map<string, Map<string, { header: string; signedAt: number }>>();
const verified = new Map<string, Map<string, CallerContext & { exp: number }>>();

function cacheOf<T>(caches: Map<string, Map<string, T>>, secret: string): Map<string, T> {
  let cache = caches.get(secret);
  if (!cache) {
    cache = new Map();
    caches.set(secret, cache);
  }
  if (cache.size >= MAX_CACHED) cache.clear();
  return cache;
}

/**
 * The signed header of a context, valid for a minute. The same context reuses its header for 10 s, so neither
 * side computes an HMAC per request (each service keeps the headers it verified until they expire).
 */
export function signContext(ctx: CallerContext, secret: string, now = Date.now()): string {
  const cache = cacheOf(signed, secret);
  const key = `${ctx.userId}|${ctx.profileId}|${ctx.business}|${ctx.keyId}`;
  const reused = cache.get(key);
  if (reused && now >= reused.signedAt && now - reused.signedAt < REUSE_MS) return reused.header;
  const payload = Buffer.from(JSON.stringify({ ...ctx, exp: now + TTL_MS })).toString('base64url');
  const header = `${payload}.${sign(payload, secret)}`;
  cache.set(key, { header, signedAt: now });
  return header;
}

/** Returns the context when the header is well-formed, correctly signed and not expired; null otherwise. */
export function verifyContext(header: string | undefined, secret: string, now = Date.now()): CallerContext | null {
  if (!header) return null;
  const cache = cacheOf(verified, secret);
  const known = cache.get(header);
  if (known) {
    if (known.exp < now) return null;
    const { exp: _exp, ...ctx } = known;
    return ctx;
  }
  const [payload, signature, extra] = header.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof data.exp !== 'number' || data.exp < now || typeof data.userId !== 'string') return null;
    const ctx: CallerContext = {
      userId: data.userId,
      profileId: typeof data.profileId === 'string' ? data.profileId : null,
      business: data.business === true,
      keyId: typeof data.keyId === 'string' ? data.keyId : null,
    };
    cache.set(header, { ...ctx, exp: data.exp });
    return { ...ctx };
  } catch {
    return null;
  }
}
