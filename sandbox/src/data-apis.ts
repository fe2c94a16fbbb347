import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type Provider from 'oidc-provider';
import { sandboxNow } from './clock.ts';
import type { Consent, ConsentStore } from './consents.ts';
import {
  type Account,
  BANK,
  balanceCents,
  type Card,
  type Customer,
  type Investment,
  type InvestmentFamily,
  positionCents,
} from './customers.ts';
import { amountOf, brl } from './money.ts';
import { sendError, sendOne, sendPage } from './responses.ts';

interface Authorised {
  consent: Consent;
  customer: Customer;
}

const FAPI_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** An entry's day, zero-padded (institutions send `2024-3-5T…` too), to compare with a window's days. */
const dayOf = (dateTime: string) =>
  dateTime
    .slice(0, dateTime.indexOf('T'))
    .split('-')
    .map((part, i) => (i === 0 ? part : part.padStart(2, '0')))
    .join('-');
const authorisedOf = (res: Response) => res.locals.authorised as Authorised;

/** Every FAPI call carries `x-fapi-interaction-id` (a UUID), echoed on the answer. */
export function requireInteractionId(req: Request, res: Response, next: NextFunction) {
  const id = req.header('x-fapi-interaction-id');
  if (!id || !FAPI_ID.test(id)) {
    sendError(res, 400, 'PARAMETRO_INVALIDO', 'Cabeçalho x-fapi-interaction-id ausente ou inválido');
    return;
  }
  res.setHeader('x-fapi-interaction-id', id);
  next();
}

export function bearerOf(req: Request): string | null {
  const header = req.header('authorization') ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : null;
}

/**
 * The data APIs accept an access token of the authorization code flow whose scope holds the family and a
 * `consent:{consentId}` of an AUTHORISED consent with the permission the endpoint needs.
 */
function requireConsent(
  provider: Provider,
  consents: ConsentStore,
  customers: () => Customer[],
  scope: string,
  permission: string,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const value = bearerOf(req);
    const token = value ? await provider.AccessToken.find(value) : undefined;
    if (!token || token.isExpired)
      return sendError(res, 401, 'UNAUTHORIZED', 'Token de acesso ausente, inválido ou expirado');
    const scopes = (token.scope ?? '').split(' ');
    const consentId = scopes.find((s: string) => s.startsWith('consent:'))?.slice('consent:'.length);
    const consent = consentId ? consents.get(consentId) : undefined;
    if (!consent || consent.clientId !== token.clientId || consent.status !== 'AUTHORISED') {
      return sendError(res, 401, 'UNAUTHORIZED', 'O consentimento deste token não está autorizado');
    }
    if (!scopes.includes(scope) || !consent.permissions.includes(permission)) {
      return sendError(res, 403, 'FORBIDDEN', `O consentimento não concede ${permission}`);
    }
    const customer = customers().find((c) => c.cpf === consent.cpf);
    if (!customer) return sendError(res, 401, 'UNAUTHORIZED', 'Cliente do consentimento desconhecido');
    res.locals.authorised = { consent, customer } satisfies Authorised;
    next();
  };
}

/**
 * `from`/`to` query days (default today), at most `maxDays` apart and no earlier than `earliest` days ago, nor
 * later than `latest` days ahead: the history reaches 12 months back (and scheduled entries ahead); the current
 * entries, D-6 to today.
 */
function window(
  req: Request,
  res: Response,
  names: [string, string],
  today: string,
  limits: { maxDays: number; earliest: number; latest: number },
) {
  const from = String(req.query[names[0]] ?? today);
  const to = String(req.query[names[1]] ?? today);
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
  const span = days(from, to);
  if (
    !DAY.test(from) ||
    !DAY.test(to) ||
    Number.isNaN(span) ||
    span < 0 ||
    span > limits.maxDays ||
    days(from, today) > limits.earliest ||
    days(today, to) > limits.latest
  ) {
    sendError(
      res,
      422,
      'PARAMETRO_INVALIDO',
      `${names[0]} e ${names[1]} fora do período permitido (${limits.earliest} dias atrás, ${limits.latest} à frente)`,
    );
    return null;
  }
  return { from, to };
}

