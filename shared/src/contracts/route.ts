import type Joi from 'joi';

export type ServiceName = 'gateway' | 'ledger' | 'billing' | 'insights';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Headers a service may set on one of its answers, beyond those the gateway sets on every answer. */
export type ResponseHeader = 'Retry-After' | 'Location';

export interface ResponseContract {
  description: string;
  schema?: Joi.Schema;
  /** Headers this answer carries (documented under `components.headers`), e.g. `Retry-After` on a 409 busy. */
  headers?: ResponseHeader[];
}

/**
 * A route whose body is a file (a bank statement), not JSON: the gateway passes its bytes on as they arrive, in
 * one of these media types (others are 415), up to the route's `bodyLimit` (413 beyond); the owning service
 * stores them as they arrive (`ServiceDefinition.fileStore`) and its handler gets a `ReceivedFile`.
 */
export interface FileBody {
  mediaTypes: string[];
  description: string;
  /** A file for the docs and for the every-route suites. */
  example: string;
}

/** What a request part holds when its contract has no schema for it. */
export type NoInput = Record<never, never>;

/**
 * One route: the gateway routes and documents the public ones, the owning service validates with the same
 * schemas and its handler receives their types (`P` params, `Q` query, `B` body) with no cast.
 * `Joi.object<T>()` in a contract names the type its schema produces.
 */
export interface RouteContract<
  P extends object = NoInput,
  Q extends object = NoInput,
  B = unknown,
  Id extends string = string,
> {
  operationId: Id;
  method: HttpMethod;
  /** Express-style path, e.g. `/v1/accounts/:id`. */
  path: string;
  service: ServiceName;
  /** Service-to-service only: absent from the gateway's table and the public docs, reached with a signed context. */
  internal?: boolean;
  tag: string;
  summary: string;
  description?: string;
  /** Needs a company key with an active license. */
  business?: boolean;
  /**
   * Reached without an API key (a bank sends the customer's browser back to it): the gateway forwards it with
   * the anonymous context, and the handler binds the request to its record by what it carries.
   */
  public?: boolean;
  /** Request body size limit when larger than the default 1 MiB. */
  bodyLimit?: string;
  /** The body is a file in one of these media types (`body` is then `receivedFile()`, the handler gets a `ReceivedFile`). */
  file?: FileBody;
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  body?: Joi.AnySchema<B>;
  /** Example request body for the docs. */
  example?: unknown;
  /** Example body of the success response for the docs. */
  responseExample?: unknown;
  responses: Record<number, ResponseContract>;
}

/** Any contract, whatever its input types: route tables, the gateway and the docs read only its shape. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds contracts of every input type; each is typed where it is mounted
export type AnyRoute = RouteContract<any, any, any>;

/** The validated input a contract's handler receives. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/** Keeps the operationId's literal type, so `routeById` gives back this contract with its input types. */
export const defineRoute = <
  const Id extends string,
  P extends object = NoInput,
  Q extends object = NoInput,
  B = unknown,
>(
  route: RouteContract<P, Q, B, Id>,
): RouteContract<P, Q, B, Id> => route;

/** A route's body limit in bytes: its `bodyLimit` (`10mb`), else the default 1 MiB. */
export const bodyLimitBytes = (route: Pick<AnyRoute, 'bodyLimit'>): number =>
  Number(/^(\d+)mb$/.exec(route.bodyLimit ?? '')?.[1] ?? 1) * 1024 * 1024;

export const scopeFor = (method: HttpMethod): 'read' | 'write' => (method === 'get' ? 'read' : 'write');

/** Looks a contract up by operationId (typed: a typo fails the type-check, and at start), with its input types. */
export function routeById<R extends AnyRoute, Id extends R['operationId']>(
  routes: readonly R[],
  operationId: Id,
): Extract<R, { operationId: Id }> {
  const found = routes.find((route) => route.operationId === operationId);
  if (!found) throw new Error(`unknown route ${operationId}`);
  return found as Extract<R, { operationId: Id }>;
}

/** A typed lookup into one table: `const route = lookupIn(tagRoutes); route('createTag')`. */
export const lookupIn =
  <R extends AnyRoute>(routes: readonly R[]) =>
  <Id extends R['operationId']>(operationId: Id) =>
    routeById(routes, operationId);

/** Fills an Express-style path's `:name` segments (each value URI-encoded). */
export function pathOf(route: Pick<AnyRoute, 'path'>, params: Record<string, string> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${route.path}`);
    return encodeURIComponent(value);
  });
}
