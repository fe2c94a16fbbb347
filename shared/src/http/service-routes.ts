import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { type CallerContext, CONTEXT_HEADER, verifyContext } from '../context/signed-context.ts';
import type { RouteContract } from '../contracts/route.ts';
import { AppError } from '../errors/app-error.ts';
import { verifyJsonDepth } from './json-depth.ts';
import { type RequestSchemas, type Validated, validateRequest } from './validate.ts';

/** A handler's answer when the status differs from the contract's first success status. */
export class Reply {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    this.status = status;
    this.body = body;
  }
}

export type RouteHandler = (input: Validated, context: CallerContext, req: Request) => Promise<unknown> | unknown;

export function successStatus(contract: RouteContract): number {
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

/** Registers a public route on a service: validate with the contract's schemas, call the use case, answer. */
export function mountRoute(router: Router, contract: RouteContract, handler: RouteHandler): void {
  const status = successStatus(contract);
  const parsers = contract.bodyLimit ? [express.json({ limit: contract.bodyLimit, verify: verifyJsonDepth })] : [];
  router[contract.method](contract.path, ...parsers, async (req: Request, res: Response) => {
    const input = validateRequest(contract, req);
    if (contract.business && !callerOf(res).business) {
      throw new AppError(403, 'Recurso disponível apenas para empresas com licença ativa');
    }
    const result = await handler(input, callerOf(res), req);
    if (result instanceof Reply) res.status(result.status).json(result.body);
    else res.status(status).json(result);
  });
}

/**
 * An internal endpoint's handler (not in the public route table): validates the request with `schemas`,
 * runs the use case with the caller's signed context and answers its result as JSON.
 */
export const internalHandler =
  (schemas: RequestSchemas, run: (input: Validated, ctx: CallerContext) => Promise<unknown>) =>
  async (req: Request, res: Response) => {
    res.json(await run(validateRequest(schemas, req), callerOf(res)));
  };
