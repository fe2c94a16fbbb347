import { addMonthsClamped, endOfMonth, startOfMonth, todayUtc } from '@finance/shared/calendar';
import { buildCustomers, CARLA_CPF } from '../../../../sandbox/src/customers.ts';
import { amountOf } from '../../../../sandbox/src/money.ts';
import { ANA_CPF, connectSandbox, syncedImport } from '../../../../test/support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';

/** The sandbox's data, built around one fixed day so the bank's truth here and the sandbox's are the same. */
const TODAY = todayUtc();
const cents = (money: { amount: string | number }) => Math.round(Number(money.amount) * 100);
const utcDay = (dateTime: string) => dateTime.slice(0, 10);

/**
 * After connecting Banco Sandbox, what the API shows is what the bank says, counted once: bills it reports paid
 * are paid, the account debits that paid them are those bills' payments, card spending counts once, the card's
 * available limit is the bank's, money moved to the customer's own account or an investment is a transfer, an id
 * repeated for two entries keeps both, and a second sync creates nothing.
 */
describe('Open Finance: one picture of the money after connecting Banco Sandbox', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let connection: string;
  const ana = buildCustomers(TODAY).find((customer) => customer.cpf === ANA_CPF)!;
  const [bankAccount] = ana.accounts;
  const [bankCard] = ana.cards;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: { today: TODAY } });
    tenant = await stack.tenant();
    connection = (await connectSandbox(stack.url, tenant.api)).id;
    const { job } = await syncedImport(tenant.api, connection);
    expect(job).toMatchObject({ state: 'completed', error: null });
  });
  afterAll(() => stack?.stop());

  const transactions = async (query: string) => {
    const all: Array<Record<string, any>> = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<Record<string, any>>; next_cursor: string | null } = (
        await tenant.api.get(`/v1/transactions?limit=500&${query}${cursor ? `&cursor=${cursor}` : ''}`)
      ).body;
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  };
  const card = async () => (await tenant.api.get('/v1/credit-cards')).body.data[0];
  const account = async () => (await tenant.api.get('/v1/accounts')).body.data[0];

  it('when the bank reports each past bill paid, then none is overdue and each shows what was paid', async () => {
    const { id } = await card();
    for (const bill of bankCard.bills) {
      const shown = (await tenant.api.get(`/v2/bills/show-by-card/${id}?date=${bill.dueDate}`)).body.bill;
      const paid = bill.dueDate < TODAY ? bill.totalCents : 0;
      expect([bill.dueDate, shown.status, shown.value, shown.paid]).toEqual([
        bill.dueDate,
        paid ? 'PAID' : expect.any(String),
        bill.totalCents,
        paid,
      ]);
    }
  });

  it('when the account paid the bills, then every such debit is its bill’s payment, counted once', async () => {
    const { id } = await account();
    const payments = (await transactions(`account_id=${id}`)).filter(
      (tx) => tx.title === 'PAGAMENTO FATURA CARTAO SANDBOX',
    );
    const expected = bankAccount.transactions.filter((tx) => tx.transactionName === 'PAGAMENTO FATURA CARTAO SANDBOX');
    expect(payments).toHaveLength(expected.length);
    for (const payment of payments)
      expect(payment).toMatchObject({ is_bill_payment: true, bill_id: expect.any(String) });
    // no payment stays on the card for a debit the account holds
    const onCard = (await transactions(`credit_card_id=${(await card()).id}`)).filter((tx) => tx.is_bill_payment);
    for (const held of onCard)
      expect(held.date.slice(0, 10) < bankAccount.transactions[0].transactionDateTime).toBe(true);
  });

  it('when a month is summed, then card spending counts once: purchases in, bill payments, transfers and investments out', async () => {
    const month = startOfMonth(addMonthsClamped(TODAY, -3));
    const end = endOfMonth(month);
    const inMonth = (day: string) => day >= month && day <= end;
    const purchases = [...bankCard.bills.flatMap((bill) => bill.transactions), ...bankCard.open]
      .filter((tx) => inMonth(utcDay(tx.transactionDateTime)))
      .reduce((sum, tx) => sum + (tx.creditDebitType === 'DEBITO' ? cents(tx.brazilianAmount) : 0), 0);
    const ownMoney = /PAGAMENTO FATURA|MESMA TITULARIDADE|^APLICACAO|^RESGATE/;
    const debits = bankAccount.transactions
      .filter(
        (tx) =>
          tx.creditDebitType === 'DEBITO' &&
          tx.completedAuthorisedPaymentType === 'TRANSACAO_EFETIVADA' &&
          inMonth(utcDay(tx.transactionDateTime)) &&
          !ownMoney.test(tx.transactionName),
      )
      .reduce((sum, tx) => sum + cents(tx.transactionAmount), 0);
    const summary = (await tenant.api.get(`/v1/reports/summary?start_date=${month}&end_date=${end}`)).body;
    expect(summary.expenses).toBe(purchases + debits);
  });

  it('when the bank gives the card’s limits and bills, then its available limit and its days are the bank’s', async () => {
    const used = bankCard.open.reduce(
      (sum, tx) => sum + (tx.creditDebitType === 'DEBITO' ? 1 : -1) * cents(tx.brazilianAmount),
      0,
    );
    expect(await card()).toMatchObject({
      limit: bankCard.limitCents,
      available_limit: bankCard.limitCents - used,
      closing_date: String(bankCard.closingDay),
      expiring_date: String(bankCard.dueDay),
      needs_closing_date_review: false,
    });
  });

  it('when money went to the customer’s own account elsewhere or into and out of an investment, then it is a transfer, not spending or income', async () => {
    const { id } = await account();
    const listed = await transactions(`account_id=${id}`);
    const own = listed.filter((tx) => /MESMA TITULARIDADE|^APLICACAO|^RESGATE/.test(tx.title));
    expect(own.map((tx) => tx.title).sort()).toEqual(
      bankAccount.transactions
        .filter((tx) => /MESMA TITULARIDADE|^APLICACAO|^RESGATE/.test(tx.transactionName))
        .map((tx) => tx.transactionName)
        .sort(),
    );
    for (const tx of own) expect(tx).toMatchObject({ type: 'TRANSFER' });
  });

  it('when the bank gives one id to two fees and refunds a card purchase, then both fees are there and the refund is a credit', async () => {
    const { id } = await account();
    const fees = (await transactions(`account_id=${id}`)).filter((tx) => /^TARIFA (PIX AGENDADO|SMS)$/.test(tx.title));
    expect(fees.map((tx) => tx.amount).sort()).toEqual([26, 50]);
    const refund = (await transactions(`credit_card_id=${(await card()).id}`)).find((tx) =>
      tx.title.startsWith('ESTORNO'),
    );
    expect(refund).toMatchObject({ is_expense: false, amount: 3990, bill_id: expect.any(String) });
  });

  it('when it syncs again, then nothing is created and the picture stays', async () => {
    const before = (await tenant.api.get(`/v1/open-banking/connections/${connection}`)).body.last_import_job_id;
    expect((await tenant.api.post(`/v1/open-banking/connections/${connection}/sync`)).status).toBe(202);
    const { job } = await syncedImport(tenant.api, connection, before);
    expect(job.result.transactions).toMatchObject({ created: 0 });
    const { id } = await account();
    expect(
      (await transactions(`account_id=${id}`)).filter(
        (tx) => tx.title === 'PAGAMENTO FATURA CARTAO SANDBOX' && !tx.is_bill_payment,
      ),
    ).toEqual([]);
  });

  it('when a customer’s list runs past 200 pages, then every entry is read', async () => {
    const carla = await stack.tenant();
    const { id } = await connectSandbox(stack.url, carla.api, { cpf: CARLA_CPF });
    const { job } = await syncedImport(carla.api, id);
    const [bank] = buildCustomers(TODAY).find((customer) => customer.cpf === CARLA_CPF)!.accounts;
    expect(job.result.transactions).toMatchObject({ received: bank.transactions.length });
    const [{ count, total }] = await stack.sql<{ count: string; total: string }>(
      `select count(*), sum(case when is_expense then -amount else amount end)::text as total
       from ledger.transactions where connection_id = $1 and deleted_at is null`,
      [id],
    );
    expect(Number(count)).toBe(bank.transactions.length);
    const bankTotal = bank.transactions.reduce(
      (sum, tx) => sum + (tx.creditDebitType === 'CREDITO' ? 1 : -1) * cents(tx.transactionAmount),
      0,
    );
    expect(total).toBe(String(bankTotal));
    expect(amountOf(bankTotal)).toBeTruthy();
  }, 120_000);
});
