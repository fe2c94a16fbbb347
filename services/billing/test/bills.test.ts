import { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import { InternalClient } from '@finance/shared/http/internal-client';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';
import { rollOverBills } from '../src/domain/bills/roll-over-bills.ts';
import { ROLLOVER_SCHEDULER_ID } from '../src/entry-points/jobs/bill-rollover-worker.ts';
import { ledgerFor } from '../src/ledger-client.ts';

describe('billing: bills of a card (closing 10, due 17) through the gateway', () => {
  const queries: Record<string, number> = { ledger: 0, billing: 0 };
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;
  let internal: BillingLedgerClient;

  beforeAll(async () => {
    // the outbox relay (its claim: a short transaction with a `set local`) and the event consumers work on their
    // own (their statements are not the request's)
    stack = await TestStack.start({
      onQuery: (service, sql) => {
        const plain = sql.split(String.fromCharCode(27)).join('');
        if (
          !/outbox_events|processed_events|enable_bitmapscan|\[query\] (\[\d+m)?(begin|commit|rollback)\b/.test(plain)
        )
          queries[service] = (queries[service] ?? 0) + 1;
      },
    });
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    const billing = stack.service('billing');
    internal = new BillingLedgerClient(new InternalClient(billing.url, billing.runtime.config.INTERNAL_SECRET));
  });
  afterAll(() => stack?.stop());

  const ctx = () => ({ userId: tenant.userId, profileId: null, business: false, keyId: null });
  const newCard = async () =>
    (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      })
    ).body;
  const assign = (cardId: string, dates: string[]) => internal.assign(ctx(), cardId, dates);

  /** Card purchases written as the ledger stores them, with the bill billing assigned (no public route yet). */
  async function purchase(
    cardId: string,
    items: Array<{ date: string; amount: number; is_expense?: boolean; category_id?: string | null }>,
  ) {
    const { assignments } = await assign(
      cardId,
      items.map((item) => item.date),
    );
    const rows = items.map((item, index) => ({
      ...item,
      bill_id: assignments[index].bill_id,
      billed_at: assignments[index].billed_at,
    }));
    await stack.sql(
      `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, paid, paid_at, type, credit_card_id,
         bill_id, billed_at, category_id, created_at, updated_at)
       select gen_random_uuid(), $1, r.amount, r.date, 'Compra', coalesce(r.is_expense, true), true, now(), 'FIXED', $2,
         r.bill_id, r.billed_at::date, r.category_id, now(), now()
       from jsonb_to_recordset($3::jsonb) as r(amount bigint, date date, is_expense boolean, bill_id uuid, billed_at text, category_id uuid)`,
      [tenant.userId, cardId, JSON.stringify(rows)],
    );
    return assignments;
  }

  it('when purchases fall on the 5th and on the closing day, then they land in different bills', async () => {
    const card = await newCard();
    const [fifth, tenth] = await assign(card.id, ['2026-03-05', '2026-03-10']).then((r) => r.assignments);
    expect(fifth.bill_id).not.toBe(tenth.bill_id);
    expect(fifth.billed_at).toBe('2026-03-10');
    expect(tenth.billed_at).toBe('2026-04-10');
    const again = await assign(card.id, ['2026-03-01']);
    expect(again.assignments[0].bill_id).toBe(fifth.bill_id);
  });

  it("when the card is another context's, then assignment is 404 and no bill is created", async () => {
    const card = await newCard();
    const before = await stack.sql('select count(*) from billing.bills');
    const other = await stack.tenant();
    await expect(
      internal.assign({ userId: other.userId, profileId: null, business: false, keyId: null }, card.id, ['2026-03-05']),
    ).rejects.toMatchObject({ status: 404 });
    expect(await stack.sql('select count(*) from billing.bills')).toEqual(before);
  });

  it('when a bill is shown, then value nets credits and every expanded field is present', async () => {
    const card = await newCard();
    const category = (await tenant.api.get('/v1/categories')).body.data?.[0]?.id ?? null;
    await purchase(card.id, [
      { date: '2026-03-02', amount: 10000, category_id: category },
      { date: '2026-03-05', amount: 2500 },
      { date: '2026-03-06', amount: 1000, is_expense: false },
    ]);
    const response = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-03-20`);
    expect(response.status).toBe(200);
    expect(response.body.bill).toEqual({
      id: expect.any(String),
      credit_card_id: card.id,
      closing_date: '2026-03-10T00:00:00.000Z',
      expiring_date: '2026-03-17T00:00:00.000Z',
      value: 11500,
      paid: 0,
      balance: 11500,
      costs: 0,
      status: 'OVERDUE',
      isPending: true,
      profile_id: null,
      user_id: tenant.userId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const again = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-03-01`);
    expect(again.body.bill.id).toBe(response.body.bill.id);
    expect(response.body.transactions).toHaveLength(3);
    for (const t of response.body.transactions) {
      for (const field of [
        'id',
        'amount',
        'date',
        'title',
        'is_expense',
        'paid',
        'paid_at',
        'type',
        'installments',
        'credit_card_id',
        'bill_id',
        'billed_at',
        'category_id',
        'account',
        'category',
        'subcategory',
        'credit_card',
        'tags',
        'total',
        'projected_date',
        'projected_installment',
        'reconciled_with',
        'reconciles',
        'createdAt',
        'updatedAt',
      ]) {
        expect(t).toHaveProperty(field);
      }
      expect(t).toMatchObject({
        bill_id: response.body.bill.id,
        account: null,
        subcategory: null,
        tags: [],
        total: t.amount,
        projected_date: '2026-03-10T00:00:00.000Z',
        projected_installment: null,
        reconciled_with: null,
        reconciles: [],
      });
      expect(t.credit_card).toMatchObject({ id: card.id, closing_date: '10', available_limit: 1_000_000 - 11500 });
    }
    const first = response.body.transactions[0];
    if (category) expect(first.category).toMatchObject({ id: category });
  });

  it("when a bill's rows name categories, subcategories and tags, then each row is the transaction's own record and the bill's fields", async () => {
    // the ledger reads the references before the rows and completes each row as it arrives: every row, on either
    // side of a piece's boundary, must carry its own references
    const card = await newCard();
    const category = (await tenant.api.post('/v1/categories', { name: 'Lazer "fim de semana"', is_expense: true }))
      .body;
    const subcategory = (
      await tenant.api.post('/v1/subcategories', { name: 'Cinema \\ teatro', category_id: category.id })
    ).body;
    const tags = [
      (await tenant.api.post('/v1/tags', { name: 'Férias ☀', color: '#0EA5E9' })).body,
      (await tenant.api.post('/v1/tags', { name: 'aspas "duplas"' })).body,
    ];
    const bodies = Array.from({ length: 60 }, (_, i) => ({
      title: `Compra ${i}`,
      description: 'é'.repeat(i * 30),
      amount: 100 + i,
      date: `2026-03-${String(11 + (i % 18)).padStart(2, '0')}`,
      is_expense: true,
      type: 'FIXED',
      credit_card_id: card.id,
      ...(i % 3 === 0 ? { category_id: category.id, subcategory_id: subcategory.id } : {}),
      ...(i % 4 === 0 ? { tag_ids: tags.map((tag) => tag.id) } : i % 4 === 1 ? { tag_ids: [tags[1].id] } : {}),
    }));
    const ids: string[] = [];
    for (const body of bodies) {
      const created = await tenant.api.post('/v1/transactions', body);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const response = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-04-01`);
    expect(response.status).toBe(200);
    const rows = response.body.transactions as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    const categoryRecord = (await tenant.api.get(`/v1/categories/${category.id}`)).body;
    const subcategoryRecord = (await tenant.api.get(`/v1/subcategories/${subcategory.id}`)).body;
    const tagRecords = new Map<string, unknown>();
    for (const tag of tags) tagRecords.set(tag.id, (await tenant.api.get(`/v1/tags/${tag.id}`)).body);
    const byId = (records: unknown[]) =>
      [...records].sort((a, b) => String((a as { id: string }).id).localeCompare((b as { id: string }).id));
    for (const row of rows) {
      const sent = bodies[ids.indexOf(row.id as string)];
      const own = (await tenant.api.get(`/v1/transactions/${row.id}`)).body as Record<string, unknown>;
      const { credit_card, account, category: rowCategory, subcategory: rowSubcategory, tags: rowTags, ...rest } = row;
      const { total, projected_date, projected_installment, reconciled_with, reconciles, ...record } = rest;
      expect(record).toEqual(own);
      expect(credit_card).toMatchObject({ id: card.id });
      expect(account).toBeNull();
      expect(rowCategory).toEqual(sent.category_id ? categoryRecord : null);
      expect(rowSubcategory).toEqual(sent.subcategory_id ? subcategoryRecord : null);
      expect(byId(rowTags as unknown[])).toEqual(byId((sent.tag_ids ?? []).map((id) => tagRecords.get(id))));
      expect({ total, projected_date, projected_installment, reconciled_with, reconciles }).toEqual({
        total: own.amount,
        projected_date: own.billed_at,
        projected_installment: null,
        reconciled_with: null,
        reconciles: [],
      });
    }
  });

  it("when titles hold the bill's own keys and JSON's quotes, then every row keeps its title and one card record", async () => {
    // the rows cross billing as the UTF-8 bytes the ledger wrote: a title (or description) holding the bill's
    // keys, quotes, or characters of several bytes, must change nothing
    const card = await newCard();
    const hostile = [
      'a","projected_date":"2000-01-01T00:00:00.000Z',
      ',"transactions":[{"id":"x"}],"bill":{}',
      'aspas " e barra \\ e ,"credit_card":null',
      'Pão de açúcar — café ☕ e 🍞,"projected_date":',
    ];
    for (const [index, title] of hostile.entries()) {
      const created = await tenant.api.post('/v1/transactions', {
        title,
        description: title,
        amount: 100 + index,
        date: '2026-03-04',
        is_expense: true,
        type: 'FIXED',
        credit_card_id: card.id,
      });
      expect(created.status).toBe(201);
    }
    const response = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-03-01`);
    expect(response.status).toBe(200);
    const rows = response.body.transactions as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.title).sort()).toEqual([...hostile].sort());
    for (const row of rows) {
      expect(row.description).toBe(row.title);
      expect(row.credit_card).toMatchObject({ id: card.id });
      expect(row.projected_date).toBe('2026-03-10T00:00:00.000Z');
    }
    expect(response.body.bill.value).toBe(406);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('when ten reads of a month with no bill yet arrive at once, then all answer the same bill and one is stored', async () => {
    const card = await newCard();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2027-08-01`)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.body.bill.id)).size).toBe(1);
    const stored = await stack.sql(
      "select count(*)::int as count from billing.bills where credit_card_id = $1 and reference_month = '2027-08-01'",
      [card.id],
    );
    expect(stored[0].count).toBe(1);
  });

  it('when the transactions are filtered, then each filter selects exactly its rows', async () => {
    const card = await newCard();
    const categories = (await tenant.api.get('/v1/categories')).body.data ?? [];
    const [catA, catB] = [categories[0]?.id, categories[1]?.id];
    await purchase(card.id, [
      { date: '2026-05-11', amount: 1250, category_id: catA },
      { date: '2026-05-20', amount: 3000, category_id: catB },
      { date: '2026-06-01', amount: 500, is_expense: false },
    ]);
    const list = async (query: string) =>
      (await tenant.api.get(`/v2/bills/show-by-card/${card.id}/transactions?date=2026-06-15&${query}`)).body
        .transactions as Array<{ amount: number }>;
    const amounts = async (query: string) => (await list(query)).map((t) => t.amount).sort((a, b) => a - b);
    expect(await amounts('')).toEqual([500, 1250, 3000]);
    expect(await amounts('is_expense=true')).toEqual([1250, 3000]);
    expect(await amounts('is_expense=false')).toEqual([500]);
    expect(await amounts('amount=12.5')).toEqual([1250]);
    expect(await amounts('start_date=2026-05-15&end_date=2026-05-31')).toEqual([3000]);
    if (catA && catB) {
      expect(await amounts(`category_ids[]=${catA}`)).toEqual([1250]);
      expect(await amounts(`category_ids[]=${catA}&category_ids[]=${catB}`)).toEqual([1250, 3000]);
      expect(await amounts(`category_ids=${catA},${catB}`)).toEqual([1250, 3000]);
    }
    // more than 20 ids: the query parser hands over an object keyed by index, still a list
    const many = [catA, ...Array.from({ length: 24 }, () => crypto.randomUUID())].filter(Boolean);
    for (const name of ['category_ids', 'category_ids[]']) {
      const query = many.map((id) => `${name}=${id}`).join('&');
      expect(await amounts(query)).toEqual(catA ? [1250] : []);
    }
    const bad = await tenant.api.get(`/v2/bills/show-by-card/${card.id}/transactions?category_ids=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: 'category_ids', message: 'category_ids deve ser uma lista de uuids (até 500)' },
    ]);
  });

  it('when the closing day changes for THIS bill, then exactly the affected transactions move', async () => {
    const card = await newCard();
    const [a, b] = await purchase(card.id, [
      { date: '2030-07-06', amount: 100 },
      { date: '2030-07-09', amount: 200 },
      { date: '2030-06-20', amount: 300 },
    ]);
    expect(a.bill_id).toBe(b.bill_id);
    const response = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 7,
      bill_id: a.bill_id,
      edition_type: 'THIS',
    });
    expect(response.status).toBe(200);
    expect(response.body.updated).toBe(1);
    expect(response.body.bill).toMatchObject({ id: a.bill_id, closing_date: '2030-07-07T00:00:00.000Z', value: 400 });
    const moved = await stack.sql<{ amount: string; bill_id: string }>(
      'select amount::text, bill_id from ledger.transactions where credit_card_id = $1 order by amount',
      [card.id],
    );
    expect(moved[0].bill_id).toBe(a.bill_id);
    expect(moved[1].bill_id).not.toBe(a.bill_id);
    expect(moved[2].bill_id).toBe(a.bill_id);
    const cardAfter = (await tenant.api.get(`/v1/credit-cards/${card.id}`)).body;
    expect(cardAfter.closing_date).toBe('10');
  });

  it('when a THIS change sends no due day, then the bill keeps the one an earlier THIS change gave it', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2030-07-06', amount: 100 }]);
    const path = `/v2/bills/closing-date/by-card/${card.id}`;
    const first = await tenant.api.patch(path, {
      closing_day: 9,
      expiring_day: 25,
      bill_id: bought.bill_id,
      edition_type: 'THIS',
    });
    expect(first.body.bill).toMatchObject({ id: bought.bill_id, expiring_date: '2030-07-25T00:00:00.000Z' });
    const second = await tenant.api.patch(path, { closing_day: 8, bill_id: bought.bill_id, edition_type: 'THIS' });
    expect(second.status).toBe(200);
    expect(second.body.bill).toMatchObject({
      id: bought.bill_id,
      closing_date: '2030-07-08T00:00:00.000Z',
      expiring_date: '2030-07-25T00:00:00.000Z',
    });
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body).toMatchObject({
      closing_date: '10',
      expiring_date: '17',
    });
  });

  it('when the closing day changes for THIS_AND_NEXT and ALL, then the defaults and later bills change', async () => {
    const card = await newCard();
    await purchase(card.id, [
      { date: '2030-08-05', amount: 100 },
      { date: '2030-09-05', amount: 200 },
      { date: '2030-10-05', amount: 300 },
    ]);
    const next = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 4,
      edition_date: '2030-09-15',
      edition_type: 'THIS_AND_NEXT',
    });
    expect(next.status).toBe(200);
    expect(next.body.updated).toBe(2);
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.closing_date).toBe('4');
    const rows = await stack.sql<{ amount: string; billed_at: Date }>(
      `select amount::text, to_char(billed_at, 'YYYY-MM-DD') as billed_at from ledger.transactions
       where credit_card_id = $1 order by amount`,
      [card.id],
    );
    expect(rows.map((r) => r.billed_at)).toEqual(['2030-08-10', '2030-10-04', '2030-11-04']);
    const all = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 4,
      edition_type: 'ALL',
      edition_date: '2030-09-01',
      expiring_day: 12,
    });
    expect(all.status).toBe(200);
    // stored bills Aug (closing and due change), Sep, Oct and Nov (due only): every one of the four changed
    const bills = await stack.sql<{ month: string; closing: string; due: string }>(
      `select to_char(reference_month, 'YYYY-MM') as month, to_char(closing_date, 'DD') as closing,
         to_char(due_date, 'DD') as due from billing.bills where credit_card_id = $1 order by reference_month`,
      [card.id],
    );
    expect(bills).toEqual(
      ['2030-08', '2030-09', '2030-10', '2030-11'].map((month) => ({ month, closing: '04', due: '12' })),
    );
    expect(all.body.updated).toBe(bills.length);
    // the August purchase (the 5th) now falls after August's closing on the 4th; the others stay put
    const after = await stack.sql<{ billed_at: string }>(
      `select to_char(billed_at, 'YYYY-MM-DD') as billed_at from ledger.transactions
       where credit_card_id = $1 order by amount`,
      [card.id],
    );
    expect(after.map((r) => r.billed_at)).toEqual(['2030-09-04', '2030-10-04', '2030-11-04']);
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.expiring_date).toBe('12');
  });

  it.each([0, 32, 'dez'])('when closing_day is %p, then 400 and nothing changes', async (closing) => {
    const card = await newCard();
    const response = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, { closing_day: closing });
    expect(response.status).toBe(400);
    expect(response.body.details[0].field).toBe('closing_day');
    expect((await tenant.api.get(`/v1/credit-cards/${card.id}`)).body.closing_date).toBe('10');
  });

  it('when a date names no real day, then 400 on every bill route', async () => {
    const card = await newCard();
    const show = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-02-30`);
    expect(show.status).toBe(400);
    expect(show.body.details[0].field).toBe('date');
    const list = await tenant.api.get(`/v2/bills/show-by-card/${card.id}/transactions?start_date=2026-13-01`);
    expect(list.status).toBe(400);
    const patch = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 5,
      edition_date: '2026-04-31',
    });
    expect(patch.status).toBe(400);
    expect(patch.body.details[0].field).toBe('edition_date');
  });

  it('when a date lies where no bill can be placed (year 1 or 9999), then 400 and nothing is written', async () => {
    const card = await newCard();
    const show = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=0001-01-01`);
    expect(show.status).toBe(400);
    expect(show.body.details).toEqual([{ field: 'date', message: 'date deve estar entre 0002-01-01 e 9998-12-31' }]);
    const patch = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 5,
      edition_date: '0001-02-01',
    });
    expect(patch.status).toBe(400);
    expect(patch.body.details[0].field).toBe('edition_date');
    for (const date of ['0001-01-05', '9999-11-25']) {
      const bought = await tenant.api.post('/v1/transactions', {
        title: 'Compra',
        is_expense: true,
        amount: 100,
        date,
        credit_card_id: card.id,
      });
      expect(bought.status).toBe(400);
      expect(bought.body.details[0].field).toBe('date');
    }
    const written = await stack.sql(
      `select (select count(*) from billing.bills where credit_card_id = $1) as bills,
         (select count(*) from ledger.transactions where credit_card_id = $1) as transactions`,
      [card.id],
    );
    expect(written).toEqual([{ bills: '0', transactions: '0' }]);
  });

  it('when another user uses a card or bill id, then 404 and nothing changes', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2026-02-03', amount: 700 }]);
    const other = await stack.tenant();
    const otherAccount = (await other.api.post('/v1/accounts', { name: 'Outra', logo: '001' })).body.id;
    expect((await other.api.get(`/v2/bills/show-by-card/${card.id}`)).status).toBe(404);
    expect((await other.api.get(`/v2/bills/show-by-card/${card.id}/transactions`)).status).toBe(404);
    expect((await other.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, { closing_day: 3 })).status).toBe(404);
    expect((await other.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: otherAccount })).status).toBe(404);
    // a bill id of another card of the same user as reference is also 404
    const mine = await newCard();
    const wrongBill = await tenant.api.patch(`/v2/bills/closing-date/by-card/${mine.id}`, {
      closing_day: 3,
      bill_id: bought.bill_id,
    });
    expect(wrongBill.status).toBe(404);
    // paying from another user's account is 404 too
    expect((await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: otherAccount })).status).toBe(404);
    const payments = await stack.sql(
      'select count(*) from ledger.transactions where bill_id = $1 and is_bill_payment',
      [bought.bill_id],
    );
    expect(payments[0].count).toBe('0');
    expect((await tenant.readOnly.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId })).status).toBe(403);
  });

  it("when the user's company key uses a personal card, bill or account, then 404 and nothing changes", async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2026-05-03', amount: 800 }]);
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = (await company.api.post('/v1/accounts', { name: 'Empresa', logo: '001' })).body.id;
    expect((await company.api.get(`/v2/bills/show-by-card/${card.id}`)).status).toBe(404);
    expect((await company.api.get(`/v2/bills/show-by-card/${card.id}/transactions`)).status).toBe(404);
    expect((await company.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, { closing_day: 3 })).status).toBe(404);
    expect((await company.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: companyAccount })).status).toBe(
      404,
    );
    // the personal key paying its own bill from the company's account, or naming a company bill
    expect((await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: companyAccount })).status).toBe(404);
    const companyCard = (
      await company.api.post('/v1/credit-cards', {
        name: 'PJ',
        account_id: companyAccount,
        closing_date: 10,
        expiring_date: 17,
      })
    ).body.id;
    const companyBill = (
      await company.api.post('/v1/transactions', {
        title: 'Compra',
        is_expense: true,
        amount: 100,
        date: '2026-05-03',
        credit_card_id: companyCard,
      })
    ).body.bill_id;
    expect((await tenant.api.post(`/v2/bills/${companyBill}/pay`, { account_id: accountId })).status).toBe(404);
    const reference = await tenant.api.patch(`/v2/bills/closing-date/by-card/${card.id}`, {
      closing_day: 3,
      bill_id: companyBill,
    });
    expect(reference.status).toBe(404);
    expect((await tenant.readOnly.patch(`/v2/bills/closing-date/by-card/${card.id}`, { closing_day: 3 })).status).toBe(
      403,
    );
    const [state] = await stack.sql(
      `select (select closing_day from billing.credit_cards where id = $1) as closing_day,
         (select count(*) from ledger.transactions where is_bill_payment and bill_id in ($2, $3)) as payments`,
      [card.id, bought.bill_id, companyBill],
    );
    expect(state).toEqual({ closing_day: 10, payments: '0' });
  });

  it('when a bill is paid in full, then it is PAID and the payment is an account expense', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2026-01-05', amount: 4321 }]);
    const response = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, {
      account_id: accountId,
      date: '2026-01-15',
    });
    expect(response.status).toBe(200);
    expect(response.body.bill).toMatchObject({
      id: bought.bill_id,
      value: 4321,
      paid: 4321,
      balance: 0,
      status: 'PAID',
      isPending: false,
    });
    expect(response.body.payment).toMatchObject({
      amount: 4321,
      account_id: accountId,
      bill_id: bought.bill_id,
      is_bill_payment: true,
      is_expense: true,
      paid: true,
      date: '2026-01-15T00:00:00.000Z',
    });
    const again = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId });
    expect(again.status).toBe(409);
  });

  it('when a payment date is an ISO 8601 date-time, then the payment keeps the calendar day as written', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2026-02-05', amount: 3000 }]);
    const response = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, {
      account_id: accountId,
      amount: 1000,
      date: '2026-02-15T22:30:00-03:00',
    });
    expect(response.status).toBe(200);
    expect(response.body.payment).toMatchObject({ amount: 1000, date: '2026-02-15T00:00:00.000Z' });
    expect(response.body.bill).toMatchObject({ paid: 1000, balance: 2000 });
    for (const date of ['2026-02-30T10:00:00Z', '1899-12-31']) {
      const bad = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, date });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([expect.objectContaining({ field: 'date' })]);
    }
  });

  it('when the rollover runs twice, then each unpaid bill carries its remainder once', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2025-12-05', amount: 9000 }]);
    await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, amount: 4000 });
    const billing = stack.service('billing');
    const ledger = ledgerFor(billing.runtime);
    const entriesOf = () =>
      stack.sql<{ amount: string; bill_id: string }>(
        `select amount::text, bill_id from ledger.transactions where credit_card_id = $1 and is_previous_balance
         order by date`,
        [card.id],
      );
    await rollOverBills(billing.orm.em.fork(), ledger, '2026-03-20');
    const first = await entriesOf();
    // December carries into January, which (unpaid past its due date) carries into February, and so on
    expect(first.map((e) => e.amount)).toEqual(['5000', '5000', '5000', '5000']);
    await stack.sql('update billing.bills set rolled_over_at = null'); // as if the first run crashed before marking
    await rollOverBills(billing.orm.em.fork(), ledger, '2026-03-20');
    expect(await entriesOf()).toEqual(first);
    const fromDecember = await stack.sql(
      'select count(*) from ledger.bill_rollover_entries where source_bill_id = $1',
      [bought.bill_id],
    );
    expect(fromDecember[0].count).toBe('1');
    const january = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-01-01`);
    expect(january.body.bill.id).toBe(first[0].bill_id);
    expect(january.body.bill.value).toBe(5000);
  });

  it('when a bill whose remainder was carried is paid, then 409 and nothing is written; the bill it went to takes the payment', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2025-12-05', amount: 9000 }]);
    await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, amount: 4000 });
    const billing = stack.service('billing');
    await rollOverBills(billing.orm.em.fork(), ledgerFor(billing.runtime), '2026-01-15');
    // December's bill was due on the 17th; January's is not due yet, so only December's is carried
    const [carried, ...none] = await stack.sql<{ bill_id: string }>(
      'select bill_id from ledger.transactions where credit_card_id = $1 and is_previous_balance',
      [card.id],
    );
    expect(none).toEqual([]);
    const payments = () =>
      stack.sql('select count(*)::int as n from ledger.transactions where is_bill_payment and bill_id = $1', [
        bought.bill_id,
      ]);
    const before = await payments();

    const again = await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(carried.bill_id);
    expect(await payments()).toEqual(before);

    const paid = await tenant.api.post(`/v2/bills/${carried.bill_id}/pay`, { account_id: accountId });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.amount).toBe(5000);
    expect(paid.body.bill).toMatchObject({ id: carried.bill_id, balance: 0, status: 'PAID' });
  });

  it('when a purchase is dated into a past bill the rollover found settled, then it counts as owed and the next run carries it', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2025-12-05', amount: 9000 }]);
    expect((await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId })).status).toBe(200);
    const billing = stack.service('billing');
    const roll = (date: string) => rollOverBills(billing.orm.em.fork(), ledgerFor(billing.runtime), date);
    await roll('2026-01-15');
    const carried = () =>
      stack.sql<{ amount: string }>(
        'select amount::text from ledger.transactions where credit_card_id = $1 and is_previous_balance',
        [card.id],
      );
    expect(await carried()).toEqual([]);

    const [late] = await purchase(card.id, [{ date: '2025-12-06', amount: 700 }]);
    expect(late.bill_id).toBe(bought.bill_id);
    const limit = (await tenant.api.get(`/v1/credit-cards/${card.id}`)).body;
    expect(limit.available_limit).toBe(limit.limit - 700);
    await roll('2026-01-16');
    expect(await carried()).toEqual([{ amount: '700' }]);
    await roll('2026-01-17');
    expect(await carried()).toEqual([{ amount: '700' }]);
  });

  it('when a previous-balance entry is moved to another card or an account, then 400 and it stays on its bill', async () => {
    const card = await newCard();
    const other = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2025-12-05', amount: 3000 }]);
    await rollOverBills(
      stack.service('billing').orm.em.fork(),
      ledgerFor(stack.service('billing').runtime),
      '2026-01-20',
    );
    const [carried] = await stack.sql<{ id: string; bill_id: string }>(
      'select id, bill_id from ledger.transactions where credit_card_id = $1 and is_previous_balance',
      [card.id],
    );
    expect(carried.bill_id).not.toBe(bought.bill_id);
    for (const [field, body] of [
      ['credit_card_id', { credit_card_id: other.id }],
      ['account_id', { account_id: accountId }],
    ] as const) {
      const response = await tenant.api.put(
        `/v2/transactions/duplicate/update-many?transactions_ids=${carried.id}`,
        body,
      );
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field })]);
    }
    const [after] = await stack.sql(
      'select credit_card_id, account_id, bill_id from ledger.transactions where id = $1',
      [carried.id],
    );
    expect(after).toEqual({ credit_card_id: card.id, account_id: null, bill_id: carried.bill_id });
    // its title can still change
    const renamed = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${carried.id}`, {
      title: 'Saldo de dezembro',
    });
    expect(renamed.status).toBe(200);
  });

  it('when a rollover job is queued, then the worker carries the remainder and the hourly scheduler is registered at start', async () => {
    const card = await newCard();
    await purchase(card.id, [{ date: '2024-01-05', amount: 777 }]);
    const queue = stack.service('billing').runtime.queues.get(QUEUES.billRollover);
    expect(stack.billingSchedulersAtStart).toContain(ROLLOVER_SCHEDULER_ID);
    // January's bill is past due on Feb 10; February's is not yet
    const job = await queue.add('bill-rollover', { date: '2024-02-10' });
    await waitFor(async () => (await queue.getJob(job.id as string))?.finishedOn !== undefined);
    expect(await job.getState()).toBe('completed');
    const entries = await stack.sql(
      'select amount::text from ledger.transactions where credit_card_id = $1 and is_previous_balance',
      [card.id],
    );
    expect(entries).toEqual([{ amount: '777' }]);
  });

  it('when a card is deleted, then its entries and the payments of its bills vanish with it', async () => {
    const card = await newCard();
    const [bought] = await purchase(card.id, [{ date: '2026-01-05', amount: 1500 }]);
    await tenant.api.post(`/v2/bills/${bought.bill_id}/pay`, { account_id: accountId, amount: 500 });
    const response = await tenant.api.delete(`/v1/credit-cards/${card.id}`);
    expect(response.status).toBe(200);
    const live = await stack.sql(
      'select count(*) from ledger.transactions where (credit_card_id = $1 or bill_id = $2) and deleted_at is null',
      [card.id, bought.bill_id],
    );
    expect(live[0].count).toBe('0');
    expect((await tenant.api.get(`/v2/bills/show-by-card/${card.id}`)).status).toBe(404);
  });

  it('when a bill holds 1,000 transactions, then showing it costs a bounded number of calls and queries', async () => {
    const card = await newCard();
    const measureOnce = async () => {
      const ledger = ledgerFor(stack.service('billing').runtime);
      const before = { calls: ledger.http.calls, ledger: queries.ledger, billing: queries.billing };
      const response = await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-04-01`);
      expect(response.status).toBe(200);
      // megabytes cross each hop in pieces, yet arrive as one answer of the stated length, compact as JSON.stringify writes it
      expect(response.headers.get('transfer-encoding')).toBeNull();
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(response.body)));
      return {
        rows: response.body.transactions.length,
        calls: ledger.http.calls - before.calls,
        ledger: queries.ledger - before.ledger,
        billing: queries.billing - before.billing,
      };
    };
    // background jobs (event consumers, billing's workers) may still call or query the ledger meanwhile: they
    // only ever add calls and statements, so the quietest of three reads is the read's own cost
    const measure = async () => {
      const runs = [await measureOnce(), await measureOnce(), await measureOnce()];
      const cost = (run: (typeof runs)[number]) => run.calls * 1000 + run.ledger + run.billing;
      return runs.reduce((best, run) => (cost(run) < cost(best) ? run : best));
    };
    await purchase(card.id, [{ date: '2026-03-15', amount: 100 }]);
    const small = await measure();
    await purchase(
      card.id,
      Array.from({ length: 999 }, (_, i) => ({
        date: `2026-03-${String(11 + (i % 18)).padStart(2, '0')}`,
        amount: 100 + i,
      })),
    );
    const large = await measure();
    expect(small.rows).toBe(1);
    expect(large.rows).toBe(1000);
    // the bills' totals and the context's time zone side by side, then the rows
    expect(large.calls).toBe(3);
    expect(large.calls).toBe(small.calls);
    expect(large.ledger).toBe(small.ledger);
    expect(large.billing).toBe(small.billing);
    expect(large.ledger + large.billing).toBeLessThan(30);

    // the ledger's answer to billing leaves in pieces as its rows are read (chunked): the whole records, the card
    // billing sent in each
    const shown = (await tenant.api.get(`/v2/bills/show-by-card/${card.id}?date=2026-04-01`)).body;
    const { bill } = shown;
    const ledger = stack.service('ledger');
    const contents = await fetch(`${ledger.url}/internal/v1/card-transactions/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CONTEXT_HEADER]: signContext(ctx(), ledger.runtime.config.INTERNAL_SECRET),
      },
      body: JSON.stringify({
        credit_card_id: card.id,
        bill_ids: [bill.id],
        closing_date: bill.closing_date.slice(0, 10),
        credit_card: shown.transactions[0].credit_card,
      }),
    });
    const text = await contents.text();
    expect(contents.headers.get('transfer-encoding')).toBe('chunked');
    expect(JSON.parse(text)).toHaveLength(1000);
    expect(text).toBe(JSON.stringify(shown.transactions));
  });
});
