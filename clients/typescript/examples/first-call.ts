// The README example: node clients/typescript/examples/first-call.ts (FINANCE_URL, FINANCE_KEY, FINANCE_SECRET).
import { createFinanceClient, type Schema } from '@finance/client';

const api = createFinanceClient({
  baseUrl: process.env.FINANCE_URL ?? 'http://localhost:8080',
  keyId: process.env.FINANCE_KEY ?? 'fk_…', // the `token` create-key printed
  secret: process.env.FINANCE_SECRET ?? '…',
});

const created = await api.POST('/v1/accounts', {
  body: { name: 'Conta corrente', logo: '341', balance: 150000 },
});
if (created.error) throw new Error(`${created.response.status}: ${created.error.message}`);
const account: Schema<'Account'> = created.data;
console.log('created', account.id, account.name, account.balance);

const expense = await api.POST('/v1/transactions', {
  body: { account_id: account.id, amount: 4590, date: '2026-03-10', title: 'Padaria', is_expense: true, paid: true },
});
if (expense.error) throw new Error(expense.error.message);

const { data: page } = await api.GET('/v1/transactions', { params: { query: { limit: 10 } } });
for (const transaction of page?.data ?? []) console.log(transaction.date, transaction.title, transaction.amount);

const missing = await api.GET('/v1/accounts/{id}', {
  params: { path: { id: '0194b1c2-7d3e-7a01-8f00-0000000000a1' } },
});
console.log('unknown id →', missing.response.status, missing.error?.message);
