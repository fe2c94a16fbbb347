import { personalConfigRoutes } from '@finance/shared/contracts/ledger/personal-config';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { getPersonalConfig, updatePersonalConfig } from '../../domain/preferences/personal-config.ts';

const route = lookupIn(personalConfigRoutes);

export function mountPersonalConfigRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('getPersonalConfig'), (_input, ctx) => getPersonalConfig(orm.em.fork(), ctx));
  mountRoute(router, route('updatePersonalConfig'), ({ body }, ctx) => updatePersonalConfig(orm.em.fork(), ctx, body));
}
