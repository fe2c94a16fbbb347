import { openBankingRoutes } from '@finance/shared/contracts/ledger/open-banking';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { listConnections } from '../../domain/open-banking/connections.ts';
import type { ImportPayload } from '../../domain/open-banking/import-payload.ts';
import { startImport } from '../../domain/open-banking/start-import.ts';

const route = (operationId: string) => routeById(openBankingRoutes, operationId);

export function mountOpenBankingRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('importOpenBanking'), (input, ctx) =>
    startImport(orm.em.fork(), ctx, input.body as ImportPayload),
  );
  mountRoute(router, route('listOpenBankingConnections'), (input, ctx) =>
    listConnections(
      orm.em.fork(),
      ctx,
      input.query as { limit: number; cursor?: string; status?: 'ACTIVE' | 'REVOKED' },
    ),
  );
}
