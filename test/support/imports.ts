import type { ApiClient } from './api-client.ts';
import { waitFor } from './wait-for.ts';

/** Posts an open-banking import and polls its job until it leaves waiting/active (30 s at most). */
export async function importAndWait(api: ApiClient, body: unknown) {
  const response = await api.post('/v1/open-banking/imports', body);
  expect([200, 202]).toContain(response.status);
  const settled = (job: { state: string }) => job.state !== 'waiting' && job.state !== 'active';
  const accepted = response.body.job;
  const job = settled(accepted)
    ? accepted
    : await waitFor(async () => {
        const current = (await api.get(`/v1/jobs/${accepted.id}`)).body;
        return settled(current) && current;
      }, 30_000);
  return { response, job };
}

/** The finished job of an import that must succeed. */
export async function importCompleted(api: ApiClient, body: unknown) {
  const { job } = await importAndWait(api, body);
  expect(job.state).toBe('completed');
  return job;
}

/**
 * One bank entry with a merchant (which only an import brings, and a rule starts from) imported on a new connection
 * `connectionId`: the finished job and the entry's id.
 */
export async function importedMerchantEntry(api: ApiClient, connectionId: string) {
  const job = await importCompleted(api, {
    connection: { id: connectionId, institution: 'Banco' },
    accounts: [{ external_id: 'a-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 }],
    transactions: [
      {
        external_id: 't-1',
        account_external_id: 'a-1',
        amount: 300,
        date: '2026-03-02',
        is_expense: true,
        title: 'Padaria',
        merchant_name: 'Padaria do Bairro',
      },
    ],
  });
  const entries: Array<{ id: string; title: string }> = (await api.get('/v1/transactions?limit=500')).body.data;
  return { job, transactionId: entries.find((entry) => entry.title === 'Padaria')?.id as string };
}

/**
 * Two accounts imported on a new connection `connectionId` with a Pix between them on `date`, which the import makes
 * one transfer: the outgoing leg's id.
 */
export async function importedTransfer(api: ApiClient, connectionId: string, date: string) {
  const account = { type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 10 };
  const leg = { amount: 4_321, date, title: 'Pix entre contas', operation_type: 'PIX' };
  await importCompleted(api, {
    connection: { id: connectionId, institution: 'Banco' },
    accounts: [
      { external_id: 'de', name: 'Conta de origem', ...account },
      { external_id: 'para', name: 'Conta de destino', ...account },
    ],
    transactions: [
      { external_id: 'pix-saida', account_external_id: 'de', is_expense: true, ...leg },
      { external_id: 'pix-entrada', account_external_id: 'para', is_expense: false, ...leg },
    ],
  });
  const legs: Array<{ id: string; title: string; is_expense: boolean; type: string }> = (
    await api.get(`/v1/transactions?type=TRANSFER&start_date=${date}&end_date=${date}&limit=500`)
  ).body.data;
  return legs.find((entry) => entry.title === leg.title && entry.is_expense)?.id as string;
}
