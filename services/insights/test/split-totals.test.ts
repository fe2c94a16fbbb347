import { todayIn } from '@finance/shared/clock';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { createTransaction, newAccount, newCard } from '../../../test/support/transactions.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

/** Value of each report line by its title. */
const byTitle = (items: Array<{ title: string; value: number }>) =>
  Object.fromEntries(items.map((item) => [item.title, item.value]));

describe('totals by category count a split transaction by its parts', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;
  let today: string;
  const categories: Record<string, string> = {};

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = await newAccount(tenant.api, 0);
    for (const name of ['Mercado', 'Limpeza', 'Presentes'])
      categories[name] = (await tenant.api.post('/v1/categories', { name, is_expense: true })).body.id;
    today = todayIn();
  });
  afterAll(() => stack?.stop());

  it('when a receipt on the card is split in three, then the subcategory report files each part, the summary and the bill keep the whole, and a limit of one part warns by that part', async () => {
    const card = await newCard(tenant.api, account);
    const limit = await tenant.api.post('/v1/spending-limits', {
      amount: 10_000,
      category_id: categories.Limpeza,
      notification_percentage: 50,
    });
    expect(limit.status).toBe(201);
    const receipt = (
      await tenant.api.post('/v1/transactions', {
        amount: 25_003,
        date: today,
        is_expense: true,
        title: 'Hipermercado',
        credit_card_id: card,
        category_id: categories.Mercado,
      })
    ).body;
    const period = `start_date=${today}&end_date=${today}`;
    const summaryBefore = (await tenant.api.get(`/v1/reports/summary?${period}`)).body;
    const billBefore = (await tenant.api.get(`/v2/bills/show-by-card/${card}?date=${today}`)).body.bill;
    expect(
      byTitle((await tenant.api.get(`/v1/reports/subcategory-details?${period}`)).body.expenses_subcategories),
    ).toEqual({ Mercado: 25_003 });

    const split = await tenant.api.put(`/v1/transactions/${receipt.id}/splits`, {
      parts: [
        { amount: 18_001, category_id: categories.Mercado },
        { amount: 6_001, category_id: categories.Limpeza },
        { amount: 1_001, category_id: categories.Presentes },
      ],
    });
    expect(split.status).toBe(200);
    const report = (await tenant.api.get(`/v1/reports/subcategory-details?${period}`)).body.expenses_subcategories;
    expect(byTitle(report)).toEqual({ Mercado: 18_001, Limpeza: 6_001, Presentes: 1_001 });
    expect(
      report.map((item: { percentage: string }) => Number(item.percentage)).reduce((a: number, b: number) => a + b),
    ).toBeCloseTo(100, 5);
    expect((await tenant.api.get(`/v1/reports/summary?${period}`)).body).toEqual(summaryBefore);
    expect((await tenant.api.get(`/v2/bills/show-by-card/${card}?date=${today}`)).body.bill).toEqual(billBefore);

    // 60.01 of a 100.00 limit in Limpeza: past its 50 % warning, by the part alone
    const view = await waitFor(async () => {
      const current = (await tenant.api.get(`/v1/spending-limits/${limit.body.id}`)).body;
      return current.current_window.spent === 6_001 && current;
    });
    expect(view.current_window.status).toBe('WARNING');
    const notified = await waitFor(async () => {
      const list = (await tenant.api.get('/v1/notifications')).body.data;
      return list.find((item: { kind: string }) => item.kind === 'SPENDING_LIMIT_WARNING');
    }, 15_000);
    expect(notified.data).toMatchObject({ spending_limit_id: limit.body.id, spent: 6_001 });

    // unsplit: the whole counts in its own category again
    await tenant.api.delete(`/v1/transactions/${receipt.id}/splits`);
    expect(
      byTitle((await tenant.api.get(`/v1/reports/subcategory-details?${period}`)).body.expenses_subcategories),
    ).toEqual({ Mercado: 25_003 });
    expect((await tenant.api.get(`/v1/spending-limits/${limit.body.id}`)).body.current_window.spent).toBe(0);
  });

  it("when a company splits an entry, then the DRE files each part through the company's mapping and a part of a category without one by the entry's direction", async () => {
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = await newAccount(company.api, 0);
    const cost = (await company.api.post('/v1/categories', { name: 'Insumos', is_expense: true })).body.id;
    const taxes = (await company.api.post('/v1/categories', { name: 'Tributos', is_expense: true })).body.id;
    expect(
      (
        await company.api.put('/v2/business/dre-mapping', [
          { category_id: cost, dre_group: 'custos' },
          { category_id: taxes, dre_group: 'deducoes' },
        ])
      ).status,
    ).toBe(200);
    const center = (await company.api.post('/v2/business/cost-centers', { name: 'Loja' })).body.id;
    const entry = await createTransaction(company.api, companyAccount, {
      amount: 100_001,
      date: '2026-02-10',
      competence_date: '2026-01-31',
      category_id: cost,
    });
    const split = await company.api.put(`/v1/transactions/${entry.id}/splits`, {
      parts: [
        { amount: 70_001, category_id: cost, cost_center_id: center },
        { amount: 20_000, category_id: taxes },
        { amount: 10_000, category_id: null },
      ],
    });
    expect(split.status).toBe(200);
    expect(split.body[0].parts[0].cost_center_id).toBe(center);
    const dre = (await company.api.get('/v2/business/dre?start_date=2026-01-01&end_date=2026-01-31')).body;
    const expenses = Object.fromEntries(
      dre.groups.map((group: { dre_group: string; expenses: number }) => [group.dre_group, group.expenses]),
    );
    expect(expenses).toMatchObject({ custos: 70_001, deducoes: 20_000, despesas_operacionais: 10_000 });
    // by competence date: nothing in February
    const february = (await company.api.get('/v2/business/dre?start_date=2026-02-01&end_date=2026-02-28')).body;
    expect(february.groups.every((group: { expenses: number }) => group.expenses === 0)).toBe(true);
  });
});