const HISTORY = { maxDays: 400, earliest: 366, latest: 366 };
const CURRENT = { maxDays: 6, earliest: 6, latest: 0 };

const accountView = (account: Account) => ({
  brandName: BANK.brandName,
  companyCnpj: BANK.companyCnpj,
  type: account.type,
  compeCode: BANK.compeCode,
  branchCode: account.branchCode,
  number: account.number,
  checkDigit: account.checkDigit,
  accountId: account.accountId,
});

const cardView = (card: Card) => ({
  creditCardAccountId: card.creditCardAccountId,
  brandName: BANK.brandName,
  companyCnpj: BANK.companyCnpj,
  name: card.name,
  productType: card.productType,
  creditCardNetwork: card.creditCardNetwork,
});

function accountsRouter(deps: ApiDeps): Router {
  const router = express.Router();
  const guard = (permission: string) =>
    requireConsent(deps.provider, deps.consents, deps.customers, 'accounts', permission);
  const find = (res: Response, id: string) => {
    const account = authorisedOf(res).customer.accounts.find((a) => a.accountId === id);
    if (!account) sendError(res, 404, 'NAO_ENCONTRADO', 'Conta não encontrada para este consentimento');
    return account;
  };
  router.get('/accounts', guard('ACCOUNTS_READ'), (req, res) =>
    sendPage(req, res, deps.base, authorisedOf(res).customer.accounts.map(accountView)),
  );
  router.get('/accounts/:accountId', guard('ACCOUNTS_READ'), (req, res) => {
    const account = find(res, String(req.params.accountId));
    if (account) sendOne(req, res, deps.base, { ...accountView(account), subtype: account.subtype, currency: 'BRL' });
  });
  router.get('/accounts/:accountId/balances', guard('ACCOUNTS_BALANCES_READ'), (req, res) => {
    const account = find(res, String(req.params.accountId));
    if (!account) return;
    sendOne(req, res, deps.base, {
      availableAmount: brl(balanceCents(account)),
      blockedAmount: brl(0),
      automaticallyInvestedAmount: brl(0),
      updateDateTime: `${new Date(sandboxNow()).toISOString().slice(0, 19)}Z`,
    });
  });
  const transactions = (limits: typeof HISTORY) => (req: Request, res: Response) => {
    const account = find(res, String(req.params.accountId));
    if (!account) return;
    const range = window(req, res, ['fromBookingDate', 'toBookingDate'], deps.today(), limits);
    if (!range) return;
    const direction = req.query.creditDebitIndicator;
    const rows = account.transactions.filter((tx) => {
      const day = dayOf(tx.transactionDateTime);
      return day >= range.from && day <= range.to && (direction === undefined || tx.creditDebitType === direction);
    });
    sendPage(req, res, deps.base, rows, { totals: false });
  };
  // the documents: up to 12 months for the history, 7 days (D-6) for the current entries
  router.get('/accounts/:accountId/transactions', guard('ACCOUNTS_TRANSACTIONS_READ'), transactions(HISTORY));
  router.get('/accounts/:accountId/transactions-current', guard('ACCOUNTS_TRANSACTIONS_READ'), transactions(CURRENT));
  return router;
}

