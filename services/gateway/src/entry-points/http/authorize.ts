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
export function requireMediaType(mediaTypes: string[]) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!typeis.hasBody(req) || !typeis(req, mediaTypes)) {
      throw new AppError(415, `Envie o arquivo no corpo como ${mediaTypes.join(', ')}`);
    }
    next();
  };
}
