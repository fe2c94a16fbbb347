import { addDays, addMonthsClamped } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { createTransaction, newAccount, newCard, TRANSACTION_FIELDS } from '../../../../test/support/transactions.ts';
import { extendRecurrences } from '../../src/domain/transactions/extend-recurrences.ts';

interface Part {
  amount: number;
  category_id: string | null;
  subcategory_id?: string | null;
}

const splits = (id: string) => `/v1/transactions/${id}/splits`;
const sum = (parts: Array<{ amount: number }>) => parts.reduce((total, part) => total + part.amount, 0);

describe('transaction splits: parts of one entry, by their own categories', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;
  let food: string;
  let cleaning: string;
  let gifts: string;
  let giftsSub: string;
  let today: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = await newAccount(tenant.api, 100_000);
    const category = async (name: string) =>
      (await tenant.api.post('/v1/categories', { name, is_expense: true })).body.id as string;
    [food, cleaning, gifts] = [await category('Comida'), await category('Limpeza'), await category('Presentes')];
    giftsSub = (await tenant.api.post('/v1/subcategories', { name: 'Aniversário', category_id: gifts })).body.id;
    today = todayIn();
  });
  afterAll(() => stack?.stop());

  const receipt = (amount: number): Part[] => {
    const food = Math.floor(amount / 2) + 1;
    return [
      { amount: food, category_id: null },
      { amount: amount - food - 333, category_id: null },
      { amount: 333, category_id: null },
    ];
  };
  const filed = (parts: Part[]) =>
    parts.map((part, index) => ({
      ...part,
      category_id: [food, cleaning, gifts][index],
      ...(index === 2 ? { subcategory_id: giftsSub } : {}),
    }));
  const partsInDb = (id: string) =>
    stack.sql<{ amount: number; category_id: string; position: number }>(
      'select amount::int, category_id, position from ledger.transaction_splits where transaction_id = $1 order by position',
      [id],
    );

  it('when an account entry is split with odd cents, then its parts are stored, shown and announced, and its record, list and balance keep the whole', async () => {
    const entry = await createTransaction(tenant.api, account, { amount: 24_989, date: today, paid: true });
    const parts = filed(receipt(24_989));
    const split = await tenant.api.put(splits(entry.id), {
      parts: parts.map((part, index) => (index === 0 ? { ...part, description: 'Feira', tag_ids: [] } : part)),
    });
    expect(split.status).toBe(200);
    expect(split.body).toHaveLength(1);
    expect(split.body[0]).toMatchObject({ transaction_id: entry.id, amount: 24_989, is_expense: true });
    expect(split.body[0].parts.map((part: Part) => [part.amount, part.category_id])).toEqual(
      parts.map((part) => [part.amount, part.category_id]),
    );
    expect(sum(split.body[0].parts)).toBe(24_989);
    expect(split.body[0].parts[0]).toMatchObject({ description: 'Feira', tag_ids: [], contact_id: null });
    // the gift part sent only its category and subcategory; a subcategory alone would bring its category too
    expect(split.body[0].parts[2]).toMatchObject({ category_id: gifts, subcategory_id: giftsSub });
    expect((await partsInDb(entry.id)).map((row) => row.amount)).toEqual(parts.map((part) => part.amount));

    const read = await tenant.api.get(splits(entry.id));
    expect(read.body).toEqual(split.body[0]);
    const record = (await tenant.api.get(`/v1/transactions/${entry.id}`)).body;
    expect(Object.keys(record).sort()).toEqual(TRANSACTION_FIELDS);
    expect(record).toMatchObject({ amount: 24_989, is_split: true, category_id: null });
    const listed = (await tenant.api.get(`/v1/transactions?account_id=${account}&limit=500`)).body.data;
    expect(listed.filter((row: { id: string }) => row.id === entry.id)).toEqual([record]);
    const balance = (await tenant.api.get(`/v1/accounts/${account}`)).body.balance;
    expect(balance).toBe(100_000 - 24_989);
    const [event] = await stack.sql<{ payload: any }>(
      `select payload from ledger.outbox_events where type = 'transaction.changed'
        and payload->'data'->>'change' = 'updated' and payload->'data'->'transactions'->0->>'id' = $1`,
      [entry.id],
    );
    expect(event.payload.data.transactions[0].splits).toEqual(split.body[0].parts);

    const removed = await tenant.api.delete(splits(entry.id));
    expect(removed.body).toEqual({ removed: 1 });
    expect((await tenant.api.get(splits(entry.id))).body.parts).toEqual([]);
    expect((await tenant.api.get(`/v1/transactions/${entry.id}`)).body.is_split).toBe(false);
    expect(await partsInDb(entry.id)).toEqual([]);
    expect((await tenant.api.delete(splits(entry.id))).body).toEqual({ removed: 0 });
  });

  it('when the parts do not sum to the amount, or a part names what the context cannot see, then it is refused and nothing changes', async () => {
    const entry = await createTransaction(tenant.api, account, { amount: 1_001 });
    const short = await tenant.api.put(splits(entry.id), {
      parts: [
        { amount: 500, category_id: food },
        { amount: 500, category_id: cleaning },
      ],
    });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual([
      { field: 'parts', message: 'a soma das partes (R$ 10,00) deve ser igual ao valor do lançamento (R$ 10,01)' },
    ]);
    const one = await tenant.api.put(splits(entry.id), { parts: [{ amount: 1_001, category_id: food }] });
    expect(one.status).toBe(400);
    const other = await stack.tenant();
    const foreign = (await other.api.post('/v1/categories', { name: 'Alheia', is_expense: true })).body.id;
    const hidden = await tenant.api.put(splits(entry.id), {
      parts: [
        { amount: 1_000, category_id: food },
        { amount: 1, category_id: foreign },
      ],
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Categoria não encontrada (parts[1].category_id)');
    const business = await tenant.api.put(splits(entry.id), {
      parts: [
        { amount: 1_000, category_id: food, cost_center_id: foreign },
        { amount: 1, category_id: food },
      ],
    });
    expect(business.status).toBe(403);
    expect((await other.api.put(splits(entry.id), { parts: filed(receipt(1_001)) })).status).toBe(404);
    expect((await other.api.get(splits(entry.id))).status).toBe(404);
    expect((await other.api.delete(splits(entry.id))).status).toBe(404);
    expect((await tenant.readOnly.put(splits(entry.id), { parts: filed(receipt(1_001)) })).status).toBe(403);
    expect(await partsInDb(entry.id)).toEqual([]);
  });

  it('when a card purchase is split, then the bill keeps its total and its entry shows the parts', async () => {
    const card = await newCard(tenant.api, account);
    const purchase = (
      await tenant.api.post('/v1/transactions', {
        amount: 15_001,
        date: today,
        is_expense: true,
        title: 'Supermercado',
        credit_card_id: card,
      })
    ).body;
    const before = (await tenant.api.get(`/v2/bills/show-by-card/${card}?date=${today}`)).body;
    const split = await tenant.api.put(splits(purchase.id), { parts: filed(receipt(15_001)) });
    expect(split.status).toBe(200);
    const after = (await tenant.api.get(`/v2/bills/show-by-card/${card}?date=${today}`)).body;
    expect(after.bill).toEqual(before.bill);
    const entry = after.transactions.find((row: { id: string }) => row.id === purchase.id);
    expect(entry).toMatchObject({ amount: 15_001, is_split: true });
  });

  it('when an installment member is split THIS, THIS_AND_NEXT and ALL, then each member in scope gets the parts in proportion to its own amount', async () => {
    // 100,01 in 3: 33,34 + 33,34 + 33,33
    const first = await createTransaction(tenant.api, account, {
      amount: 10_001,
      type: 'PARCELLED',
      installments: 3,
      is_full_amount: true,
      date: '2026-01-05',
    });
    const members = await stack.sql<{ id: string; amount: number; date: string }>(
      `select id, amount::int, to_char(date, 'YYYY-MM-DD') as date from ledger.transactions
        where connected_transaction_id = $1 order by series_index`,
      [first.id],
    );
    expect(members.map((member) => member.amount)).toEqual([3_334, 3_334, 3_333]);
    const half = (amount: number): Part[] => [
      { amount: Math.ceil(amount / 2), category_id: food },
      { amount: Math.floor(amount / 2), category_id: cleaning },
    ];
    const amountsOf = async () =>
      Promise.all(members.map(async (member) => (await partsInDb(member.id)).map((part) => part.amount)));

    const only = await tenant.api.put(splits(members[1].id), { parts: half(3_334) });
    expect(only.body.map((split: { transaction_id: string }) => split.transaction_id)).toEqual([members[1].id]);
    expect(await amountsOf()).toEqual([[], [1_667, 1_667], []]);

    const next = await tenant.api.put(splits(members[1].id), {
      parts: [
        { amount: 3_000, category_id: food },
        { amount: 334, category_id: cleaning },
      ],
      edition_type: 'THIS_AND_NEXT',
    });
    expect(next.status).toBe(200);
    // 3,333 × 3,000 / 3,334 = 2,999.1 and 333.9: floors 2,999 + 333, the leftover cent to the first part
    expect(await amountsOf()).toEqual([[], [3_000, 334], [3_000, 333]]);

    const all = await tenant.api.put(splits(members[2].id), {
      parts: [
        { amount: 1_111, category_id: food },
        { amount: 1_111, category_id: cleaning },
        { amount: 1_111, category_id: gifts },
      ],
      edition_type: 'ALL',
    });
    expect(all.body.map((split: { transaction_id: string }) => split.transaction_id)).toEqual(members.map((m) => m.id));
    const everyone = await amountsOf();
    expect(everyone).toEqual([
      [1_112, 1_111, 1_111],
      [1_112, 1_111, 1_111],
      [1_111, 1_111, 1_111],
    ]);
    everyone.forEach((parts, index) => {
      expect(sum(parts.map((amount) => ({ amount })))).toBe(members[index].amount);
    });

    const removed = await tenant.api.delete(`${splits(members[1].id)}?edition_type=THIS_AND_NEXT`);
    expect(removed.body).toEqual({ removed: 2 });
    expect(await amountsOf()).toEqual([[1_112, 1_111, 1_111], [], []]);

    // an edit of the amount apportions the parts again: 1,112/1,111/1,111 of 3,334 over 1,000
    await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${members[0].id}`, { amount: 1_000 });
    expect((await partsInDb(members[0].id)).map((part) => part.amount)).toEqual([334, 333, 333]);
    // appended installments copy the last one's split: none now
    await tenant.api.put(splits(members[2].id), { parts: half(3_333) });
    expect((await tenant.api.post(`/v1/transactions/${first.id}/installments`, { quantity: 1 })).status).toBe(200);
    const [appended] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 and series_index = 3',
      [first.id],
    );
    expect((await partsInDb(appended.id)).map((part) => part.amount)).toEqual([1_667, 1_666]);
  });

  it('when a member of a series is too small for every part, then the wider split is refused and nothing changes', async () => {
    const big = await createTransaction(tenant.api, account, {
      amount: 300,
      type: 'PARCELLED',
      installments: 2,
      date: '2026-03-05',
    });
    const [, second] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where connected_transaction_id = $1 order by series_index',
      [big.id],
    );
    await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${second.id}`, { amount: 2 });
    const tooSmall = await tenant.api.put(splits(big.id), {
      parts: [
        { amount: 1, category_id: food },
        { amount: 1, category_id: cleaning },
        { amount: 298, category_id: gifts },
      ],
      edition_type: 'ALL',
    });
    expect(tooSmall.status).toBe(400);
    expect(await partsInDb(big.id)).toEqual([]);
  });

  it('when a recurrence is split ALL, then its occurrences and those the horizon adds later carry the parts', async () => {
    const start = addMonthsClamped(today, -1);
    const first = await createTransaction(tenant.api, account, {
      amount: 5_999,
      type: 'RECURRENT',
      frequency: 'MONTHLY',
      date: start,
    });
    const parts: Part[] = [
      { amount: 4_000, category_id: food },
      { amount: 1_999, category_id: cleaning },
    ];
    const split = await tenant.api.put(splits(first.id), { parts, edition_type: 'ALL' });
    expect(split.status).toBe(200);
    expect(split.body.length).toBeGreaterThanOrEqual(13);
    // a year later the hourly job adds occurrences: they copy the latest one's parts
    const created = await extendRecurrences(
      stack.service('ledger').orm.em.fork(),
      addDays(addMonthsClamped(today, 2), 1),
    );
    expect(created.created).toBeGreaterThan(0);
    const newest = await stack.sql<{ id: string; is_split: boolean }>(
      `select id, is_split from ledger.transactions where connected_transaction_id = $1 and deleted_at is null
        order by series_index desc limit 1`,
      [first.id],
    );
    expect(newest[0].is_split).toBe(true);
    expect((await partsInDb(newest[0].id)).map((part) => [part.amount, part.category_id])).toEqual([
      [4_000, food],
      [1_999, cleaning],
    ]);
    const [event] = await stack.sql<{ payload: any }>(
      `select payload from ledger.outbox_events where type = 'transaction.changed'
        and payload->'data'->>'change' = 'created' and payload::text like $1`,
      [`%${newest[0].id}%`],
    );
    const item = event.payload.data.transactions.find((row: { id: string }) => row.id === newest[0].id);
    expect(item.splits.map((part: Part) => part.amount)).toEqual([4_000, 1_999]);
  });

  it('when 50 edits of one split arrive at once, then every one applies whole and the parts always sum to the amount', async () => {
    const entry = await createTransaction(tenant.api, account, { amount: 99_999 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        tenant.api.put(splits(entry.id), {
          parts: [
            { amount: 1_000 + n, category_id: food },
            { amount: 2_000 + n * 7, category_id: cleaning },
            { amount: 99_999 - 3_000 - n * 8, category_id: gifts },
          ],
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    const stored = await partsInDb(entry.id);
    expect(stored).toHaveLength(3);
    expect(sum(stored)).toBe(99_999);
    expect(stored.map((part) => part.position)).toEqual([0, 1, 2]);
    // one of the 50 won whole: its first part names which
    const n = stored[0].amount - 1_000;
    expect(stored.map((part) => part.amount)).toEqual([1_000 + n, 2_000 + n * 7, 99_999 - 3_000 - n * 8]);
  });
});