function creditCardsRouter(deps: ApiDeps): Router {
  const router = express.Router();
  const guard = (permission: string) =>
    requireConsent(deps.provider, deps.consents, deps.customers, 'credit-cards-accounts', permission);
  const find = (res: Response, id: string) => {
    const card = authorisedOf(res).customer.cards.find((c) => c.creditCardAccountId === id);
    if (!card) sendError(res, 404, 'NAO_ENCONTRADO', 'Cartão não encontrado para este consentimento');
    return card;
  };
  router.get('/accounts', guard('CREDIT_CARDS_ACCOUNTS_READ'), (req, res) =>
    sendPage(req, res, deps.base, authorisedOf(res).customer.cards.map(cardView)),
  );
  router.get('/accounts/:id', guard('CREDIT_CARDS_ACCOUNTS_READ'), (req, res) => {
    const card = find(res, String(req.params.id));
    if (!card) return;
    sendOne(req, res, deps.base, {
      name: card.name,
      productType: card.productType,
      creditCardNetwork: card.creditCardNetwork,
      paymentMethod: [{ identificationNumber: card.identificationNumber, isMultipleCreditCard: false }],
    });
  });
  router.get('/accounts/:id/limits', guard('CREDIT_CARDS_ACCOUNTS_LIMITS_READ'), (req, res) => {
    const card = find(res, String(req.params.id));
    if (!card) return;
    const used = card.open.reduce(
      (sum, tx) =>
        sum + (tx.creditDebitType === 'DEBITO' ? 1 : -1) * Number(tx.brazilianAmount.amount.replace('.', '')),
      0,
    );
    sendPage(req, res, deps.base, [
      {
        creditLineLimitType: 'LIMITE_CREDITO_TOTAL',
        consolidationType: 'CONSOLIDADO',
        identificationNumber: card.identificationNumber,
        isLimitFlexible: false,
        limitAmount: brl(card.limitCents),
        usedAmount: brl(used),
        availableAmount: brl(card.limitCents - used),
      },
    ]);
  });
  router.get('/accounts/:id/bills', guard('CREDIT_CARDS_ACCOUNTS_BILLS_READ'), (req, res) => {
    const card = find(res, String(req.params.id));
    if (!card) return;
    const from = typeof req.query.fromDueDate === 'string' ? req.query.fromDueDate : '0000-00-00';
    const to = typeof req.query.toDueDate === 'string' ? req.query.toDueDate : '9999-99-99';
    const bills = card.bills
      .filter((bill) => bill.dueDate >= from && bill.dueDate <= to)
      .map((bill) => ({
        billId: bill.billId,
        dueDate: bill.dueDate,
        billTotalAmount: brl(bill.totalCents),
        billMinimumAmount: brl(Math.floor(bill.totalCents * 0.15)),
        isInstalment: false,
        payments:
          bill.dueDate < deps.today()
            ? [
                {
                  valueType: 'VALOR_PAGAMENTO_FATURA_REALIZADO',
                  paymentDate: bill.dueDate,
                  paymentMode: 'DEBITO_CONTA_CORRENTE',
                  ...brl(bill.totalCents),
                },
              ]
            : [],
      }));
    sendPage(req, res, deps.base, bills);
  });
  router.get(
    '/accounts/:id/bills/:billId/transactions',
    guard('CREDIT_CARDS_ACCOUNTS_BILLS_TRANSACTIONS_READ'),
    (req, res) => {
      const card = find(res, String(req.params.id));
      if (!card) return;
      const bill = card.bills.find((b) => b.billId === req.params.billId);
      if (!bill) return sendError(res, 404, 'NAO_ENCONTRADO', 'Fatura não encontrada');
      sendPage(req, res, deps.base, bill.transactions);
    },
  );
  const transactions = (limits: typeof HISTORY) => (req: Request, res: Response) => {
    const card = find(res, String(req.params.id));
    if (!card) return;
    const range = window(req, res, ['fromTransactionDate', 'toTransactionDate'], deps.today(), limits);
    if (!range) return;
    const rows = [...card.bills.flatMap((bill) => bill.transactions), ...card.open].filter((tx) => {
      const day = dayOf(tx.transactionDateTime);
      return day >= range.from && day <= range.to;
    });
    sendPage(req, res, deps.base, rows);
  };
  router.get('/accounts/:id/transactions', guard('CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ'), transactions(HISTORY));
  router.get(
    '/accounts/:id/transactions-current',
    guard('CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ'),
    transactions(CURRENT),
  );
  return router;
}

const PERMISSION_OF: Record<InvestmentFamily, string> = {
  'bank-fixed-incomes': 'BANK_FIXED_INCOMES_READ',
  'credit-fixed-incomes': 'CREDIT_FIXED_INCOMES_READ',
  funds: 'FUNDS_READ',
  'treasure-titles': 'TREASURE_TITLES_READ',
  'variable-incomes': 'VARIABLE_INCOMES_READ',
};

