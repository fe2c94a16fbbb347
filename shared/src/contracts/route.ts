import type Joi from 'joi';

export type ServiceName = 'gateway' | 'ledger' | 'billing' | 'insights';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Headers a service may set on one of its answers, beyond those the gateway sets on every answer. */
export type ResponseHeader = 'Retry-After';

export interface ResponseContract {
  description: string;
  schema?: Joi.Schema;
  /** Headers this answer carries (documented under `components.headers`), e.g. `Retry-After` on a 409 busy. */
  headers?: ResponseHeader[];
}

/** One public route: the gateway routes and documents it, the owning service validates with the same schemas. */
export interface RouteContract {
  operationId: string;
  method: HttpMethod;
  /** Express-style path, e.g. `/v1/accounts/:id`. */
  path: string;
  service: ServiceName;
  tag: string;
  summary: string;
  description?: string;
  /** Needs a company key with an active license. */
  business?: boolean;
  /** Request body size limit when larger than the default 1 MiB. */
  bodyLimit?: string;
  params?: Joi.ObjectSchema;
  query?: Joi.ObjectSchema;
  body?: Joi.Schema;
  /** Example request body for the docs. */
  example?: unknown;
  /** Example body of the success response for the docs. */
  responseExample?: unknown;
  responses: Record<number, ResponseContract>;
}

export const defineRoute = (route: RouteContract): RouteContract => route;

export const scopeFor = (method: HttpMethod): 'read' | 'write' => (method === 'get' ? 'read' : 'write');

/** Looks a contract up by operationId; a typo fails at start, not at request time. */
export function routeById(routes: RouteContract[], operationId: string): RouteContract {
  const found = routes.find((route) => route.operationId === operationId);
  if (!found) throw new Error(`unknown route ${operationId}`);
  return found;
}
