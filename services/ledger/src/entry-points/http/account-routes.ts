import { accountRoutes } from '@finance/shared/contracts/ledger/accounts';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import { billingFor } from '../../billing-client.ts';
import type { LedgerRuntime } from '../../config.ts';
import { listBanks } from '../../domain/accounts/banks.ts';
import { deleteAccount } from '../../domain/accounts/delete-account.ts';
import { createAccount, getAccount, listAccounts, updateAccount } from '../../domain/accounts/manage-accounts.ts';

const route = lookupIn(accountRoutes);

export function mountAccountRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const logoBase = runtime.config.BANK_LOGO_BASE_URL;
  mountRoute(router, route('createAccount'), ({ body }, ctx) => createAccount(orm.em.fork(), ctx, body, logoBase));
  mountRoute(router, route('updateAccount'), ({ params, body }, ctx) =>
    updateAccount(orm.em.fork(), ctx, params.id, body, logoBase),
  );
  mountRoute(router, route('listAccounts'), ({ query }, ctx) => listAccounts(orm.em.fork(), ctx, query));
  mountRoute(router, route('getAccount'), ({ params }, ctx) => getAccount(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('listBanks'), () => listBanks(logoBase));
  mountRoute(router, route('deleteAccount'), ({ params }, ctx) =>
    deleteAccount(orm.em.fork(), billingFor(runtime), ctx, params.id),
  );
}
