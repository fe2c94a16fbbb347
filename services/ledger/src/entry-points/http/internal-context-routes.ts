import { ledgerForServicesRoutes } from '@finance/shared/contracts/internal/ledger-for-services';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { contextTimeZone } from '../../domain/preferences/personal-config.ts';

const route = lookupIn(ledgerForServicesRoutes);

/** The context's time zone for billing and insights (behind the signed context; never routed by the gateway). */
export function mountInternalContextRoutes(router: Router, runtime: LedgerRuntime): void {
  mountRoute(router, route('getContextTimeZone'), async (_input, ctx) => ({
    time_zone: await contextTimeZone(runtime.orm.em.fork(), ctx),
  }));
}
