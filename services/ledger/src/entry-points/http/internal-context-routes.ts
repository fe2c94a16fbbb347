import { LEDGER_CONTEXT_PATHS } from '@finance/shared/clients/ledger-context-client';
import { callerOf } from '@finance/shared/http/service-routes';
import type { Request, Response, Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { contextTimeZone } from '../../domain/preferences/personal-config.ts';

/** The context's time zone for billing and insights (behind the signed context; never routed by the gateway). */
export function mountInternalContextRoutes(router: Router, runtime: LedgerRuntime): void {
  router.get(LEDGER_CONTEXT_PATHS.timeZone, async (_req: Request, res: Response) => {
    res.json({ time_zone: await contextTimeZone(runtime.orm.em.fork(), callerOf(res)) });
  });
}
