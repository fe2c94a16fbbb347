import { type AnyRoute, scopeFor } from '@finance/shared/contracts/route';
import { AppError, forbidden } from '@finance/shared/errors/app-error';
import type { NextFunction, Request, Response } from 'express';
import typeis from 'type-is';
import { keyOf } from './authenticate.ts';

/** Scope by method, business license by route. */
export function authorize(route: AnyRoute) {
  const scope = scopeFor(route.method);
  return (_req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(res);
    if (!key.scopes.includes(scope)) throw forbidden(`Esta chave não tem o escopo ${scope}`);
    if (route.business && !key.context.business) {
      throw forbidden('Recurso disponível apenas para empresas com licença ativa');
    }
    next();
  };
}

/** A body in anything but JSON is 415; a POST without a body (duplicate) is fine. */
export function requireJson(req: Request, _res: Response, next: NextFunction) {
  if (
    typeis.hasBody(req) &&
    Number(req.headers['content-length'] ?? 1) > 0 &&
    !typeis(req, ['application/json', 'application/*+json'])
  ) {
    throw new AppError(415, 'Envie o corpo como application/json');
  }
  next();
}

/** A file route's body in one of its media types, else 415 naming them (a body is required). */
/** A body whose declared length is over `limit` bytes is 413 before a byte of it is read (a chunked one is counted as it passes). */
export function refuseLargerThan(limit: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (Number(req.get('content-length') ?? 0) > limit) throw fileTooLarge(limit);
    next();
  };
}

/** 413 for a file over `limit` bytes; the connection closes, as the client may still be sending. */
export const fileTooLarge = (limit: number) =>
  new AppError(413, `Arquivo maior que ${limit / (1024 * 1024)} MiB`, { headers: { connection: 'close' } });

export function requireMediaType(mediaTypes: string[]) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!typeis.hasBody(req) || !typeis(req, mediaTypes)) {
      throw new AppError(415, `Envie o arquivo no corpo como ${mediaTypes.join(', ')}`);
    }
    next();
  };
}
