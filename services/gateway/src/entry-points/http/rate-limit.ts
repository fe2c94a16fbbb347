import { errorBody } from '@finance/shared/errors/app-error';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLeaseStore } from '../../data-access/rate-leases.ts';
import { RateBudget } from '../../domain/rate-budget.ts';
import { keyOf } from './authenticate.ts';

/**
 * Per-key limit counted together by every gateway replica through Redis, without a round trip per request:
 * each replica spends tokens leased in small batches (see `RateBudget`). Fails open when Redis is away.
 */
export function rateLimitPerKey(redis: Redis, windowMs: number, limit: number, prefix = 'finance') {
  const store = new RateLeaseStore(redis, prefix);
  const budget = new RateBudget(store, limit, windowMs);
  const policy = `"${limit}-in-${Math.ceil(windowMs / 1000)}sec"`;
  const windowSeconds = Math.ceil(windowMs / 1000);
  return async (_req: Request, res: Response, next: NextFunction) => {
    const keyId = res.locals.key ? keyOf(res).context.keyId : undefined;
    // while Redis is away requests pass at once instead of waiting for a reconnect
    if (!keyId || !store.available) return next();
    let decision: Awaited<ReturnType<RateBudget['take']>>;
    try {
      decision = await budget.take(keyId);
    } catch {
      return next();
    }
    const resetSeconds = Math.max(1, Math.ceil(decision.resetInMs / 1000));
    res.setHeader('RateLimit-Policy', `${policy}; q=${limit}; w=${windowSeconds}`);
    res.setHeader('RateLimit', `${policy}; r=${decision.remaining}; t=${resetSeconds}`);
    if (decision.allowed) return next();
    res.setHeader('Retry-After', String(resetSeconds));
    res.status(429).json(errorBody(429, 'Limite de requisições excedido; tente novamente mais tarde'));
  };
}
