import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { type CallerContext, CONTEXT_HEADER, verifyContext } from '../context/signed-context.ts';
import type { AnyRoute, RouteContract, RouteInput, ServiceName } from '../contracts/route.ts';
import { idempotencyScope, KEY_IN_FLIGHT } from '../db/idempotency-records.ts';
import { AppError } from '../errors/app-error.ts';
import { servingIdempotentRequest } from './idempotency.ts';
import { verifyJsonDepth } from './json-depth.ts';
import { endWithBytes, writeAsProduced } from './send-bytes.ts';
import { validateRequest } from './validate.ts';

/** A handler's answer when the status differs from the contract's first success status. */
export class Reply {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    this.status = status;
    this.body = body;
  }
}

/**
 * A success body already serialized as UTF-8 JSON (a large answer assembled from another service's answer, or
 * records PostgreSQL wrote): sent as `res.json` would send its parsed form, without parsing and serializing it
 * again. Given in pieces, they are written one after the other (a megabyte part is not copied to join a few
 * bytes to it).
 */
export class JsonBytes {
  readonly pieces: readonly Buffer[];
  constructor(bytes: Buffer | readonly Buffer[]) {
    this.pieces = Buffer.isBuffer(bytes) ? [bytes] : bytes;
  }
}

/**
 * A success body of UTF-8 JSON written piece by piece as `produce` makes it (chunked), for an answer of megabytes
 * read from PostgreSQL: each piece leaves as soon as it is made and dies young, instead of all of them living
 * until the last row (long enough for V8 to move them to its old generation, whose collections are rare). Only
 * for internal routes, whose caller reads the whole answer before it answers: a failure once a piece has left
 * cuts the connection, which the caller turns into its 503.
 */
export class JsonStream {
  readonly produce: (write: (piece: Buffer) => void) => Promise<void>;
  constructor(produce: (write: (piece: Buffer) => void) => Promise<void>) {
    this.produce = produce;
  }
}

/** Every piece a stream makes, in order. */
async function gathered(stream: JsonStream): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  await stream.produce((piece) => pieces.push(piece));
  return pieces;
}

export type RouteHandler<P, Q, B> = (
  input: RouteInput<P, Q, B>,
  context: CallerContext,
  req: Request,
) => Promise<unknown> | unknown;

/**
 * Rebuilds a route's answer, writing nothing, from the recovery point its first attempt kept with its write
 * (`keepRecoveryPoint`), for a retry with the same `Idempotency-Key` after that attempt's answer was lost.
 */
export type RecoverHandler<P, Q, B> = (
  point: unknown,
  input: RouteInput<P, Q, B>,
  context: CallerContext,
) => Promise<unknown> | unknown;

export function successStatus(contract: AnyRoute): number {
  const status = Object.keys(contract.responses)
    .map(Number)
    .find((code) => code >= 200 && code < 300);
  return status ?? 200;
}

/** Services trust only a context signed by the gateway with the internal secret. */
export function requireContext(secret: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const context = verifyContext(req.header(CONTEXT_HEADER), secret);
    if (!context) throw new AppError(401, 'Contexto interno ausente ou inválido');
    res.locals.context = context;
    next();
  };
}

export const callerOf = (res: Response): CallerContext => res.locals.context as CallerContext;

/** The contracts mounted on each router (a service's app): it checks at start that it serves all it owns. */
const mounted = new WeakMap<Router, Set<AnyRoute>>();

/**
 * Registers a route (public or internal) on its service: validate with the contract's schemas, call the use
 * case with the input typed by those schemas, answer with the contract's success status (or a `Reply`).
 */
export function mountRoute<P extends object, Q extends object, B>(
  router: Router,
  contract: RouteContract<P, Q, B>,
  handler: RouteHandler<P, Q, B>,
  options: { recover?: RecoverHandler<P, Q, B> } = {},
): void {
  const status = successStatus(contract);
  const parsers = contract.bodyLimit ? [express.json({ limit: contract.bodyLimit, verify: verifyJsonDepth })] : [];
  router[contract.method](contract.path, ...parsers, async (req: Request, res: Response) => {
    // the schemas produce exactly the types the contract names (`Joi.object<T>()`)
    const input = validateRequest(contract, req) as RouteInput<P, Q, B>;
    if (contract.business && !callerOf(res).business) {
      throw new AppError(403, 'Recurso disponível apenas para empresas com licença ativa');
    }
    // an answer the use case keeps in its commit (`keepAnswer`) is sent with this status
    const scope = idempotencyScope.getStore();
    if (scope) scope.successStatus = status;
    let answer: unknown;
    if (scope?.recovering === undefined) answer = await handler(input, callerOf(res), req);
    else if (options.recover) answer = await options.recover(scope.recovering, input, callerOf(res));
    else throw new AppError(409, KEY_IN_FLIGHT);
    // the key's record keeps the answer `res.json` gives it (idempotentWrites): a stream is gathered first
    const result =
      answer instanceof JsonStream && servingIdempotentRequest() ? new JsonBytes(await gathered(answer)) : answer;
    if (result instanceof Reply) res.status(result.status).json(result.body);
    else if (result instanceof JsonBytes && servingIdempotentRequest()) {
      res.status(status).json(JSON.parse(Buffer.concat(result.pieces).toString('utf8')));
    } else if (result instanceof JsonBytes || result instanceof JsonStream) {
      // what res.json does after JSON.stringify: the same headers and bytes
      if (!res.get('Content-Type')) res.set('Content-Type', 'application/json; charset=utf-8');
      if (result instanceof JsonBytes) endWithBytes(res.status(status), result.pieces);
      else await writeAsProduced(res.status(status), result.produce);
    } else res.status(status).json(result);
  });
  const served = mounted.get(router) ?? new Set<AnyRoute>();
  served.add(contract);
  mounted.set(router, served);
}

/** The contracts `service` owns that no `mountRoute` served on `router`: a start with any left out is refused. */
export function unmountedContracts(router: Router, service: ServiceName, contracts: readonly AnyRoute[]): string[] {
  const served = mounted.get(router);
  return contracts
    .filter((contract) => contract.service === service && !served?.has(contract))
    .map((contract) => `${contract.method.toUpperCase()} ${contract.path} (${contract.operationId})`);
}
