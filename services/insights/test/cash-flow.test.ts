import { addDays } from '@finance/shared/calendar';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { runInsightsJob } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { newAccount } from '../../../test/support/transactions.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

/** The context's today (São Paulo) for the whole file: every seeded date derives from it. */
const TODAY = '2030-06-08';
const NOW = `${TODAY}T12:00:00-03:00`;
const END = '2030-07-10';

interface Movement {
  kind: string;
  amount: number;
  title: string;
  date: string;
}

describe('cash-flow forecast', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;
  let card: string;

  const post = async (path: string, body: Record<string, unknown>, api = tenant.api) => {
    const response = await api.post(path, body);
    if (response.status !== 201) throw new Error(`${path}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const entry = (body: Record<string, unknown>) =>
    post('/v1/transactions', { is_expense: true, account_id: account, ...body });
  const forecastOf = async (query: string) => {
    const response = await tenant.api.get(`/v1/reports/cash-flow?${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    stack = await TestStack.start();
    stack.setNow(NOW);
    tenant = await stack.tenant();
    account = await newAccount(tenant.api, 0, 'Conta');
    // received and paid already: June's salary, May's rent, a purchase paid in cash
    await entry({
      amount: 500_000,
      date: '2030-06-05',
      is_expense: false,
      title: 'Salário',
      type: 'RECURRENT',
      paid: true,
    });
    await entry({ amount: 180_000, date: '2030-05-15', title: 'Aluguel', type: 'RECURRENT', paid: true });
    await entry({ amount: 200_000, date: '2030-06-01', title: 'Compra à vista', paid: true });
    // a card closing on the 9th, due on the 10th: today's open bill is June's (due 06-10), July's comes next
    card = (await post('/v1/credit-cards', { name: 'Cartão', account_id: account, closing_date: 9, expiring_date: 10 }))
      .id;
    const onCard = (body: Record<string, unknown>) =>
      post('/v1/transactions', { is_expense: true, credit_card_id: card, ...body });
    // R$ 1.000,05 in 10: five of 100,01 and five of 100,00, one a month from May 20th
    await onCard({
      amount: 100_005,
      date: '2030-05-20',
      title: 'Notebook',
      type: 'PARCELLED',
      installments: 10,
      is_full_amount: true,
    });
    await onCard({ amount: 25_000, date: '2030-06-01', title: 'Mercado' });
    await onCard({ amount: 3_990, date: '2030-06-12', title: 'Streaming', type: 'RECURRENT' });
    // a boleto scheduled for the 20th, and a goal whose reminder plans R$ 200,00 on the 25th of each month
    await entry({ amount: 35_090, date: '2030-06-20', title: 'Boleto condomínio', paid: false });
    await post('/v2/goals', {
      title: 'Viagem',
      amount: 1_000_000,
      deadline: '2031-12-31',
      reminder: { amount: 20_000, start_date: '2030-06-25' },
    });
  });
  afterAll(async () => {
    stack?.setNow(null);
    await stack?.stop();
  });

  it('when a month is forecast, then every day equals the table worked out by hand: salary, rent, installments, the open bill and the next, a boleto and a goal', async () => {
    const forecast = await forecastOf(`end_date=${END}`);
    expect(forecast).toMatchObject({ today: TODAY, start_date: TODAY, end_date: END, threshold: 0 });
    // now: + salary 5.000,00 − rent 1.800,00 − cash purchase 2.000,00
    const moves: Record<string, Array<[kind: string, amount: number, title: string, date?: string]>> = {
      // June's bill: installment 1 (100,01) + Mercado (250,00); the streaming of June 12th falls in July's bill
      '2030-06-10': [['BILL', -35_001, 'Fatura Cartão']],
      '2030-06-15': [['ENTRY', -180_000, 'Aluguel']],
      '2030-06-20': [['ENTRY', -35_090, 'Boleto condomínio']],
      '2030-06-25': [['GOAL', -20_000, 'Viagem']],
      '2030-07-05': [['ENTRY', 500_000, 'Salário']],
      // July's bill: installment 2 (100,01) + streaming (39,90)
      '2030-07-10': [['BILL', -13_991, 'Fatura Cartão']],
    };
    const table: Array<[string, number]> = [
      ['2030-06-08', 120_000],
      ['2030-06-10', 84_999],
      ['2030-06-15', -95_001],
      ['2030-06-20', -130_091],
      ['2030-06-25', -150_091],
      ['2030-07-05', 349_909],
      ['2030-07-10', 335_918],
    ];
    const expected: Array<{ date: string; balance: number; movements: Movement[] }> = [];
    for (let day = TODAY, row = 0; day <= END; day = addDays(day, 1)) {
      if (row + 1 < table.length && table[row + 1][0] === day) row += 1;
      expected.push({
        date: day,
        balance: table[row][1],
        movements: (moves[day] ?? []).map(([kind, amount, title, date]) => ({
          kind,
          amount,
          title,
          date: date ?? day,
        })),
      });
    }
    expect(
      forecast.days.map((day: { date: string; movements: Movement[] }, index: number) => ({
        date: day.date,
        balance: forecast.accounts[0].balances[index],
        movements: day.movements.map(({ kind, amount, title, date }) => ({ kind, amount, title, date })),
      })),
    ).toEqual(expected);
    expect(forecast.days.map((day: { total_balance: number }) => day.total_balance)).toEqual(
      expected.map((day) => day.balance),
    );
    expect(forecast.accounts).toEqual([
      {
        account_id: account,
        name: 'Conta',
        counts_in_total: true,
        balance: 120_000,
        first_shortfall_date: '2030-06-15',
        lowest_balance: -150_091,
        lowest_balance_date: '2030-06-25',
        balances: expected.map((day) => day.balance),
      },
    ]);
    const bill = forecast.days.find((day: { date: string }) => day.date === '2030-06-10').movements[0];
    expect(bill).toMatchObject({ credit_card_id: card, bill_id: expect.any(String), account_id: account });
    expect(forecast.days[0].cost_centers).toBeUndefined();
    // one account asked, and the same days; a later start shows the days from it, the balance carried
    const one = await forecastOf(`account_id=${account}&end_date=${END}`);
    expect(one.days).toEqual(forecast.days);
    const later = await forecastOf(`start_date=2030-06-16&end_date=2030-06-17`);
    expect(later.days.map((day: { total_balance: number }) => day.total_balance)).toEqual([-95_001, -95_001]);
    expect(later.accounts[0].first_shortfall_date).toBe('2030-06-15');
  });

  it('when the forecast reaches past the written horizon, then the recurrences go on: on the account, and on the card in the bill of their date', async () => {
    // the recurrences were written up to 12 months after today (2031-06-08); the job that writes on never ran
    const forecast = await forecastOf('start_date=2031-06-01&end_date=2031-09-30');
    const movements: Array<Movement & { series_id: string | null; transaction_id: string | null }> =
      forecast.days.flatMap((day: { movements: Movement[] }) => day.movements);
    const titled = (title: string) => movements.filter((m) => m.title === title).map((m) => [m.kind, m.date, m.amount]);
    expect(titled('Salário')).toEqual([
      ['ENTRY', '2031-06-05', 500_000],
      ['RECURRENCE', '2031-07-05', 500_000],
      ['RECURRENCE', '2031-08-05', 500_000],
      ['RECURRENCE', '2031-09-05', 500_000],
    ]);
    expect(titled('Aluguel')).toEqual([
      ['RECURRENCE', '2031-06-15', -180_000],
      ['RECURRENCE', '2031-07-15', -180_000],
      ['RECURRENCE', '2031-08-15', -180_000],
      ['RECURRENCE', '2031-09-15', -180_000],
    ]);
    // the streaming was written up to its May 12th (June's bill); from June 12th on it is projected, each in the next bill
    expect(titled('Fatura Cartão')).toEqual([
      ['BILL', '2031-06-10', -3_990],
      ['BILL', '2031-07-10', -3_990],
      ['BILL', '2031-08-10', -3_990],
      ['BILL', '2031-09-10', -3_990],
    ]);
    const august = movements.find((m) => m.title === 'Fatura Cartão' && m.date === '2031-08-10') as unknown as {
      bill_id: string | null;
    };
    expect(august.bill_id).toBeNull();
  });

  it('when the period starts before today, ends before it starts or reaches too far, or the account is not the context’s, then it is refused', async () => {
    const refused = async (query: string, status: number) =>
      expect((await tenant.api.get(`/v1/reports/cash-flow?${query}`)).status).toBe(status);
    await refused('start_date=2030-06-07', 400);
    await refused('start_date=2030-06-10&end_date=2030-06-09', 400);
    await refused(`end_date=${addDays(TODAY, 732)}`, 400);
    await refused('end_date=2030-02-30', 400);
    const other = await stack.tenant();
    expect((await other.api.get(`/v1/reports/cash-flow?account_id=${account}`)).status).toBe(404);
    expect((await other.api.get('/v1/reports/cash-flow')).body.accounts).toEqual([]);
  });

  it('when the balance is projected below zero, then one notification and one webhook event come; again only after it recovered and fell again', async () => {
    const watchDue = () =>
      waitFor(async () => {
        const [watch] = await stack.sql<{ due: boolean }>(
          'select check_at is null as due from insights.cash_flow_watches where context_id = $1',
          [tenant.userId],
        );
        return watch?.due === true;
      });
    const shortfalls = async () =>
      (await tenant.api.get('/v1/notifications')).body.data.filter(
        (notification: { kind: string }) => notification.kind === 'CASH_FLOW_SHORTFALL',
      );
    const events = async () =>
      (
        await stack.sql<{ n: number }>(
          "select count(*)::int as n from insights.outbox_events where type = 'cash_flow.shortfall'",
        )
      )[0].n;

    await watchDue();
    await runInsightsJob(stack, QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    const [first] = await shortfalls();
    expect(first).toMatchObject({
      title: 'Saldo previsto abaixo de R$ 0,00 em "Conta"',
      message: 'A previsão da conta "Conta" fica em R$ -950,01 em 15/06/2030, abaixo de R$ 0,00.',
      data: { account_id: account, shortfall_date: '2030-06-15', balance: -95_001, threshold: 0 },
    });
    expect(await events()).toBe(1);

    // still short after another change: nothing new
    await entry({ amount: 1_000, date: '2030-06-12', title: 'Padaria', paid: false });
    await watchDue();
    await runInsightsJob(stack, QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    expect(await shortfalls()).toHaveLength(1);

    // a bonus on the 12th covers the month: the episode ends, with no notification
    const bonus = await entry({ amount: 300_000, date: '2030-06-12', title: 'Bônus', is_expense: false, paid: false });
    await watchDue();
    await runInsightsJob(stack, QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    expect(await shortfalls()).toHaveLength(1);
    const [alert] = await stack.sql<{ short: boolean; episode: number }>(
      'select short, episode from insights.cash_flow_alerts where account_id = $1',
      [account],
    );
    expect(alert).toEqual({ short: false, episode: 1 });

    // the bonus falls through: short again, a second episode, a second notification
    expect((await tenant.api.delete(`/v1/transactions/${bonus.id}`)).status).toBe(200);
    await watchDue();
    await runInsightsJob(stack, QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    expect(await shortfalls()).toHaveLength(2);
    expect(await events()).toBe(2);

    // a threshold below what the projection reaches ends it; the next day's run finds nothing new
    expect((await tenant.api.put('/v2/personal-config', { cash_flow_threshold: -200_000 })).status).toBe(200);
    await watchDue();
    await runInsightsJob(stack, QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    expect((await forecastOf(`end_date=${END}`)).threshold).toBe(-200_000);
    expect(
      (await stack.sql('select short from insights.cash_flow_alerts where account_id = $1', [account]))[0],
    ).toEqual({
      short: false,
    });
    expect(await shortfalls()).toHaveLength(2);
  });

  it('when a company forecasts, then each day says its net by cost center, a split entry by its parts', async () => {
    const company = await stack.companyClient(tenant.userId);
    const companyAccount = await newAccount(company.api, 1_000_000, 'Empresa');
    const center = async (name: string) => (await company.api.post('/v2/business/cost-centers', { name })).body.id;
    const [shop, office] = [await center('Loja'), await center('Escritório')];
    const supplier = (
      await post(
        '/v1/transactions',
        {
          amount: 90_001,
          date: '2030-06-11',
          is_expense: true,
          title: 'Fornecedor',
          account_id: companyAccount,
          paid: false,
          cost_center_id: shop,
        },
        company.api,
      )
    ).id;
    await post(
      '/v1/transactions',
      {
        amount: 50_000,
        date: '2030-06-12',
        is_expense: false,
        title: 'Venda',
        account_id: companyAccount,
        paid: false,
        cost_center_id: shop,
      },
      company.api,
    );
    const split = await company.api.put(`/v1/transactions/${supplier}/splits`, {
      parts: [
        { amount: 60_001, cost_center_id: shop },
        { amount: 30_000, cost_center_id: office },
      ],
    });
    expect(split.status).toBe(200);
    const forecast = (await company.api.get('/v1/reports/cash-flow?end_date=2030-06-12')).body;
    const byDay = Object.fromEntries(
      forecast.days.map((day: { date: string; cost_centers: unknown[] }) => [day.date, day.cost_centers]),
    );
    const sorted = [shop, office].sort();
    const row = (id: string, net: number, cumulative: number) => ({ cost_center_id: id, net, cumulative });
    const of = (values: Record<string, [number, number]>) => sorted.map((id) => row(id, ...values[id]));
    expect(byDay['2030-06-10']).toEqual([]);
    expect(byDay['2030-06-11']).toEqual(of({ [shop]: [-60_001, -60_001], [office]: [-30_000, -30_000] }));
    expect(byDay['2030-06-12']).toEqual(of({ [shop]: [50_000, -10_001], [office]: [0, -30_000] }));
    expect(forecast.days.at(-1).total_balance).toBe(1_000_000 - 90_001 + 50_000);
  });
});
