import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { billingFor } from '../../src/billing-client.ts';
import { extendRecurrences } from '../../src/domain/transactions/extend-recurrences.ts';

describe('billing: card purchases through POST /v1/transactions (card closing 10, due 17)', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;
  let cardId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    cardId = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body.id;
  });
  afterAll(() => stack?.stop());

  const buy = (body: Record<string, unknown>) =>
    tenant.api.post('/v1/transactions', { title: 'Compra', is_expense: true, credit_card_id: cardId, ...body });

  it('when purchases fall on the 5th and on the 10th, then they land in different bills, paid at their date', async () => {
    const fifth = await buy({ amount: 1000, date: '2026-03-05' });
    const tenth = await buy({ amount: 2000, date: '2026-03-10' });
    expect(fifth.status).toBe(201);
    expect(fifth.body).toMatchObject({
      credit_card_id: cardId,
      account_id: null,
      paid: true,
      paid_at: '2026-03-05T00:00:00.000Z',
      billed_at: '2026-03-10T00:00:00.000Z',
    });
    expect(tenth.body.billed_at).toBe('2026-04-10T00:00:00.000Z');
    expect(fifth.body.bill_id).not.toBe(tenth.body.bill_id);
    const march = await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-03-01`);
    expect(march.body.bill.id).toBe(fifth.body.bill_id);
    expect(march.body.transactions.map((t: { id: string }) => t.id)).toEqual([fifth.body.id]);
  });

  it('when a purchase is paid in installments, then each installment lands in its own bill', async () => {
    const response = await buy({
      amount: 30000,
      date: '2026-05-20',
      type: 'PARCELLED',
      installments: 3,
      is_full_amount: true,
    });
    expect(response.status).toBe(201);
    const rows = await stack.sql<{ bill_id: string; billed_at: string; installment_number: number; paid: boolean }>(
      `select bill_id, to_char(billed_at, 'YYYY-MM-DD') as billed_at, installment_number, paid from ledger.transactions
       where connected_transaction_id = $1 order by installment_number`,
      [response.body.id],
    );
    expect(rows.map((r) => r.billed_at)).toEqual(['2026-06-10', '2026-07-10', '2026-08-10']);
    expect(new Set(rows.map((r) => r.bill_id)).size).toBe(3);
    expect(rows.every((r) => r.paid)).toBe(true);
    const july = await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-07-01`);
    expect(july.body.transactions).toEqual([
      expect.objectContaining({ amount: 10000, total: 30000, projected_installment: 2 }),
    ]);
    const card = await tenant.api.get(`/v1/credit-cards/${cardId}`);
    expect(card.body.available_limit).toBeLessThanOrEqual(1_000_000 - 30000);
  });

  it("when a card purchase is moved to another date, then it moves to that date's bill", async () => {
    const bought = (await buy({ amount: 700, date: '2026-09-05' })).body;
    const response = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${bought.id}`, {
      date: '2026-09-12',
    });
    expect(response.status).toBe(200);
    expect(response.body[0]).toMatchObject({
      id: bought.id,
      billed_at: '2026-10-10T00:00:00.000Z',
      paid: true,
      paid_at: '2026-09-12T00:00:00.000Z',
    });
    expect(response.body[0].bill_id).not.toBe(bought.bill_id);
    const october = await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-10-01`);
    expect(october.body.transactions.map((t: { id: string }) => t.id)).toContain(bought.id);
    // sending `paid` along with a date keeps it paid at its new date
    const again = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${bought.id}`, {
      date: '2026-09-20',
      paid: false,
    });
    expect(again.body[0]).toMatchObject({ paid: true, paid_at: '2026-09-20T00:00:00.000Z' });
  });

  it('when installments are appended to a card purchase, then they fill the following bills', async () => {
    const first = (await buy({ amount: 500, date: '2026-01-02', type: 'PARCELLED', installments: 2 })).body;
    const response = await tenant.api.post(`/v1/transactions/${first.id}/installments`, { quantity: 2 });
    expect(response.body).toEqual({ created: 2 });
    const rows = await stack.sql<{ billed_at: string }>(
      `select to_char(billed_at, 'YYYY-MM-DD') as billed_at from ledger.transactions
       where connected_transaction_id = $1 order by installment_number`,
      [first.id],
    );
    expect(rows.map((r) => r.billed_at)).toEqual(['2026-01-10', '2026-02-10', '2026-03-10', '2026-04-10']);
  });

  it('when a card recurrence is created and later extended, then every occurrence has its bill', async () => {
    const first = (await buy({ amount: 3990, date: '2026-11-05', type: 'RECURRENT', frequency: 'MONTHLY' })).body;
    const ledger = stack.service('ledger');
    await extendRecurrences(ledger.orm.em.fork(), '2028-03-01', 200, billingFor(ledger.runtime));
    const rows = await stack.sql<{ date: string; billed_at: string | null; paid: boolean }>(
      `select to_char(date, 'YYYY-MM-DD') as date, to_char(billed_at, 'YYYY-MM-DD') as billed_at, paid
       from ledger.transactions where connected_transaction_id = $1 order by date`,
      [first.id],
    );
    expect(rows.length).toBeGreaterThan(24);
    for (const row of rows) {
      expect(row.paid).toBe(true);
      expect(row.billed_at).toBe(`${row.date.slice(0, 8)}10`);
    }
  });

  it("when a card purchase is moved to another card, then it lands in that card's bill, paid at its date", async () => {
    const second = (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Outro',
        account_id: accountId,
        closing_date: 20,
        expiring_date: 28,
      })
    ).body.id;
    const bought = (await buy({ amount: 900, date: '2026-11-12' })).body;
    const edit = (body: Record<string, unknown>) =>
      tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${bought.id}`, body);
    const moved = await edit({ credit_card_id: second, date: '2026-11-15' });
    expect(moved.status).toBe(200);
    expect(moved.body[0]).toMatchObject({
      credit_card_id: second,
      account_id: null,
      paid: true,
      paid_at: '2026-11-15T00:00:00.000Z',
      billed_at: '2026-11-20T00:00:00.000Z',
    });
    const november = await tenant.api.get(`/v2/bills/show-by-card/${second}?date=2026-11-01`);
    expect(november.body.bill.id).toBe(moved.body[0].bill_id);
    expect(november.body.bill.value).toBe(900);
    const old = await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-12-01`);
    expect(old.body.transactions.map((t: { id: string }) => t.id)).not.toContain(bought.id);
    // paid stays true on a card; a foreign card or both holders change nothing
    expect((await edit({ paid: false })).body[0].paid).toBe(true);
    const other = await stack.tenant();
    const foreign = (
      await other.api.post('/v1/credit-cards', {
        name: 'Alheio',
        account_id: (await other.api.post('/v1/accounts', { name: 'C', logo: '001' })).body.id,
        closing_date: 5,
        expiring_date: 12,
      })
    ).body.id;
    expect((await edit({ credit_card_id: foreign })).status).toBe(404);
    expect((await edit({ credit_card_id: cardId, account_id: accountId })).status).toBe(400);
    const [row] = await stack.sql('select credit_card_id, bill_id from ledger.transactions where id = $1', [bought.id]);
    expect(row).toEqual({ credit_card_id: second, bill_id: moved.body[0].bill_id });
    // to an account: it leaves the card and its bill
    const toAccount = await edit({ account_id: accountId });
    expect(toAccount.status).toBe(200);
    expect(toAccount.body[0]).toMatchObject({
      account_id: accountId,
      credit_card_id: null,
      bill_id: null,
      billed_at: null,
    });
  });

  it("when the card is another user's, then 404 and nothing is written", async () => {
    const other = await stack.tenant();
    const before = await stack.sql('select count(*) from ledger.transactions');
    const response = await other.api.post('/v1/transactions', {
      title: 'Compra',
      is_expense: true,
      amount: 100,
      date: '2026-03-05',
      credit_card_id: cardId,
    });
    expect(response.status).toBe(404);
    expect(await stack.sql('select count(*) from ledger.transactions')).toEqual(before);
  });
});
