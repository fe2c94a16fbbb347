import { BillingClient } from '@finance/shared/clients/billing-client';
import { InternalClient } from '@finance/shared/http/internal-client';
import type { LedgerRuntime } from './config.ts';

const clients = new WeakMap<LedgerRuntime, BillingClient>();

/**
 * One billing client per running ledger service (tests read its call counter); rebuilt if the billing URL
 * changes, since a test stack learns it only after the ledger (and its start-up jobs) are running.
 */
export function billingFor(runtime: LedgerRuntime): BillingClient {
  const config = runtime.config;
  let client = clients.get(runtime);
  if (!client || client.http.baseUrl !== config.BILLING_URL.replace(/\/$/, '')) {
    client = new BillingClient(new InternalClient(config.BILLING_URL, config.INTERNAL_SECRET));
    clients.set(runtime, client);
  }
  return client;
}
