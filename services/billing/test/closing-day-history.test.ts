import { addDays, addMonthsClamped, type CalendarDate, startOfMonth, todayUtc } from '@finance/shared/calendar';
import { cardWithPurchase, userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { ledgerFor } from '../src/ledger-client.ts';

/** A closing-day change never alters a closed bill: its dates and purchases are history (card closing 10, due 17). */
describe('billing: closing-day changes leave closed bills and earlier months alone', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 1_000_000 })).body.id;
  });
  afterAll(() => stack?.stop());

  const newCard = async () =>
    (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body as { id: string };
  const buy = async (cardId: string, date: CalendarDate, amount: number) => {
    const response = await tenant.api.post('/v1/transactions', {
      title: 'Compra',
      is_expense: true,
      credit_card_id: cardId,
      amount,
      date,
    });
    expect(response.status).toBe(201);
    return response.body as { id: string; bill_id: string };
  };
  const show = async (cardId: string, date: CalendarDate) => {
    const response = await tenant.api.get(`/v2/bills/show-by-card/${cardId}?date=${date}`);
    expect(response.status).toBe(200);
    return response.body as { bill: Record<string, unknown>; transactions: Array<Record<string, unknown>> };
  };
  const snapshot = (body: Awaited<ReturnType<typeof show>>) => ({
    id: body.bill.id,
    closing_date: body.bill.closing_date,
    expiring_date: body.bill.expiring_date,
    value: body.bill.value,
    paid: body.bill.paid,
    balance: body.bill.balance,
    status: body.bill.status,
    transactions: body.transactions.map((t) => ({ id: t.id, amount: t.amount, date: t.date, bill_id: t.bill_id })),
  });

  // the latest closing on the 10th that is today or before: that bill is closed
  const today = todayUtc();
  const thisMonthsClosing = `${today.slice(0, 8)}10` as CalendarDate;
  const lastClosing = today >= thisMonthsClosing ? thisMonthsClosing : addMonthsClamped(thisMonthsClosing, -1);

  it('when THIS_AND_NEXT is sent with no reference, then a closed, paid bill stays identical and the open bill changes', async () => {
    const card = await newCard();
    // two days before the closed bill's closing: a change to closing day 5 would move it out if history moved
    const late = await buy(card.id, addDays(lastClosing, -2), 2000);
    const early = await buy(card.id, addDays(lastClosing, -20), 1000);
    expect(early.bill_id).toBe(late.bill_id);
    const open = await buy(card.id, today, 500);
    expect(open.bill_id).not.toBe(late.bill_id);
    const pay = await tenant.api.post(`/v2/bills/${late.bill_id}/pay`, { account_id: accountId });
    expect(pay.status).toBe(200);
    const before = snapshot(await show(card.id, lastClosing));
    expect(before).toMatchObject({ value: 3000, paid: 3000, balance: 0, status: 'PAID' });

    const change = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 5,
      edition_type: 'THIS_AND_NEXT',
    });
    expect(change.status).toBe(200);
    // "current" is the open bill: the answer shows it with the new closing day
    expect(change.body.bill.id).toBe(open.bill_id);
    expect(String(change.body.bill.closing_date).slice(8, 10)).toBe('05');

    expect(snapshot(await show(card.id, lastClosing))).toEqual(before);
    const rows = await stack.sql<{ bill_id: string }>(
      'select bill_id from ledger.transactions where id = any($1::uuid[]) order by amount',
      [[early.id, late.id]],
    );
    expect(rows.map((row) => row.bill_id)).toEqual([late.bill_id, late.bill_id]);
    // the card's days change from the open bill on
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.closing_date).toBe('5');
  });

  it('when the ledger cannot be told right after a closing-day change, then the outbox job recorded with the change moves the purchases', async () => {
    const card = await newCard();
    const nextMonth = addMonthsClamped(startOfMonth(today), 1);
    // closing on the 10th it sits in next month's bill; closing on the 5th, in the month after
    const purchase = await buy(card.id, `${nextMonth.slice(0, 8)}07` as CalendarDate, 1200);
    const ledger = ledgerFor(stack.billing.runtime);
    const rebill = ledger.rebill;
    // the fault: every rebill call from billing fails while the change is answered
    ledger.rebill = async () => {
      throw new Error('ledger unreachable');
    };
    let status: number;
    try {
      status = (
        await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
          closing_day: 5,
          edition_date: nextMonth,
          edition_type: 'THIS_AND_NEXT',
        })
      ).status;
    } finally {
      ledger.rebill = rebill;
    }
    expect(status).toBeGreaterThanOrEqual(500);
    // billing committed the change, and its outbox job (retried with backoff) tells the ledger
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.closing_date).toBe('5');
    const target = addMonthsClamped(nextMonth, 1);
    const moved = await waitFor(async () => {
      const body = await show(card.id, target);
      return body.transactions.some((t) => t.id === purchase.id) && body;
    });
    expect(moved.bill.closing_date).toBe(`${target.slice(0, 8)}05T00:00:00.000Z`);
    const [row] = await stack.sql<{ bill_id: string }>('select bill_id from ledger.transactions where id = $1', [
      purchase.id,
    ]);
    expect(row.bill_id).toBe(moved.bill.id);
  });

  it('when THIS names a closed bill, then 409 and nothing changes', async () => {
    const card = await newCard();
    const bought = await buy(card.id, addDays(lastClosing, -2), 700);
    const before = snapshot(await show(card.id, lastClosing));
    const response = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 5,
      bill_id: bought.bill_id,
      edition_type: 'THIS',
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      message: 'Fatura já fechada: suas datas e lançamentos não mudam',
      statusCode: 409,
      error: 'Conflict',
    });
    expect(snapshot(await show(card.id, lastClosing))).toEqual(before);
  });

  it('when THIS_AND_NEXT starts at a later month, then bills before it never read keep the old days', async () => {
    const card = await newCard();
    const reference = addMonthsClamped(startOfMonth(today), 6);
    const change = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 5,
      edition_date: reference,
      edition_type: 'THIS_AND_NEXT',
    });
    expect(change.status).toBe(200);
    // never read nor stored before the change: months before the reference keep closing on the 10th
    for (const months of [-4, -1, 2, 5]) {
      const month = addMonthsClamped(startOfMonth(today), months);
      expect((await show(card.id, month)).bill.closing_date).toBe(`${month.slice(0, 8)}10T00:00:00.000Z`);
    }
    for (const months of [6, 9]) {
      const month = addMonthsClamped(startOfMonth(today), months);
      expect((await show(card.id, month)).bill.closing_date).toBe(`${month.slice(0, 8)}05T00:00:00.000Z`);
    }
  });

  it('when ALL is sent, then closed bills keep their dates and purchases', async () => {
    const card = await newCard();
    const old = await buy(card.id, addDays(lastClosing, -2), 900);
    const before = snapshot(await show(card.id, lastClosing));
    const change = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 3,
      edition_type: 'ALL',
    });
    expect(change.status).toBe(200);
    expect(snapshot(await show(card.id, lastClosing))).toEqual(before);
    const earlier = addMonthsClamped(startOfMonth(lastClosing), -3);
    expect((await show(card.id, earlier)).bill.closing_date).toBe(`${earlier.slice(0, 8)}10T00:00:00.000Z`);
    const [row] = await stack.sql<{ bill_id: string }>('select bill_id from ledger.transactions where id = $1', [
      old.id,
    ]);
    expect(row.bill_id).toBe(old.bill_id);
  });

  describe('closing-day history on the context day', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);

    it('when the closing day has come in UTC but not in the context, then a THIS change still moves that bill, and once local midnight passes it is 409', async () => {
      const paulista = await userIn(null);
      // March 2026 bill: closing 7, due 14
      const cardId = await cardWithPurchase(paulista.api, paulista.account, 7, 14, '2026-03-02');
      const billId = (await paulista.api.get(`/v2/bills/show-by-card/${cardId}?date=2026-03-01`)).body.bill.id;
      // 2026-03-07 00:30 UTC: closed by the UTC date, still open in São Paulo
      stack.setNow('2026-03-06T21:30:00-03:00');
      const open = await paulista.api.patch(`/v2/bills/closing-date/by-card/${cardId}`, {
        closing_day: 8,
        bill_id: billId,
        edition_type: 'THIS',
      });
      expect(open.status).toBe(200);
      expect(String(open.body.bill.closing_date).slice(0, 10)).toBe('2026-03-08');
      stack.setNow('2026-03-08T00:30:00-03:00');
      const closed = await paulista.api.patch(`/v2/bills/closing-date/by-card/${cardId}`, {
        closing_day: 9,
        bill_id: billId,
        edition_type: 'THIS',
      });
      expect(closed.status).toBe(409);
      expect(closed.body.message).toBe('Fatura já fechada: suas datas e lançamentos não mudam');
    });
  });
});
