import { unauthorized } from '@finance/shared/errors/app-error';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { type AuthenticatedKey, authenticateKey } from '../../domain/authenticate-key.ts';
import type { KeyCache } from '../../domain/key-cache.ts';

// /metrics answers before this when it is open; closed (production without ADMIN_SECRET), it is an unknown path
export const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/openapi.json']);

export const keyOf = (res: Response): AuthenticatedKey => res.locals.key as AuthenticatedKey;

/**
 * Every non-public path, known or not, first proves its key: a bad credential is the spec's 401 everywhere.
 * The docs and the queue dashboard answer their own paths before this; anything else under them lands here.
 */
export function authenticate(orm: MikroORM, pepper: string, cache?: KeyCache) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (PUBLIC_PATHS.has(req.path)) return next();
    const key = await authenticateKey(orm.em, req.header('authorization'), pepper, cache);
    if (!key) throw unauthorized();
    res.locals.key = key;
    next();
  };
}
