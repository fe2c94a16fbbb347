import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

/**
 * A local server speaking the Pluggy API endpoints `pluggy-sdk` calls (POST /auth, POST /connect_token,
 * GET|DELETE /items/{id}, GET /accounts, GET /v2/transactions with its cursor, GET /bills, GET /investments),
 * with the documented shapes (the SDK's own types) and one test customer. Verified against those shapes, not
 * the live service. `itemFor(connectToken)` is what the Pluggy Connect widget does in a browser.
 */
export class PluggyServer {
  url = '';
  readonly calls: string[] = [];
  private server: Server | null = null;
  private readonly tokens = new Map<string, { clientUserId: string | null; webhookUrl: string | null }>();
  private readonly items = new Map<string, { clientUserId: string | null }>();
  private readonly apiKeys = new Set<string>();
  /** Transactions added to an account beyond its fixed ones, by account id. */
  private readonly added = new Map<string, Array<ReturnType<typeof transaction>>>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The widget: the customer logs in at their bank through Pluggy Connect, which creates the item. */
  itemFor(connectToken: string): string {
    const token = this.tokens.get(connectToken);
    if (!token) throw new Error('unknown connect token');
    const id = randomUUID();
    this.items.set(id, { clientUserId: token.clientUserId });
    return id;
  }

  /** An item made by someone else's widget (another clientUserId). */
  foreignItem(): string {
    const id = randomUUID();
    this.items.set(id, { clientUserId: randomUUID() });
    return id;
  }

  /** The customer removes the item at Pluggy. */
  removeItem(id: string): void {
    this.items.delete(id);
  }

  /** Another transaction of the item's bank account (fields as Pluggy's `Transaction`), listed after the fixed ones. */
  addBankTransaction(itemId: string, id: string, fields: Record<string, unknown>): void {
    const accountId = `${itemId}-bank`;
    this.added.set(accountId, [...(this.added.get(accountId) ?? []), transaction(accountId, id, fields)]);
  }

  hasItem(id: string): boolean {
    return this.items.has(id);
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const url = new URL(req.url ?? '/', this.url);
    this.calls.push(`${req.method} ${url.pathname}`);
    if (req.method === 'POST' && url.pathname === '/auth') {
      if (!body?.clientId || !body?.clientSecret) return this.send(res, 401, { code: 401, message: 'Unauthorized' });
      const apiKey = await new SignJWT({ clientId: body.clientId })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('2h')
        .sign(new TextEncoder().encode('pluggy-test-server'));
      this.apiKeys.add(apiKey);
      return this.send(res, 200, { apiKey });
    }
    if (!this.apiKeys.has(String(req.headers['x-api-key'])))
      return this.send(res, 403, { code: 403, message: 'Forbidden' });
    if (req.method === 'POST' && url.pathname === '/connect_token') {
      const accessToken = `connect-${randomUUID()}`;
      this.tokens.set(accessToken, {
        clientUserId: body?.options?.clientUserId ?? null,
        webhookUrl: body?.options?.webhookUrl ?? null,
      });
      return this.send(res, 200, { accessToken });
    }
    const itemPath = /^\/items\/([\w-]+)$/.exec(url.pathname);
    if (itemPath) {
      const item = this.items.get(itemPath[1]);
      if (!item) return this.send(res, 404, { code: 404, message: 'Item not found' });
      if (req.method === 'DELETE') {
        this.items.delete(itemPath[1]);
        return this.send(res, 200, {});
      }
      return this.send(res, 200, itemOf(itemPath[1], item.clientUserId));
    }
    const itemId = url.searchParams.get('itemId');
    const accountId = url.searchParams.get('accountId');
    if (url.pathname === '/accounts' && itemId && this.items.has(itemId))
      return this.send(res, 200, page(accountsOf(itemId)));
    if (url.pathname === '/investments' && itemId && this.items.has(itemId))
      return this.send(res, 200, page(investments(itemId)));
    if (url.pathname === '/bills' && accountId)
      return this.send(res, 200, page(accountId.endsWith('-card') ? bills(accountId) : []));
    if (url.pathname === '/v2/transactions' && accountId) {
      // a cursor page of 10: `next` names the last id given
      const all = [...transactionsOf(accountId), ...(this.added.get(accountId) ?? [])];
      const after = url.searchParams.get('after');
      const start = after ? all.findIndex((tx) => tx.id === after) + 1 : 0;
      const results = all.slice(start, start + 10);
      const more = start + 10 < all.length;
      return this.send(res, 200, {
        results,
        next: more ? `/v2/transactions?accountId=${accountId}&after=${results.at(-1)?.id}` : null,
      });
    }
    this.send(res, 404, { code: 404, message: 'Not found' });
  }
}

