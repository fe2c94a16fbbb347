import { todayUtc } from '@finance/shared/calendar';
import { QUEUES } from '@finance/shared/queue/catalogue';
import fc from 'fast-check';
import { cardWithPurchase, userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { PAYMENT_IN_PROGRESS } from '../src/domain/bills/pay-bill.ts';
import { rollOverBills } from '../src/domain/bills/roll-over-bills.ts';
import { ledgerFor } from '../src/ledger-client.ts';

/** Cards close on the 10th and are due on the 17th: month M's bill holds purchases from M−1/10 to M/09. */
describe('billing: paying a bill once, carrying every remainder, what a card holds (through the gateway)', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

  const newCard = async (fields: Record<string, unknown> = {}) =>
    (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
        ...fields,
      })
    ).body as { id: string; limit: number; available_limit: number | null };
  const buy = async (cardId: string, body: Record<string, unknown>) => {
    const response = await tenant.api.post('/v1/transactions', {
      title: 'Compra',
      is_expense: true,
      credit_card_id: cardId,
      ...body,
    });
    expect(response.status).toBe(201);
    return response.body as { id: string; bill_id: string };
  };
  const roll = (date: string) =>
    rollOverBills(stack.service('billing').orm.em.fork(), ledgerFor(stack.billing.runtime), date);
  const billOf = async (cardId: string, date: string) =>
    (await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=${date}`)).body.bill as {
      id: string;
      value: number;
      paid: number;
      balance: number;
    };
  const balanceOfAccount = async () => (await tenant.api.get(`/v1/accounts/${accountId}`)).body.balance as number;
  const paymentsOf = async (billId: string) =>
    stack.sql<{ amount: string }>(
      'select amount::text from ledger.transactions where is_bill_payment and bill_id = $1 and deleted_at is null',
      [billId],
    );
  const available = async (cardId: string) =>
    (await tenant.api.get(`/v1/credit-cards/${cardId}`)).body.available_limit as number | null;

  it('when ten payments of one bill arrive at once, then exactly one is 200, nine are 409 and the account pays once', async () => {
    const card = await newCard();
    const bought = await buy(card.id, { amount: 50_000, date: '2026-01-05' });
    const before = await balanceOfAccount();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body).toMatchObject({ statusCode: 409, error: expect.any(String), message: expect.any(String) });
      // a payment still in flight is worth retrying (and the answer says when); nothing owed is final
      if (refused.body.message === PAYMENT_IN_PROGRESS) expect(refused.headers.get('retry-after')).toBe('1');
      else expect(refused.headers.get('retry-after')).toBeNull();
    }
    const bill = await billOf(card.id, '2026-01-01');
    expect(bill).toMatchObject({ value: 50_000, paid: 50_000, balance: 0 });
    expect(await paymentsOf(bought.bill_id)).toEqual([{ amount: '50000' }]);
    expect(await balanceOfAccount()).toBe(before - 50_000);
    const [claims] = await stack.sql('select count(*)::int as n from billing.bills where busy_until is not null');
    expect(claims).toEqual({ n: 0 });
  });

  it('when ten partial payments of one bill arrive at once on a card with no limit to spare, then what is paid never exceeds what is owed', async () => {
    const card = await newCard({ limit: 0 });
    const bought = await buy(card.id, { amount: 10_000, date: '2026-01-05' });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, amount: 4000 }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(2);
    expect(responses.every((r) => [200, 400, 409].includes(r.status))).toBe(true);
    expect((await paymentsOf(bought.bill_id)).length).toBe(ok);
    expect((await billOf(card.id, '2026-01-01')).paid).toBe(ok * 4000);
  });

  it('when payments and a rollover run hit the same past-due bills at once, then each remainder is either paid or carried, never both', async () => {
    const cards = await Promise.all(Array.from({ length: 6 }, () => newCard()));
    const bills = await Promise.all(cards.map((card) => buy(card.id, { amount: 10_000, date: '2024-05-05' })));
    const [pays] = await Promise.all([
      Promise.all(bills.map((b) => tenant.api.post(`/v2/bills/${b.bill_id}/pay`, { account_id: accountId }))),
      roll('2024-05-20'),
    ]);
    await roll('2024-05-21'); // a card left for the next run because a payment held its bill
    for (const [index, card] of cards.entries()) {
      const june = await billOf(card.id, '2024-06-01');
      const paid = (await paymentsOf(bills[index].bill_id)).reduce((sum, p) => sum + Number(p.amount), 0);
      expect([200, 409]).toContain(pays[index].status);
      expect(paid + june.balance).toBe(10_000);
      expect(await available(card.id)).toBe(1_000_000 - june.balance);
    }
  });

  it('when a bill is claimed by a payment in progress, then another payment is 409 and the rollover leaves the card for the next run', async () => {
    const card = await newCard();
    const bought = await buy(card.id, { amount: 2500, date: '2024-08-05' });
    await stack.sql("update billing.bills set busy_until = now() + interval '1 minute' where id = $1", [
      bought.bill_id,
    ]);
    const refused = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Já há um pagamento ou fechamento desta fatura em andamento; consulte a fatura');
    await roll('2024-08-20');
    const [held] = await stack.sql('select rolled_over_at from billing.bills where id = $1', [bought.bill_id]);
    expect(held).toEqual({ rolled_over_at: null });
    expect(await paymentsOf(bought.bill_id)).toEqual([]);
    // the claim of a holder that died expires
    await stack.sql("update billing.bills set busy_until = now() - interval '1 second' where id = $1", [
      bought.bill_id,
    ]);
    await roll('2024-08-20');
    expect((await billOf(card.id, '2024-09-01')).balance).toBe(2500);
  });

  it('when a bill owes nothing and no amount is sent, then 409 and nothing is written', async () => {
    const card = await newCard();
    const bought = await buy(card.id, { amount: 10_000, date: '2026-01-05' });
    expect((await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId })).status).toBe(200);
    const again = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Fatura sem saldo a pagar');
    expect(await paymentsOf(bought.bill_id)).toEqual([{ amount: '10000' }]);
  });

  it('when an amount exceeds what is owed by more than the limit, then 400 on amount in Portuguese and nothing is written', async () => {
    const card = await newCard({ limit: 100_000 });
    const bought = await buy(card.id, { amount: 10_000, date: '2026-01-05' });
    for (const amount of [10_000 + 100_001, 10_000_000_000_000]) {
      const refused = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, amount });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(refused.body.details).toEqual([
        { field: 'amount', message: expect.stringContaining('excede o saldo da fatura') },
      ]);
    }
    expect(await paymentsOf(bought.bill_id)).toEqual([]);
    // exactly the limit above what is owed is accepted
    const edge = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, {
      account_id: accountId,
      amount: 110_000,
    });
    expect(edge.status).toBe(200);
    expect(edge.body.bill).toMatchObject({ value: 10_000, paid: 110_000, balance: -100_000 });
  });

  it('when an unlimited card is overpaid, then R$ 1.000.000,00 above what is owed is the bound', async () => {
    const card = await newCard({ is_unlimited: true, limit: 0 });
    const bought = await buy(card.id, { amount: 1000, date: '2026-01-05' });
    const over = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, {
      account_id: accountId,
      amount: 1000 + 100_000_001,
    });
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([expect.objectContaining({ field: 'amount' })]);
    const bound = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, {
      account_id: accountId,
      amount: 1000 + 100_000_000,
    });
    expect(bound.status).toBe(200);
  });

  it('when a bill is overpaid, then the rollover credits the excess on the next bill and the limit counts it back', async () => {
    const card = await newCard();
    const january = await buy(card.id, { amount: 10_000, date: '2025-01-05' });
    await buy(card.id, { amount: 3000, date: '2025-01-20' }); // February's bill
    const paid = await tenant.api.post(`/v2/bills/${january.bill_id}/pay`, { account_id: accountId, amount: 15_000 });
    expect(paid.status).toBe(200);
    expect(paid.body.bill).toMatchObject({ value: 10_000, paid: 15_000, balance: -5000, status: 'PAID' });
    await roll('2025-01-20');
    const [credit] = await stack.sql<{ amount: string; is_expense: boolean; bill_id: string }>(
      `select amount::text, is_expense, bill_id from ledger.transactions
       where credit_card_id = $1 and is_previous_balance`,
      [card.id],
    );
    const february = await billOf(card.id, '2025-02-01');
    expect(credit).toEqual({ amount: '5000', is_expense: false, bill_id: february.id });
    expect(february).toMatchObject({ value: -2000, paid: 0, balance: -2000 });
    expect(await available(card.id)).toBe(1_000_000 + 2000);
  });

  it('when a bill the rollover found settled is paid again, then the next run carries that credit on', async () => {
    const card = await newCard();
    const march = await buy(card.id, { amount: 4000, date: '2025-03-05' });
    expect((await tenant.api.post(`/v2/bills/${march.bill_id}/pay`, { account_id: accountId })).status).toBe(200);
    await roll('2025-03-20'); // settled: nothing to carry
    const extra = await tenant.api.post(`/v2/bills/${march.bill_id}/pay`, { account_id: accountId, amount: 700 });
    expect(extra.status).toBe(200);
    await roll('2025-03-21');
    expect(await billOf(card.id, '2025-04-01')).toMatchObject({ value: -700, balance: -700 });
    expect(await available(card.id)).toBe(1_000_000 + 700);
  });

  it('when bills of Aug, Sep and Oct are unpaid, then one run carries 5850 to the open bill, a rerun adds nothing and paying Aug points at it', async () => {
    const card = await newCard();
    const august = await buy(card.id, { amount: 1000, date: '2025-07-15' });
    const september = await buy(card.id, { amount: 2000, date: '2025-08-15' });
    await buy(card.id, { amount: 3000, date: '2025-09-15' });
    const november = await buy(card.id, { amount: 50, date: '2025-11-05' });
    expect(
      (await tenant.api.post(`/v2/bills/${september.bill_id}/pay`, { account_id: accountId, amount: 200 })).status,
    ).toBe(200);
    await roll('2025-11-05');
    expect(await billOf(card.id, '2025-11-01')).toMatchObject({ id: november.bill_id, value: 5850, balance: 5850 });
    expect(await available(card.id)).toBe(1_000_000 - 5850);
    const entries = () =>
      stack.sql(
        'select amount::text, is_expense from ledger.transactions where credit_card_id = $1 and is_previous_balance order by date',
        [card.id],
      );
    const first = await entries();
    expect(first).toEqual([
      { amount: '1000', is_expense: true },
      { amount: '2800', is_expense: true },
      { amount: '5800', is_expense: true },
    ]);
    await roll('2025-11-05');
    await roll('2025-11-06');
    expect(await entries()).toEqual(first);
    const before = await paymentsOf(august.bill_id);
    const refused = await tenant.api.post(`/v2/bills/${august.bill_id}/pay`, { account_id: accountId });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(november.bill_id);
    expect(await paymentsOf(august.bill_id)).toEqual(before);
    const settled = await tenant.api.post(`/v2/bills/${november.bill_id}/pay`, { account_id: accountId });
    expect(settled.status).toBe(200);
    expect(settled.body.payment.amount).toBe(5850);
    expect(await available(card.id)).toBe(1_000_000);
  });

  it('when a monthly R$ 10,00 subscription runs on a R$ 1.000,00 card, then R$ 990,00 is available (only the open bill holds it)', async () => {
    const card = await newCard({ limit: 100_000 });
    await buy(card.id, { amount: 1000, date: todayUtc(), type: 'RECURRENT', frequency: 'MONTHLY' });
    const [occurrences] = await stack.sql<{ n: number }>(
      'select count(*)::int as n from ledger.transactions where credit_card_id = $1 and deleted_at is null',
      [card.id],
    );
    expect(occurrences.n).toBeGreaterThan(1);
    expect(await available(card.id)).toBe(99_000);
    // parcelled purchases hold every remaining installment at once
    await buy(card.id, { amount: 30_000, date: todayUtc(), type: 'PARCELLED', installments: 3, is_full_amount: true });
    expect(await available(card.id)).toBe(99_000 - 30_000);
  });

  it('when a card is unlimited, then available_limit is null', async () => {
    const card = await newCard({ is_unlimited: true, limit: 0 });
    expect(card.available_limit).toBeNull();
    await buy(card.id, { amount: 5000, date: '2026-01-05' });
    expect(await available(card.id)).toBeNull();
    const listed = (await tenant.api.get('/v1/credit-cards')).body.data.find((c: { id: string }) => c.id === card.id);
    expect(listed.available_limit).toBeNull();
  });

  it('when random purchases, credits, payments and rollover runs happen day by day, then the open bill owes their sum and the limit agrees', async () => {
    // a history from 2025-01-01 to 2025-06-29, each entry dated the day it happens; the open bill is July's
    const dateOf = (offset: number) => new Date(Date.UTC(2025, 0, 1 + offset)).toISOString().slice(0, 10);
    const offset = fc.integer({ min: 0, max: 179 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('purchase' as const), offset, amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ kind: fc.constant('credit' as const), offset, amount: fc.integer({ min: 1, max: 20_000 }) }),
      fc.record({
        kind: fc.constant('pay' as const),
        offset,
        back: fc.integer({ min: 0, max: 2 }),
        amount: fc.integer({ min: 1, max: 60_000 }),
      }),
      fc.record({ kind: fc.constant('roll' as const), offset }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (unsorted) => {
        const ops = [...unsorted].sort((a, b) => a.offset - b.offset);
        const card = await newCard();
        let net = 0;
        for (const o of ops) {
          const date = dateOf(o.offset);
          if (o.kind === 'purchase' || o.kind === 'credit') {
            await buy(card.id, { amount: o.amount, date, is_expense: o.kind === 'purchase' });
            net += o.kind === 'purchase' ? o.amount : -o.amount;
          } else if (o.kind === 'pay') {
            // the bill of this month or of one or two months before (maybe carried on already: 409)
            const bill = await billOf(card.id, dateOf(o.offset - 30 * o.back));
            const paid = await tenant.api.post(`/v2/bills/${bill.id}/pay`, { account_id: accountId, amount: o.amount });
            expect([200, 400, 409]).toContain(paid.status);
            if (paid.status === 200) net -= o.amount;
          } else await roll(date);
        }
        await roll('2025-07-05'); // every bill up to June's is past due, July's is open
        expect((await billOf(card.id, '2025-07-01')).balance).toBe(net);
        expect(await available(card.id)).toBe(1_000_000 - net);
      }),
      { numRuns: 8 },
    );
  });

  describe('the rollover on the context day', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);

    /** Runs the billing rollover as its scheduler does (no date: each context's today) and waits for it. */
    async function rollOver() {
      const runtime = stack.service('billing').runtime;
      const job = await runtime.queues.get(QUEUES.billRollover).add('bill-rollover', {});
      const done = await waitFor(async () => {
        const current = await runtime.queues.get(QUEUES.billRollover).getJob(job.id as string);
        return current?.finishedOn ? current : undefined;
      });
      expect(done.failedReason).toBeUndefined();
    }
    const carried = (cardId: string) =>
      stack.sql('select 1 from ledger.transactions where credit_card_id = $1 and is_previous_balance', [cardId]);

    it('when a bill due on a Saturday is unpaid, then the rollover carries it only after the next business day, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      // March 2026: closing 7, due Saturday 14; payable until Monday 16
      const inSaoPaulo = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const inManaus = await cardWithPurchase(manauara.api, manauara.account, 7, 14, '2026-03-02');
      stack.setNow('2026-03-16T23:30:00-03:00');
      await rollOver();
      expect(await carried(inSaoPaulo)).toHaveLength(0);
      stack.setNow('2026-03-17T00:30:00-03:00');
      await rollOver();
      expect(await carried(inSaoPaulo)).toHaveLength(1);
      expect(await carried(inManaus)).toHaveLength(0);
      stack.setNow('2026-03-17T01:30:00-03:00');
      await rollOver();
      expect(await carried(inManaus)).toHaveLength(1);
      expect(await carried(inSaoPaulo)).toHaveLength(1);
    });

    it('when the hourly job passes a closing day and a Saturday due date, then bill.closed and bill.overdue are recorded by each context day and the next business day, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      // March 2026: closing Saturday 7, due Saturday 14; payable until Monday 16
      const inSaoPaulo = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const inManaus = await cardWithPurchase(manauara.api, manauara.account, 7, 14, '2026-03-02');
      const announced = async (cardId: string) =>
        (
          await stack.sql(
            `select type from billing.outbox_events where payload->'data'->>'credit_card_id' = $1 order by type`,
            [cardId],
          )
        ).map((row) => row.type);
      // UTC is already on the 7th, São Paulo is not
      stack.setNow('2026-03-06T23:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual([]);
      stack.setNow('2026-03-07T00:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed']);
      expect(await announced(inManaus)).toEqual([]);
      stack.setNow('2026-03-07T01:30:00-03:00');
      await rollOver();
      expect(await announced(inManaus)).toEqual(['bill.closed']);
      // the due date is a Saturday: nothing is overdue through Monday
      stack.setNow('2026-03-16T23:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed']);
      stack.setNow('2026-03-17T00:30:00-03:00');
      await rollOver();
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed', 'bill.overdue']);
      expect(await announced(inManaus)).toEqual(['bill.closed']);
      stack.setNow('2026-03-17T01:30:00-03:00');
      await rollOver();
      expect(await announced(inManaus)).toEqual(['bill.closed', 'bill.overdue']);
      expect(await announced(inSaoPaulo)).toEqual(['bill.closed', 'bill.overdue']);
    });
  });
});
