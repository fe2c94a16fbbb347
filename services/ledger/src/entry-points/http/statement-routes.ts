import type { CallerContext } from '@finance/shared/context/signed-context';
import { reconciliationRoutes } from '@finance/shared/contracts/ledger/reconciliation';
import { statementRoutes } from '@finance/shared/contracts/ledger/statements';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import {
  listSuggestions,
  reconcileTransaction,
  unreconcileTransaction,
} from '../../domain/imports/manage-reconciliation.ts';
import { unlinkMatch } from '../../domain/imports/unlink-match.ts';
import { recoverStatementImport, startStatementImport } from '../../domain/statements/import-statement.ts';

const statement = lookupIn(statementRoutes);
const reconciliation = lookupIn(reconciliationRoutes);

export function mountStatementRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  // the import job leaves through the outbox: the command wakes the relay once it has committed
  const relaySoon = () => runtime.outbox?.kick();
  // a retry whose first attempt died after its commit answers from the import's job
  const recover = (point: unknown, _input: unknown, ctx: CallerContext) =>
    recoverStatementImport(orm.em.fork(), ctx, point);
  mountRoute(
    router,
    statement('importAccountStatement'),
    ({ params, query, body }, ctx, req) =>
      startStatementImport(
        orm.em.fork(),
        billingFor(runtime),
        ctx,
        { holder: { account_id: params.id }, file: body, query, contentType: req.get('content-type') },
        relaySoon,
      ),
    { recover },
  );
  mountRoute(
    router,
    statement('importCardStatement'),
    ({ params, query, body }, ctx, req) =>
      startStatementImport(
        orm.em.fork(),
        billingFor(runtime),
        ctx,
        { holder: { credit_card_id: params.id }, file: body, query, contentType: req.get('content-type') },
        relaySoon,
      ),
    { recover },
  );
  mountRoute(router, reconciliation('listReconciliationSuggestions'), ({ query }, ctx) =>
    listSuggestions(orm.em.fork(), ctx, query),
  );
  mountRoute(router, reconciliation('reconcileTransaction'), ({ params, body }, ctx) =>
    reconcileTransaction(orm.em.fork(), ctx, params.id, body.transaction_id),
  );
  mountRoute(router, reconciliation('unreconcileTransaction'), ({ params }, ctx) =>
    unreconcileTransaction(orm.em.fork(), ctx, params.id),
  );
  mountRoute(router, reconciliation('unlinkTransaction'), ({ params }, ctx) =>
    unlinkMatch(orm.em.fork(), ctx, params.id),
  );
}
