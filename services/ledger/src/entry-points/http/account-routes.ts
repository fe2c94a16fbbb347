import { accountRoutes } from '@finance/shared/contracts/ledger/accounts';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { listBanks } from '../../domain/accounts/banks.ts';
import { deleteAccount } from '../../domain/accounts/delete-account.ts';
import {
  type AccountInput,
  createAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from '../../domain/accounts/manage-accounts.ts';

const route = (operationId: string) => routeById(accountRoutes, operationId);

export function mountAccountRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const logoBase = runtime.config.BANK_LOGO_BASE_URL;
  mountRoute(router, route('createAccount'), (input, ctx) =>
    createAccount(orm.em.fork(), ctx, input.body as AccountInput, logoBase),
  );
  mountRoute(router, route('updateAccount'), (input, ctx) =>
    updateAccount(orm.em.fork(), ctx, String(input.params.id), input.body as AccountInput, logoBase),
  );
  mountRoute(router, route('listAccounts'), (input, ctx) =>
    listAccounts(orm.em.fork(), ctx, input.query as { limit: number; cursor?: string }),
  );
  mountRoute(router, route('getAccount'), (input, ctx) => getAccount(orm.em.fork(), ctx, String(input.params.id)));
  mountRoute(router, route('listBanks'), () => listBanks(logoBase));
  mountRoute(router, route('deleteAccount'), (input, ctx) =>
    deleteAccount(orm.em.fork(), ctx, String(input.params.id), billingFor(runtime)),
  );
}
