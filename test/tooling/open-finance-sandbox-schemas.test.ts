import { randomUUID, type webcrypto } from 'node:crypto';
import { addDays, todayUtc } from '@finance/shared/calendar';
import type Joi from 'joi';
import { importJWK } from 'jose';
import * as oidc from 'openid-client';
import {
  accountSchema,
  accountTransactionSchema,
  billSchema,
  cardSchema,
  cardTransactionSchema,
  consentSchema,
  investmentBalanceSchema,
  investmentIdentificationSchema,
  investmentItemSchema,
  resourceSchema,
} from '../../services/ledger/src/data-access/open-finance/bank-schemas.ts';
import { PERMISSIONS } from '../../services/ledger/src/data-access/open-finance/open-finance-connector.ts';
import {
  documentAccount,
  documentAccountTransaction,
  documentBalances,
  documentBill,
  documentCard,
  documentCardTransaction,
  documentInvestmentItem,
  documentLimit,
  documentPage,
  documentResource,
  VERSION_HEADER,
} from '../support/open-finance-documents.ts';
import {
  ANA_CPF,
  authorizeInBrowser,
  SANDBOX_CLIENT_ID,
  type SandboxProcess,
  sandboxFor,
} from '../support/sandbox-bank.ts';

const REDIRECT = 'http://127.0.0.1:9/v1/open-banking/callback';
// the sandbox's days run from the test clock (TEST_NOW), as its data's do
const day = (offset: number) => addDays(todayUtc(), offset);

/**
 * Banco Sandbox's answers against the documents' own rules (`test/support/open-finance-documents.ts`: patterns,
 * enums, required fields, the `x-v` and interaction-id headers) and against the schemas the connector reads them
 * with, every page of every list, with small pages so that `links.next` and `meta.totalPages` are exercised; and the
 * security profile's refusals.
 */
