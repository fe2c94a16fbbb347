import { startOfMonth, todayUtc } from '@finance/shared/calendar';
import pg from 'pg';
import type { Tenant } from './stack.ts';

/** A card closing on the 10th with three purchases on the 1st of this month: the path of that month's bill. */
export async function billOfThreePurchases(tenant: Tenant): Promise<string> {
  const month = startOfMonth(todayUtc());
  const accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  const card = await tenant.api.post('/v1/credit-cards', {
    name: 'Cartão',
    account_id: accountId,
    closing_date: 10,
    expiring_date: 17,
    limit: 1_000_000,
  });
  for (let k = 0; k < 3; k++) {
    const created = await tenant.api.post('/v1/transactions', {
      title: `Compra ${k}`,
      is_expense: true,
      credit_card_id: card.body.id,
      amount: 1000 + k,
      date: month,
    });
    if (created.status !== 201) throw new Error(`purchase not created: ${created.status}`);
  }
  return `/v2/bills/show-by-card/${card.body.id}?date=${month}`;
}

/** The bills the ledger is reading (`active`) and those waiting for a slot (`ledger_bill_reads`). */
export async function billReadsInFlight(metricsUrl: string): Promise<{ active: number; waiting: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const state = (label: string) =>
    Number(new RegExp(`^ledger_bill_reads\\{state="${label}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { active: state('active'), waiting: state('waiting') };
}

/**
 * Runs `during` while the ledger's tag links are locked, so the rows of every bill read wait in the ledger (a bill's
 * rows read its tag links; its totals, read before, do not) until `during` calls `release`, whatever the machine's
 * speed.
 */
export async function withBillRowsHeld<T>(
  databaseUrl: string,
  during: (release: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const side = new pg.Client({ connectionString: databaseUrl });
  await side.connect();
  let released = false;
  try {
    await side.query('begin');
    await side.query('lock table ledger.transaction_tags in access exclusive mode');
    return await during(async () => {
      released = true;
      await side.query('commit');
    });
  } finally {
    if (!released) await side.query('rollback');
    await side.end();
  }
}