const page = <T>(results: T[]) => ({ results, page: 1, total: results.length, totalPages: 1 });
const day = (offset: number, hour = 15) => {
  const date = new Date(Date.now() + offset * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};
const month = (offset: number, dayOfMonth: number) => {
  const date = new Date();
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, dayOfMonth, 12)).toISOString();
};

function itemOf(id: string, clientUserId: string | null) {
  const at = new Date().toISOString();
  return {
    id,
    connector: {
      id: 201,
      name: 'Banco Pluggy Teste',
      institutionUrl: 'https://example.com',
      imageUrl: '',
      primaryColor: '000000',
      type: 'PERSONAL_BANK',
      country: 'BR',
    },
    status: 'UPDATED',
    statusDetail: null,
    error: null,
    executionStatus: 'SUCCESS',
    createdAt: at,
    updatedAt: at,
    lastUpdatedAt: at,
    parameter: null,
    webhookUrl: null,
    clientUserId,
    userAction: null,
    consecutiveFailedLoginAttempts: 0,
    nextAutoSyncAt: null,
    consentExpiresAt: null,
  };
}

function accountsOf(itemId: string) {
  const base = { itemId, owner: 'Ana Pluggy', taxNumber: '76109277673', currencyCode: 'BRL', marketingName: null };
  return [
    {
      ...base,
      id: `${itemId}-bank`,
      type: 'BANK',
      subtype: 'CHECKING_ACCOUNT',
      number: '0001/12345-0',
      name: 'Conta Corrente',
      balance: 3210.55,
      bankData: { transferNumber: '0001/12345-0', closingBalance: 3210.55, automaticallyInvestedBalance: 0 },
      creditData: null,
    },
    {
      ...base,
      id: `${itemId}-card`,
      type: 'CREDIT',
      subtype: 'CREDIT_CARD',
      number: '4453',
      name: 'Pluggy Gold',
      balance: 1530.4,
      bankData: null,
      creditData: {
        level: 'GOLD',
        brand: 'VISA',
        balanceCloseDate: month(0, 3),
        balanceDueDate: month(0, 10),
        availableCreditLimit: 8469.6,
        creditLimit: 10000,
        isLimitFlexible: false,
        minimumPayment: 200,
      },
    },
  ];
}

const transaction = (accountId: string, id: string, fields: Record<string, unknown>) => ({
  id: `${accountId}-${id}`,
  accountId,
  description: 'Transação',
  descriptionRaw: null,
  currencyCode: 'BRL',
  amountInAccountCurrency: null,
  balance: 0,
  category: null,
  categoryId: null,
  providerCode: null,
  status: 'POSTED',
  operationType: null,
  operationTypeAdditionalInfo: null,
  providerId: null,
  creditCardMetadata: null,
  createdAt: day(0),
  updatedAt: day(0),
  ...fields,
});