describe('Banco Sandbox answers as the documents say', () => {
  let sandbox: SandboxProcess;
  let config: oidc.Configuration;
  let dataToken: string;
  let consentsToken: string;
  let consentId: string;

  beforeAll(async () => {
    const started = await sandboxFor(REDIRECT);
    sandbox = started.sandbox;
    const [client] = JSON.parse(started.ledgerEnv.OPEN_BANKING_CLIENTS);
    const key = {
      key: (await importJWK(client.signing_key, 'PS256')) as webcrypto.CryptoKey,
      kid: client.signing_key_id,
    };
    config = await oidc.discovery(
      new URL(`${sandbox.url}/.well-known/openid-configuration`),
      SANDBOX_CLIENT_ID,
      { token_endpoint_auth_method: 'private_key_jwt' },
      oidc.PrivateKeyJwt(key),
      { execute: [oidc.allowInsecureRequests] },
    );
    oidc.useJwtResponseMode(config);
    consentsToken = (await oidc.clientCredentialsGrant(config, { scope: 'consents' })).access_token;
    const created = await call('POST', '/open-banking/consents/v3/consents', consentsToken, {
      data: {
        loggedUser: { document: { identification: ANA_CPF, rel: 'CPF' } },
        permissions: PERMISSIONS,
        expirationDateTime: `${day(300)}T00:00:00Z`,
      },
    });
    expect(created.status).toBe(201);
    expect(consentSchema.validate(created.body, { allowUnknown: true }).error).toBeUndefined();
    consentId = created.body.data.consentId;
    const verifier = oidc.randomPKCECodeVerifier();
    const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
    const { searchParams } = await oidc.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: REDIRECT,
        scope: `openid consent:${consentId} accounts credit-cards-accounts resources bank-fixed-incomes credit-fixed-incomes funds treasure-titles variable-incomes`,
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      },
      key,
    );
    const url = await oidc.buildAuthorizationUrlWithPAR(config, searchParams);
    const callback = await authorizeInBrowser(url.href, REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.expires_in).toBeLessThanOrEqual(900);
    expect(tokens.claims()?.acr).toBe('urn:brasil:openbanking:loa2');
    dataToken = tokens.access_token;
  });
  afterAll(() => sandbox?.stop());

  async function call(method: string, path: string, token: string | null, body?: unknown, interaction = true) {
    const response = await fetch(path.startsWith('http') ? path : `${sandbox.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(interaction ? { 'x-fapi-interaction-id': randomUUID() } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as any, headers: response.headers };
  }

  /** Each record of the answer against the documents' schema and the connector's: both hold. */
  function holds(body: unknown, document: Joi.Schema, connector: Joi.Schema) {
    expect(document.validate(body, { allowUnknown: true }).error?.message).toBeUndefined();
    for (const item of (body as { data: unknown[] }).data)
      expect(connector.validate(item, { allowUnknown: true, convert: false }).error?.message).toBeUndefined();
  }

  /** Every page of a list (two records a page), each checked; the records of all pages. */
  async function everyPage(path: string, document: Joi.Schema, connector: Joi.Schema) {
    const records: Array<Record<string, any>> = [];
    let next: string | undefined = `${sandbox.url}${path}${path.includes('?') ? '&' : '?'}page-size=2`;
    let pages = 0;
    while (next) {
      const { status, body, headers } = await call('GET', next, dataToken);
      expect([next, status]).toEqual([next, 200]);
      expect(headers.get('x-v')).toMatch(VERSION_HEADER);
      holds(body, documentPage(document), connector);
      if (body.meta.totalPages !== undefined)
        expect(body.meta.totalPages).toBe(Math.max(1, Math.ceil(body.meta.totalRecords / 2)));
      records.push(...body.data);
      next = body.links.next;
      pages += 1;
    }
    return { records, pages };
  }

  it('when every list and record of the families is read, then each answer has the fields the connector reads', async () => {
    const resources = await everyPage('/open-banking/resources/v3/resources', documentResource, resourceSchema);
    expect(resources.pages).toBe(3);
    const accounts = await everyPage('/open-banking/accounts/v2/accounts', documentAccount, accountSchema);
    const history = `fromBookingDate=${day(-365)}&toBookingDate=${day(30)}`;
    for (const account of accounts.records) {
      const base = `/open-banking/accounts/v2/accounts/${account.accountId}`;
      const balances = await call('GET', `${base}/balances`, dataToken);
      expect(documentBalances.validate(balances.body, { allowUnknown: true }).error).toBeUndefined();
      expect(balances.headers.get('x-v')).toMatch(VERSION_HEADER);
      const entries = await everyPage(
        `${base}/transactions?${history}`,
        documentAccountTransaction,
        accountTransactionSchema,
      );
      expect(entries.records.length).toBeGreaterThan(90);
      const kinds = new Set(entries.records.map((tx) => `${tx.type}/${tx.completedAuthorisedPaymentType}`));
      for (const kind of [
        'PIX/TRANSACAO_EFETIVADA',
        'TED/TRANSACAO_EFETIVADA',
        'BOLETO/TRANSACAO_EFETIVADA',
        'FOLHA_PAGAMENTO/TRANSACAO_EFETIVADA',
        'BOLETO/LANCAMENTO_FUTURO',
        'PIX/TRANSACAO_PROCESSANDO',
        'RESGATE_APLIC_FINANCEIRA/TRANSACAO_EFETIVADA',
        'TARIFA_SERVICOS_AVULSOS/TRANSACAO_EFETIVADA',
      ])
        expect(kinds).toContain(kind);
      await everyPage(
        `${base}/transactions-current?fromBookingDate=${day(-6)}&toBookingDate=${day(0)}`,
        documentAccountTransaction,
        accountTransactionSchema,
      );
    }
    const cards = await everyPage('/open-banking/credit-cards-accounts/v2/accounts', documentCard, cardSchema);
    for (const card of cards.records) {
      const base = `/open-banking/credit-cards-accounts/v2/accounts/${card.creditCardAccountId}`;
      const limits = await call('GET', `${base}/limits`, dataToken);
      expect(documentPage(documentLimit).validate(limits.body, { allowUnknown: true }).error).toBeUndefined();
      const bills = await everyPage(`${base}/bills`, documentBill, billSchema);
      expect(bills.records).toHaveLength(12);
      // a bill's payments are in its `payments`, never among its entries, where PAGAMENTO is a purchase
      expect(bills.records.filter((bill) => bill.payments.length > 0).length).toBeGreaterThan(10);
      const parts: Array<Record<string, any>> = [];
      for (const bill of bills.records)
        parts.push(
          ...(
            await everyPage(`${base}/bills/${bill.billId}/transactions`, documentCardTransaction, cardTransactionSchema)
          ).records,
        );
      expect(parts.some((tx) => tx.amount && (tx.amount as { currency: string }).currency === 'USD')).toBe(true);
      expect(parts.filter((tx) => tx.chargeNumber === 6).map((tx) => tx.chargeIdentificator)).toEqual(
        expect.arrayContaining([1, 2, 3, 4]),
      );
      expect(new Set(parts.map((tx) => tx.transactionType))).toEqual(new Set(['PAGAMENTO', 'CASHBACK', 'ESTORNO']));
      const open = await everyPage(
        `${base}/transactions?fromTransactionDate=${day(-40)}&toTransactionDate=${day(0)}`,
        documentCardTransaction,
        cardTransactionSchema,
      );
      // what is not on a bill yet carries the documents' dummy day, what is on one its day (every day's data:
      // test/tooling/sandbox-card-calendar.unit.test.ts; on the closing day nothing is open yet)
      for (const tx of open.records) expect(tx.billPostDate === '0001-01-01').toBe(!tx.billId);
    }
    for (const family of [
      'bank-fixed-incomes',
      'credit-fixed-incomes',
      'funds',
      'treasure-titles',
      'variable-incomes',
    ]) {
      const positions = await everyPage(
        `/open-banking/${family}/v1/investments`,
        documentInvestmentItem,
        investmentItemSchema,
      );
      for (const position of positions.records) {
        const base = `/open-banking/${family}/v1/investments/${position.investmentId}`;
        expect(
          investmentIdentificationSchema.validate((await call('GET', base, dataToken)).body, { allowUnknown: true })
            .error,
        ).toBeUndefined();
        expect(
          investmentBalanceSchema.validate((await call('GET', `${base}/balances`, dataToken)).body, {
            allowUnknown: true,
          }).error,
        ).toBeUndefined();
      }
    }
  });

  it('when a call lacks the interaction id, a token, or asks beyond the documents’ windows, then the documented error body', async () => {
    const errorBody = {
      errors: [{ code: expect.any(String), title: expect.any(String), detail: expect.any(String) }],
      meta: expect.any(Object),
    };
    const missing = await call('GET', '/open-banking/accounts/v2/accounts', dataToken, undefined, false);
    expect([missing.status, missing.body]).toEqual([400, errorBody]);
    const anonymous = await call('GET', '/open-banking/accounts/v2/accounts', null);
    expect([anonymous.status, anonymous.body]).toEqual([401, errorBody]);
    // errors name their document's version too
    for (const answer of [missing, anonymous]) expect(answer.headers.get('x-v')).toBe('2.4.2');
    // the consents API takes a client_credentials token, not the customer's
    expect((await call('GET', `/open-banking/consents/v3/consents/${consentId}`, dataToken)).status).toBe(401);
    const tooOld = await call(
      'GET',
      `/open-banking/accounts/v2/accounts/ana-conta/transactions-current?fromBookingDate=${day(-30)}&toBookingDate=${day(0)}`,
      dataToken,
    );
    expect([tooOld.status, tooOld.body]).toEqual([422, errorBody]);
    const echoed = await fetch(`${sandbox.url}/open-banking/accounts/v2/accounts`, {
      headers: {
        authorization: `Bearer ${dataToken}`,
        'x-fapi-interaction-id': '4f1d6c0e-0b0a-4d6e-9d8f-3c2b1a0f9e8d',
      },
    });
    expect(echoed.headers.get('x-fapi-interaction-id')).toBe('4f1d6c0e-0b0a-4d6e-9d8f-3c2b1a0f9e8d');
  });

  it('when the authorization server is asked without PAR or a signed request object, then it refuses', async () => {
    const plain = new URL(config.serverMetadata().authorization_endpoint as string);
    plain.search = new URLSearchParams({
      client_id: SANDBOX_CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
    }).toString();
    const answer = await fetch(plain, { redirect: 'manual' });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    const location = answer.headers.get('location') ?? '';
    const text = location || (await answer.text());
    expect(text).toMatch(/invalid_request|request_uri|error/);
    expect(config.serverMetadata().require_pushed_authorization_requests).toBe(true);
    expect(config.serverMetadata().token_endpoint_auth_methods_supported).toContain('private_key_jwt');
  });

  it('when the consent is revoked, then its tokens stop working and revoking again is 422', async () => {
    expect((await call('DELETE', `/open-banking/consents/v3/consents/${consentId}`, consentsToken)).status).toBe(204);
    expect((await call('GET', '/open-banking/accounts/v2/accounts', dataToken)).status).toBe(401);
    const again = await call('DELETE', `/open-banking/consents/v3/consents/${consentId}`, consentsToken);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].code).toBe('CONSENTIMENTO_EM_STATUS_REJEITADO');
    const read = await call('GET', `/open-banking/consents/v3/consents/${consentId}`, consentsToken);
    expect(read.body.data).toMatchObject({
      status: 'REJECTED',
      rejection: { rejectedBy: 'TPP', reason: { code: 'CUSTOMER_MANUALLY_REVOKED' } },
    });
  });
});
