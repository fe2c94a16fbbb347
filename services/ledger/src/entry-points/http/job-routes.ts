import { jobRoutes } from '@finance/shared/contracts/ledger/jobs';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { getBackgroundJob } from '../../domain/jobs/background-jobs.ts';

const route = lookupIn(jobRoutes);

export function mountJobRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('getJob'), ({ params }, ctx) => getBackgroundJob(orm.em.fork(), ctx, params.id));
}
