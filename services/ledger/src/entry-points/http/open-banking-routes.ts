import { openBankingRoutes } from '@finance/shared/contracts/ledger/open-banking';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { listConnections } from '../../domain/open-banking/connections.ts';
import { recoverImport, startImport } from '../../domain/open-banking/start-import.ts';

const route = lookupIn(openBankingRoutes);

export function mountOpenBankingRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  // the import job leaves through the outbox: the command wakes the relay once it has committed
  mountRoute(
    router,
    route('importOpenBanking'),
    ({ body }, ctx) => startImport(orm.em.fork(), ctx, body, () => runtime.outbox?.kick()),
    { recover: (point, _input, ctx) => recoverImport(orm.em.fork(), ctx, point) },
  );
  mountRoute(router, route('listOpenBankingConnections'), ({ query }, ctx) =>
    listConnections(orm.em.fork(), ctx, query),
  );
}
