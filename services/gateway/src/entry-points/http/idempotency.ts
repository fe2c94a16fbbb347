import { invalidField } from '@finance/shared/errors/app-error';
import { IDEMPOTENCY_HEADER, WRITE_METHODS } from '@finance/shared/http/idempotency';
import type { Request, Response } from 'express';

/** A forwarding handler of the gateway's routes: what `idempotent` and the large answers' gate wrap. */
export type Handler = (req: Request, res: Response) => Promise<unknown>;

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Checks a write's `Idempotency-Key` and lets the proxy forward it: the owning service records the key
 * in its own database, in the write's transaction, and replays or refuses repeats (`docs/idempotency.md`).
 * The gateway keeps no state about keys, so an answer it loses (timeout, 503) never frees one.
 */
export function idempotent(proxy: Handler): Handler {
  return async (req, res) => {
    const given = req.header(IDEMPOTENCY_HEADER);
    if (given !== undefined && WRITE_METHODS.has(req.method) && !VALID_KEY.test(given)) {
      throw invalidField('Idempotency-Key', 'Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis');
    }
    res.locals.idempotencyKey = given !== undefined && WRITE_METHODS.has(req.method) ? given : undefined;
    return proxy(req, res);
  };
}
