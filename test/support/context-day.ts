import type { QueueName } from '@finance/shared/queue/catalogue';
import type { Tenant, TestStack } from './stack.ts';
import { waitFor } from './wait-for.ts';

// Helpers of the tests that move the clock across a context's midnight (`stack.setNow`): a user in a time zone,
// a card with a purchase, an insights job run as its scheduler runs it.

/** A user whose context lives in `zone` (insights has learnt it too, for its jobs); `null` keeps São Paulo. */
export async function userIn(stack: TestStack, zone: string | null) {
  const user = await stack.tenant();
  const account = (await user.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id as string;
  if (zone) {
    expect((await user.api.put('/v2/personal-config', { time_zone: zone })).status).toBe(200);
    await waitFor(async () => {
      const rows = await stack.sql('select 1 from insights.context_time_zones where context_id = $1', [user.userId]);
      return rows.length === 1;
    });
  }
  return { ...user, account };
}

/** A card closing on `closing` and due on `due`, with one R$ 50,00 purchase on `date`; returns the card's id. */
export async function cardWithPurchase(
  api: Tenant['api'],
  account: string,
  closing: number,
  due: number,
  date: string,
) {
  const card = (
    await api.post('/v1/credit-cards', {
      name: 'Cartão',
      account_id: account,
      closing_date: closing,
      expiring_date: due,
      limit: 1_000_000,
    })
  ).body;
  const bought = await api.post('/v1/transactions', {
    title: 'Compra',
    is_expense: true,
    amount: 5000,
    date,
    credit_card_id: card.id,
  });
  expect(bought.status).toBe(201);
  return card.id as string;
}

/** Runs a job of an insights queue with no payload (as the scheduler does) and waits for it to finish. */
export async function runInsightsJob(stack: TestStack, queue: QueueName, name: string) {
  const runtime = stack.service('insights').runtime;
  const job = await runtime.queues.get(queue).add(name, {});
  const done = await waitFor(async () => {
    const current = await runtime.queues.get(queue).getJob(job.id as string);
    return current?.finishedOn ? current : undefined;
  });
  expect(done.failedReason).toBeUndefined();
}
