import { isAnonymous } from '@finance/shared/context/signed-context';
import { openBankingRoutes } from '@finance/shared/contracts/ledger/open-banking';
import { connectionRoutes } from '@finance/shared/contracts/ledger/open-banking-connections';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute, Reply } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { completeAuthorization } from '../../domain/open-banking/complete-authorization.ts';
import { listConnections } from '../../domain/open-banking/connections.ts';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listInstitutions,
  renewConnection,
  requestSync,
} from '../../domain/open-banking/manage-connections.ts';
import { attachItem } from '../../domain/open-banking/pluggy-connections.ts';
import { receivePluggyWebhook } from '../../domain/open-banking/pluggy-webhook.ts';
import { recoverImport, startImport } from '../../domain/open-banking/start-import.ts';
import { openFinanceFor } from '../../open-finance.ts';

const route = lookupIn(openBankingRoutes);
const connection = lookupIn(connectionRoutes);

export function mountOpenBankingRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  // the import job leaves through the outbox: the command wakes the relay once it has committed
  const relaySoon = () => runtime.outbox?.kick();
  mountRoute(router, route('importOpenBanking'), ({ body }, ctx) => startImport(orm.em.fork(), ctx, body, relaySoon), {
    recover: (point, _input, ctx) => recoverImport(orm.em.fork(), ctx, point),
  });
  mountRoute(router, route('listOpenBankingConnections'), ({ query }, ctx) =>
    listConnections(orm.em.fork(), ctx, query),
  );
  mountRoute(router, connection('listOpenBankingInstitutions'), () => listInstitutions(openFinanceFor(runtime)));
  mountRoute(router, connection('createOpenBankingConnection'), ({ body }, ctx) =>
    createConnection(orm.em.fork(), openFinanceFor(runtime), ctx, body),
  );
  mountRoute(router, connection('getOpenBankingConnection'), ({ params }, ctx) =>
    getConnection(orm.em.fork(), ctx, params.id),
  );
  mountRoute(router, connection('syncOpenBankingConnection'), ({ params }, ctx) =>
    requestSync(orm.em.fork(), ctx, params.id, relaySoon),
  );
  mountRoute(router, connection('renewOpenBankingConnection'), ({ params, body }, ctx) =>
    renewConnection(orm.em.fork(), openFinanceFor(runtime), ctx, params.id, body),
  );
  mountRoute(router, connection('deleteOpenBankingConnection'), ({ params }, ctx) => {
    const answer = deleteConnection(orm.em.fork(), ctx, params.id);
    return answer.finally(relaySoon);
  });
  mountRoute(router, connection('attachPluggyItem'), ({ params, body }, ctx) =>
    attachItem(orm.em.fork(), openFinanceFor(runtime), ctx, params.id, body.item_id, relaySoon),
  );
  // public: Pluggy's webhook, authenticated by its URL's token, bound to a connection by its item read back
  mountRoute(router, connection('pluggyWebhook'), ({ query, body }, ctx) =>
    isAnonymous(ctx)
      ? receivePluggyWebhook(orm.em.fork(), openFinanceFor(runtime), query.token, body, relaySoon)
      : new Reply(202, { received: true }),
  );
  // public: the gateway forwards the institution's redirect with the anonymous context; the state binds it
  mountRoute(router, connection('openBankingCallback'), async ({ query }, ctx, req) => {
    if (!isAnonymous(ctx))
      return new Reply(404, { message: 'Rota não encontrada', statusCode: 404, error: 'Not Found' });
    const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const result = await completeAuthorization(orm.em.fork(), openFinanceFor(runtime), query, rawQuery, relaySoon);
    const body = { connection_id: result.connection_id, status: result.status, message: result.message };
    if (!result.redirect) return body;
    req.res?.setHeader('location', result.redirect);
    return new Reply(303, body);
  });
}
