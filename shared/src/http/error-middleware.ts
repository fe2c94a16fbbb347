import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, errorBody } from '../errors/app-error.ts';
import { isDatabaseUnavailable, type OutageLog, unavailable } from './dependency-outage.ts';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** Errors raised by express.json() and friends, mapped to the public error shape. */
function fromBodyParser(err: HttpishError): AppError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'JSON malformado');
    case 'entity.too.large':
      return new AppError(413, 'Corpo da requisição excede o limite');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'Codificação não suportada');
    case 'request.aborted':
      return new AppError(400, 'Requisição interrompida');
    default:
      return fromClientError(err);
  }
}

// Other client errors express raises (undecodable %-escapes in a path, a body that fails to inflate).
function fromClientError(err: HttpishError): AppError | null {
  const status = err.statusCode ?? err.status;
  if (err instanceof URIError) return new AppError(400, 'Caminho da requisição malformado');
  // http-errors marks the ones meant for the client with `expose`
  if (err.expose && status && status >= 400 && status < 500) return new AppError(status, 'Requisição inválida');
  return null;
}

/**
 * The one error middleware: known errors become their status and body; PostgreSQL out of reach a 503
 * with Retry-After (logged once per outage by `outage`); anything else a bare 500.
 */
export function errorMiddleware(logger: Logger, outage?: OutageLog) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let known = err instanceof AppError ? err : fromBodyParser(err as HttpishError);
    if (!known && isDatabaseUnavailable(err)) {
      outage?.down(err);
      known = unavailable();
    }
    if (!known) {
      logger.error({ err, path: req.path, method: req.method, reqId: req.id }, 'unhandled error');
    }
    const error = known ?? new AppError(500, 'Erro interno do servidor');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
    res.status(error.status).json(error.toBody());
  };
}

export function notFoundHandler(_req: Request, res: Response) {
  res.status(404).json(errorBody(404, 'Rota não encontrada'));
}
