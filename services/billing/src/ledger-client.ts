import { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import type { BillingRuntime } from './config.ts';

const clients = new WeakMap<BillingRuntime, LedgerBillingClient>();

/** One ledger client per running billing service (tests read its call counter). */
export function ledgerFor(runtime: BillingRuntime): LedgerBillingClient {
  let client = clients.get(runtime);
  if (!client) {
    const config = runtime.config;
    client = new LedgerBillingClient(new InternalClient(config.LEDGER_URL, config.INTERNAL_SECRET));
    clients.set(runtime, client);
  }
  return client;
}