const price = (cents: number) => ({ amount: `${amountOf(cents)}000000`, currency: 'BRL' });

/** The list item, identification and balance of a position, each in its family's shape. */
function investmentViews(investment: Investment, today: string) {
  const gross = positionCents(investment, today);
  const tax = Math.floor((gross - investment.principalCents) * 0.15);
  const now = `${today}T12:00:00Z`;
  const zero = brl(0);
  switch (investment.family) {
    case 'bank-fixed-incomes':
      return {
        item: {
          brandName: BANK.brandName,
          companyCnpj: BANK.companyCnpj,
          investmentType: investment.kind,
          investmentId: investment.investmentId,
        },
        identification: {
          issuerInstitutionCnpjNumber: BANK.companyCnpj,
          isinCode: investment.isinCode,
          investmentType: investment.kind,
          remuneration: {
            postFixedIndexerPercentage: '1.100000',
            rateType: 'LINEAR',
            ratePeriodicity: 'ANUAL',
            calculation: 'DIAS_UTEIS',
            indexer: 'CDI',
          },
          issueUnitPrice: price(100000),
          dueDate: investment.dueDate,
          issueDate: investment.purchaseDate,
          purchaseDate: investment.purchaseDate,
          gracePeriodDate: investment.dueDate,
        },
        balance: {
          referenceDateTime: now,
          quantity: `${investment.principalCents / 100000}.00`,
          updatedUnitPrice: {
            amount: `${amountOf(Math.floor(gross / (investment.principalCents / 100000)))}`,
            currency: 'BRL',
          },
          grossAmount: brl(gross),
          netAmount: brl(gross - tax),
          incomeTax: brl(tax),
          financialTransactionTax: zero,
          blockedBalance: zero,
          purchaseUnitPrice: price(100000),
        },
      };
    case 'treasure-titles':
      return {
        item: { brandName: BANK.brandName, companyCnpj: BANK.companyCnpj, investmentId: investment.investmentId },
        identification: {
          isinCode: investment.isinCode,
          productName: investment.name,
          remuneration: { indexer: 'SELIC', ratePeriodicity: 'ANUAL', calculation: 'DIAS_UTEIS' },
          dueDate: investment.dueDate,
          purchaseDate: investment.purchaseDate,
          voucherPaymentIndicator: 'NAO',
        },
        balance: {
          referenceDateTime: now,
          updatedUnitPrice: price(Math.floor(gross / 2)),
          grossAmount: brl(gross),
          netAmount: brl(gross - tax),
          incomeTax: brl(tax),
          financialTransactionTax: zero,
          blockedBalance: zero,
          purchaseUnitPrice: price(investment.principalCents / 2),
          quantity: '2.00',
        },
      };
    case 'funds':
      return {
        item: {
          brandName: BANK.brandName,
          companyCnpj: BANK.companyCnpj,
          anbimaCategory: investment.kind,
          investmentId: investment.investmentId,
        },
        identification: {
          name: investment.name,
          cnpjNumber: '12345678000199',
          isinCode: investment.isinCode,
          anbimaCategory: investment.kind,
        },
        balance: {
          referenceDate: today,
          grossAmount: brl(gross),
          netAmount: brl(gross - tax),
          incomeTaxProvision: brl(tax),
          financialTransactionTaxProvision: zero,
          blockedAmount: zero,
          quotaQuantity: '1000.00',
          quotaGrossPriceValue: price(Math.floor(gross / 1000)),
        },
      };
    default:
      throw new Error(`the sandbox holds no ${investment.family} position`);
  }
}

