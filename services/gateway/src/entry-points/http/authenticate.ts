import { unauthorized } from '@finance/shared/errors/app-error';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { type AuthenticatedKey, authenticateKey } from '../../domain/authenticate-key.ts';

export const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);
const isPublic = (path: string) => PUBLIC_PATHS.has(path) || path === '/docs' || path.startsWith('/docs/');

export const keyOf = (res: Response): AuthenticatedKey => res.locals.key as AuthenticatedKey;

/** Every non-public path, known or not, first proves its key: a bad credential is the spec's 401 everywhere. */
export function authenticate(orm: MikroORM, pepper: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (isPublic(req.path) || req.path.startsWith('/admin/')) return next();
    const key = await authenticateKey(orm.em.fork(), req.header('authorization'), pepper);
    if (!key) throw unauthorized();
    res.locals.key = key;
    next();
  };
}