function transactionsOf(accountId: string) {
  if (accountId.endsWith('-bank')) {
    return [
      transaction(accountId, 'salario', {
        date: day(-20),
        description: 'SALARIO',
        type: 'CREDIT',
        amount: 5000,
        operationType: 'TED',
      }),
      transaction(accountId, 'centavos', {
        date: day(-10),
        description: 'PIX CENTAVOS',
        type: 'DEBIT',
        amount: -0.1,
        operationType: 'PIX',
      }),
      transaction(accountId, 'grande', {
        date: day(-9),
        description: 'TED IMOVEL',
        type: 'CREDIT',
        amount: 1234567.89,
        operationType: 'TED',
      }),
      transaction(accountId, 'mercado', {
        date: day(-5),
        description: 'PIX MERCADO',
        type: 'DEBIT',
        amount: -123.45,
        operationType: 'PIX',
        merchant: { name: 'Mercado Bom', businessName: 'MERCADO BOM LTDA', cnpj: '23.456.789/0001-06' },
      }),
      transaction(accountId, 'noite', {
        date: day(-3, 2),
        description: 'RESTAURANTE NOITE',
        type: 'DEBIT',
        amount: -89.9,
        operationType: 'CARTAO',
      }),
      // the card's previous bill, paid from this account; a Pix to the owner's own account elsewhere
      transaction(accountId, 'fatura', {
        date: month(-1, 10),
        description: 'PAGAMENTO FATURA PLUGGY GOLD',
        type: 'DEBIT',
        amount: -300,
        operationType: 'BOLETO',
      }),
      transaction(accountId, 'propria', {
        date: day(-7),
        description: 'PIX ENVIADO',
        type: 'DEBIT',
        amount: -150,
        operationType: 'PIX',
        paymentData: { receiver: { documentNumber: { type: 'CPF', value: '761.092.776-73' }, name: 'Ana Pluggy' } },
      }),
      transaction(accountId, 'pendente', {
        date: day(-1),
        description: 'PIX PROCESSANDO',
        type: 'DEBIT',
        amount: -20,
        status: 'PENDING',
        operationType: 'PIX',
      }),
      ...Array.from({ length: 14 }, (_, i) =>
        transaction(accountId, `padaria-${i}`, {
          date: day(-60 + i * 3),
          description: `PADARIA ${i}`,
          type: 'DEBIT',
          amount: -(10 + i),
          operationType: 'PIX',
        }),
      ),
    ];
  }
  const billId = `${accountId}-bill-1`;
  return [
    ...[1, 2].map((n) =>
      transaction(accountId, `notebook-${n}`, {
        date: day(-40 + (n - 1) * 30),
        description: 'NOTEBOOK LOJA',
        type: 'DEBIT',
        amount: 500,
        creditCardMetadata: { installmentNumber: n, totalInstallments: 6, totalAmount: 3000, billId },
      }),
    ),
    transaction(accountId, 'livro', {
      date: month(-1, 1),
      description: 'LIVRARIA',
      type: 'DEBIT',
      amount: 300,
      creditCardMetadata: { billId: `${accountId}-bill-0` },
    }),
    transaction(accountId, 'amazon', {
      date: day(-15),
      description: 'AMAZON.COM US',
      type: 'DEBIT',
      amount: 50,
      currencyCode: 'USD',
      amountInAccountCurrency: 275.4,
      creditCardMetadata: { billId },
    }),
  ];
}

function bills(accountId: string) {
  return [
    {
      id: `${accountId}-bill-0`,
      dueDate: month(-1, 10),
      billClosingDate: month(-1, 3),
      totalAmount: 300,
      totalAmountCurrencyCode: 'BRL',
      minimumPaymentAmount: 45,
      allowsInstallments: true,
      financeCharges: [],
      payments: [
        {
          id: `${accountId}-bill-0-payment`,
          valueType: 'FULL_PAYMENT',
          paymentDate: month(-1, 10),
          paymentMode: 'DEBIT_ACCOUNT',
          amount: 300,
          currencyCode: 'BRL',
        },
      ],
      createdAt: day(0),
      updatedAt: day(0),
    },
    {
      id: `${accountId}-bill-1`,
      dueDate: month(0, 10),
      billClosingDate: month(0, 3),
      totalAmount: 1275.4,
      totalAmountCurrencyCode: 'BRL',
      minimumPaymentAmount: 200,
      allowsInstallments: true,
      financeCharges: [],
      payments: [],
      createdAt: day(0),
      updatedAt: day(0),
    },
  ];
}

function investments(itemId: string) {
  return [
    {
      id: `${itemId}-cdb`,
      code: null,
      issuerCNPJ: null,
      number: null,
      isin: null,
      itemId,
      type: 'FIXED_INCOME',
      subtype: 'CDB',
      name: 'CDB Pluggy 100% CDI',
      currencyCode: 'BRL',
      date: day(0),
      value: null,
      quantity: null,
      taxes: null,
      taxes2: null,
      balance: 10512.37,
      amount: 10512.37,
      amountWithdrawal: null,
      amountProfit: 512.37,
      amountOriginal: 10000,
      dueDate: null,
      issuer: null,
      issueDate: null,
      purchaseDate: null,
      rate: null,
      rateType: null,
      fixedAnnualRate: null,
      lastMonthRate: null,
      annualRate: null,
      lastTwelveMonthsRate: null,
      status: 'ACTIVE',
      transactions: [],
    },
  ];
}