function investmentsRouter(deps: ApiDeps, family: InvestmentFamily): Router {
  const router = express.Router();
  const guard = requireConsent(deps.provider, deps.consents, deps.customers, family, PERMISSION_OF[family]);
  const positions = (res: Response) => authorisedOf(res).customer.investments.filter((i) => i.family === family);
  router.get('/investments', guard, (req, res) =>
    sendPage(
      req,
      res,
      deps.base,
      positions(res).map((i) => investmentViews(i, deps.today()).item),
    ),
  );
  const one = (part: 'identification' | 'balance') => (req: Request, res: Response) => {
    const investment = positions(res).find((i) => i.investmentId === req.params.investmentId);
    if (!investment)
      return sendError(res, 404, 'NAO_ENCONTRADO', 'Investimento não encontrado para este consentimento');
    sendOne(req, res, deps.base, investmentViews(investment, deps.today())[part]);
  };
  router.get('/investments/:investmentId', guard, one('identification'));
  router.get('/investments/:investmentId/balances', guard, one('balance'));
  return router;
}

/** Which of the customer's resources a consent shares, as resources v3 lists them. */
function resourcesRouter(deps: ApiDeps): Router {
  const router = express.Router();
  router.get(
    '/resources',
    requireConsent(deps.provider, deps.consents, deps.customers, 'resources', 'RESOURCES_READ'),
    (req, res) => {
      const { consent, customer } = authorisedOf(res);
      const has = (permission: string) => consent.permissions.includes(permission);
      const type: Record<InvestmentFamily, string> = {
        'bank-fixed-incomes': 'BANK_FIXED_INCOME',
        'credit-fixed-incomes': 'CREDIT_FIXED_INCOME',
        funds: 'FUND',
        'treasure-titles': 'TREASURE_TITLE',
        'variable-incomes': 'VARIABLE_INCOME',
      };
      const resources = [
        ...(has('ACCOUNTS_READ') ? customer.accounts.map((a) => ({ resourceId: a.accountId, type: 'ACCOUNT' })) : []),
        ...(has('CREDIT_CARDS_ACCOUNTS_READ')
          ? customer.cards.map((c) => ({ resourceId: c.creditCardAccountId, type: 'CREDIT_CARD_ACCOUNT' }))
          : []),
        ...customer.investments
          .filter((i) => has(PERMISSION_OF[i.family]))
          .map((i) => ({ resourceId: i.investmentId, type: type[i.family] })),
      ].map((resource) => ({ ...resource, status: 'AVAILABLE' }));
      sendPage(req, res, deps.base, resources);
    },
  );
  return router;
}

export interface ApiDeps {
  provider: Provider;
  consents: ConsentStore;
  customers: () => Customer[];
  today: () => string;
  /** The public origin links are built on. */
  base: string;
}

/** The version of each family's document the sandbox serves: every answer names it in `x-v`. */
export const API_VERSIONS = {
  consents: '3.3.1',
  resources: '3.1.0',
  accounts: '2.4.2',
  'credit-cards-accounts': '2.3.1',
  'bank-fixed-incomes': '1.1.0',
  'credit-fixed-incomes': '1.1.0',
  funds: '1.1.0',
  'treasure-titles': '1.1.0',
  'variable-incomes': '1.3.0',
} as const;

/**
 * The headers the documents ask of every answer, errors included: `x-v` (the version of the family's document) and
 * the caller's `x-fapi-interaction-id` echoed.
 */
export function documentHeaders(req: Request, res: Response, next: NextFunction) {
  const family = req.path.split('/')[1] as keyof typeof API_VERSIONS;
  if (API_VERSIONS[family]) res.setHeader('x-v', API_VERSIONS[family]);
  const id = req.header('x-fapi-interaction-id');
  if (id && FAPI_ID.test(id)) res.setHeader('x-fapi-interaction-id', id);
  next();
}

/** The data APIs under `/open-banking`, each family at the base path of its document. */
export function dataApis(deps: ApiDeps): Router {
  const router = express.Router();
  router.use('/accounts/v2', accountsRouter(deps));
  router.use('/credit-cards-accounts/v2', creditCardsRouter(deps));
  router.use('/resources/v3', resourcesRouter(deps));
  for (const family of Object.keys(PERMISSION_OF) as InvestmentFamily[]) {
    router.use(`/${family}/v1`, investmentsRouter(deps, family));
  }
  return router;
}
