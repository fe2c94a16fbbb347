import type { webcrypto } from 'node:crypto';
import { addDays } from '@finance/shared/calendar';
import type Joi from 'joi';
import { importJWK } from 'jose';
import * as oidc from 'openid-client';
import {
  type BankAccountTransaction,
  type BankCardTransaction,
  type BankConnector,
  BankError,
  type BankSnapshot,
  type ConsentState,
  type SkippedRecord,
} from '../../domain/open-banking/bank-connector.ts';
import { INVESTMENT_FAMILIES, type Institution } from '../../domain/open-banking/institutions.ts';
import {
  accountSchema,
  accountTransactionSchema,
  balancesSchema,
  billSchema,
  cardSchema,
  cardTransactionSchema,
  consentSchema,
  investmentBalanceSchema,
  investmentIdentificationSchema,
  investmentItemSchema,
  limitSchema,
  resourceSchema,
} from './bank-schemas.ts';
import { allPages, callInstitution, eachPage, fapiFetch, type HttpOptions } from './institution-http.ts';

/** What the product reads: accounts, cards and investments with everything under them. */
export const PERMISSIONS = [
  'ACCOUNTS_READ',
  'ACCOUNTS_BALANCES_READ',
  'ACCOUNTS_TRANSACTIONS_READ',
  'CREDIT_CARDS_ACCOUNTS_READ',
  'CREDIT_CARDS_ACCOUNTS_BILLS_READ',
  'CREDIT_CARDS_ACCOUNTS_BILLS_TRANSACTIONS_READ',
  'CREDIT_CARDS_ACCOUNTS_LIMITS_READ',
  'CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ',
  'BANK_FIXED_INCOMES_READ',
  'CREDIT_FIXED_INCOMES_READ',
  'FUNDS_READ',
  'TREASURE_TITLES_READ',
  'VARIABLE_INCOMES_READ',
  'RESOURCES_READ',
];
const DATA_SCOPES = [
  'accounts',
  'credit-cards-accounts',
  'resources',
  'bank-fixed-incomes',
  'credit-fixed-incomes',
  'funds',
  'treasure-titles',
  'variable-incomes',
];
const LOA2 = 'urn:brasil:openbanking:loa2';
/** Scheduled entries up to this many days ahead are read with the history. */
const FORECAST_DAYS = 30;
/** transactions-current covers D-6 to today. */
const CURRENT_DAYS = 6;
const PAGE = 'page-size=1000';

export interface ConnectorOptions extends HttpOptions {
  /** Lets institutions be reached over plain HTTP (the sandbox on loopback); never in production. */
  allowHttp: boolean;
}

const consentPath = (institution: Institution) => {
  const base = institution.apis.consents;
  if (!base) throw new BankError('invalid', `${institution.name} não publica a API de consentimentos`);
  return `${base}/consents`;
};

/**
 * Open Finance Brasil, receiver side, with openid-client and jose: discovery, private_key_jwt client
 * authentication, client_credentials for the consents API, pushed authorization requests carrying a request
 * object signed with our key (PS256), PKCE (S256), nonce and state, authorization responses as signed JWTs
 * (JARM), the authorization code and refresh token grants for the data, mutual TLS where configured and a new
 * `x-fapi-interaction-id` on every call.
 */
export function openFinanceConnector(options: ConnectorOptions): BankConnector {
  const configs = new WeakMap<Institution, Promise<oidc.Configuration>>();
  const consentTokens = new WeakMap<Institution, { token: string; until: number }>();

  const signingKeyOf = async (institution: Institution) => ({
    key: (await importJWK(institution.client.signingKey, 'PS256')) as webcrypto.CryptoKey,
    kid: institution.client.keyId,
  });

  const configOf = (institution: Institution): Promise<oidc.Configuration> => {
    let config = configs.get(institution);
    if (!config) {
      config = (async () => {
        try {
          const found = await oidc.discovery(
            new URL(institution.discoveryUrl),
            institution.client.clientId,
            { token_endpoint_auth_method: 'private_key_jwt' },
            oidc.PrivateKeyJwt(await signingKeyOf(institution)),
            {
              execute: options.allowHttp ? [oidc.allowInsecureRequests] : [],
              [oidc.customFetch]: fapiFetch(institution, options.timeoutMs) as oidc.CustomFetch,
              timeout: Math.ceil(options.timeoutMs / 1000),
            },
          );
          oidc.useJwtResponseMode(found);
          return found;
        } catch (err) {
          configs.delete(institution);
          throw asBankError(institution, err);
        }
      })();
      configs.set(institution, config);
    }
    return config;
  };

  const consentsToken = async (institution: Institution) => {
    const cached = consentTokens.get(institution);
    if (cached && cached.until > Date.now()) return cached.token;
    const config = await configOf(institution);
    const grant = await oidc.clientCredentialsGrant(config, { scope: 'consents' }).catch((err) => {
      throw asBankError(institution, err);
    });
    const lifetime = Math.max(0, ((grant.expires_in ?? 60) - 30) * 1000);
    consentTokens.set(institution, { token: grant.access_token, until: Date.now() + lifetime });
    return grant.access_token;
  };

  const dataToken = async (institution: Institution, refreshToken: string) => {
    const config = await configOf(institution);
    const grant = await oidc.refreshTokenGrant(config, refreshToken).catch((err) => {
      throw asBankError(institution, err);
    });
    return grant.access_token;
  };

  return {
    async createConsent(institution, input) {
      const { body } = await callInstitution<{ data: { consentId: string; expirationDateTime?: string } }>(
        institution,
        options,
        {
          url: consentPath(institution),
          method: 'POST',
          token: await consentsToken(institution),
          body: {
            data: {
              loggedUser: { document: { identification: input.cpf, rel: 'CPF' } },
              permissions: PERMISSIONS,
              expirationDateTime: input.expiresAt,
            },
          },
          schema: consentSchema,
          accept: [201],
        },
      );
      return { consentId: body.data.consentId, expiresAt: body.data.expirationDateTime ?? null };
    },

    async startAuthorization(institution, input) {
      const config = await configOf(institution);
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      try {
        const { searchParams } = await oidc.buildAuthorizationUrlWithJAR(
          config,
          {
            redirect_uri: input.redirectUri,
            scope: ['openid', `consent:${input.consentId}`, ...DATA_SCOPES].join(' '),
            response_type: 'code',
            code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
            code_challenge_method: 'S256',
            state,
            nonce,
            claims: JSON.stringify({ id_token: { acr: { essential: true, values: [LOA2] } } }),
          },
          await signingKeyOf(institution),
        );
        const url = await oidc.buildAuthorizationUrlWithPAR(config, searchParams);
        return { url: url.href, state, nonce, codeVerifier };
      } catch (err) {
        throw asBankError(institution, err);
      }
    },

    async completeAuthorization(institution, input) {
      const config = await configOf(institution);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, new URL(input.callbackUrl), {
          pkceCodeVerifier: input.codeVerifier,
          expectedState: input.state,
          expectedNonce: input.nonce,
          idTokenExpected: true,
        });
        if (!tokens.refresh_token) throw new BankError('invalid', `${institution.name} não emitiu refresh token`);
        return { refreshToken: tokens.refresh_token };
      } catch (err) {
        throw asBankError(institution, err);
      }
    },

    async consentStatus(institution, consentId): Promise<ConsentState> {
      const { body } = await callInstitution<{
        data: { status: ConsentState['status']; expirationDateTime?: string; rejection?: { reason: { code: string } } };
      }>(institution, options, {
        url: `${consentPath(institution)}/${encodeURIComponent(consentId)}`,
        token: await consentsToken(institution),
        schema: consentSchema,
      });
      return {
        status: body.data.status,
        rejectionCode: body.data.rejection?.reason.code ?? null,
        expiresAt: body.data.expirationDateTime ?? null,
      };
    },

    async revokeConsent(institution, consentId) {
      // 422 CONSENTIMENTO_EM_STATUS_REJEITADO and 404: already revoked, or gone
      await callInstitution(institution, options, {
        url: `${consentPath(institution)}/${encodeURIComponent(consentId)}`,
        method: 'DELETE',
        token: await consentsToken(institution),
        accept: [204, 404, 422],
      });
    },

    async fetchSnapshot(institution, input): Promise<BankSnapshot> {
      const token = await dataToken(institution, input.refreshToken);
      const skipped: SkippedRecord[] = [];
      const list = <T>(url: string, item: Joi.Schema, what: string) =>
        allPages<T>(institution, options, { url, token, item, what, skipped });
      const one = async <T>(url: string, schema: Joi.Schema) =>
        (await callInstitution<{ data: T }>(institution, options, { url, token, schema })).body.data;
      // a part the institution refuses or garbles is left out with its reason; its silence fails the sync (retried)
      const orSkip = async <T>(what: string, read: () => Promise<T>): Promise<T | null> => {
        try {
          return await read();
        } catch (err) {
          if (!(err instanceof BankError) || (err.kind !== 'refused' && err.kind !== 'invalid')) throw err;
          skipped.push({ record: what, reason: err.message.slice(0, 300) });
          return null;
        }
      };
      const resources = institution.apis.resources
        ? await list<{ resourceId: string; status: string }>(
            `${institution.apis.resources}/resources?${PAGE}`,
            resourceSchema,
            'recurso',
          )
        : null;
      const shared = (id: string) =>
        !resources || resources.some((r) => r.resourceId.trim() === id && r.status === 'AVAILABLE');
      const ahead = addDays(input.to, FORECAST_DAYS);

      const accounts: BankSnapshot['accounts'] = [];
      const accountsApi = institution.apis.accounts;
      if (accountsApi) {
        for (const account of await list<BankSnapshot['accounts'][number]>(
          `${accountsApi}/accounts?${PAGE}`,
          accountSchema,
          'conta',
        )) {
          const accountId = account.accountId.trim();
          if (!shared(accountId)) continue;
          const base = `${accountsApi}/accounts/${encodeURIComponent(accountId)}`;
          const balance = await orSkip(`saldo da conta ${accountId}`, () =>
            one<{ availableAmount: BankSnapshot['accounts'][number]['balance'] }>(`${base}/balances`, balancesSchema),
          );
          // pending and scheduled entries are read again until they settle, whatever the last sync's window
          const from = [input.from, input.openSince?.[accountId] ?? input.from].sort()[0];
          // the history once (12 months and what is scheduled); then the current days (D-6) when they cover the
          // time since the last sync, else the history from a little before it
          const windows =
            from >= addDays(input.to, -CURRENT_DAYS)
              ? [
                  `${base}/transactions-current?fromBookingDate=${from}&toBookingDate=${input.to}&${PAGE}`,
                  `${base}/transactions?fromBookingDate=${addDays(input.to, 1)}&toBookingDate=${ahead}&${PAGE}`,
                ]
              : [`${base}/transactions?fromBookingDate=${from}&toBookingDate=${ahead}&${PAGE}`];
          const transactions: BankAccountTransaction[] = [];
          const balanceRead = balance?.availableAmount ?? null;
          // page by page to the sync when it takes them so (the pages before a list that fails are kept)
          const sink = input.onAccountEntries;
          const onPage = async (page: BankAccountTransaction[]) => {
            if (sink) await sink({ accountId, balance: balanceRead }, page);
            else transactions.push(...page);
          };
          let complete = true;
          for (const url of windows) {
            const read = await orSkip(`lançamentos da conta ${accountId}`, async () => {
              await eachPage<BankAccountTransaction>(
                institution,
                options,
                { url, token, item: accountTransactionSchema, what: `lançamento da conta ${accountId}`, skipped },
                onPage,
              );
              return true;
            });
            if (!read) complete = false;
          }
          accounts.push({
            ...account,
            accountId,
            balance: balanceRead,
            transactions,
            read: complete ? { from, to: ahead } : null,
          });
        }
      }

      const cards: BankSnapshot['cards'] = [];
      const cardsApi = institution.apis['credit-cards-accounts'];
      if (cardsApi) {
        for (const card of await list<{ creditCardAccountId: string; name: string; brandName: string }>(
          `${cardsApi}/accounts?${PAGE}`,
          cardSchema,
          'cartão',
        )) {
          const cardId = card.creditCardAccountId.trim();
          if (!shared(cardId)) continue;
          const base = `${cardsApi}/accounts/${encodeURIComponent(cardId)}`;
          const limits =
            (await orSkip(`limites do cartão ${cardId}`, () =>
              list<BankLimit>(`${base}/limits`, limitSchema, `limite do cartão ${cardId}`),
            )) ?? [];
          const bills: BankSnapshot['cards'][number]['bills'] = [];
          for (const bill of (await orSkip(`faturas do cartão ${cardId}`, () =>
            list<{
              billId: string;
              dueDate: string;
              billTotalAmount?: BankMoney;
              payments?: Array<{ paymentDate: string; amount: string }>;
              financeCharges?: Array<{ type: string; amount: string }>;
            }>(
              `${base}/bills?fromDueDate=${addDays(input.from, -45)}&toDueDate=${ahead}&${PAGE}`,
              billSchema,
              `fatura do cartão ${cardId}`,
            ),
          )) ?? []) {
            const billId = bill.billId.trim();
            const transactions = await orSkip(`lançamentos da fatura ${billId}`, () =>
              list<BankCardTransaction>(
                `${base}/bills/${encodeURIComponent(billId)}/transactions?${PAGE}`,
                cardTransactionSchema,
                `lançamento da fatura ${billId}`,
              ),
            );
            bills.push({
              billId,
              dueDate: bill.dueDate,
              total: bill.billTotalAmount ?? null,
              payments: bill.payments ?? [],
              financeCharges: bill.financeCharges ?? [],
              transactions: transactions ?? [],
            });
          }
          const current = input.from >= addDays(input.to, -CURRENT_DAYS);
          const recent = current
            ? `${base}/transactions-current?fromTransactionDate=${input.from}&toTransactionDate=${input.to}&${PAGE}`
            : `${base}/transactions?fromTransactionDate=${input.from}&toTransactionDate=${input.to}&${PAGE}`;
          const read = new Set(bills.map((bill) => bill.billId));
          // an entry of a bill not read here (the open one, or one the list left out) is read from the card's list
          const open = (
            (await orSkip(`lançamentos do cartão ${cardId}`, () =>
              list<BankCardTransaction>(recent, cardTransactionSchema, `lançamento do cartão ${cardId}`),
            )) ?? []
          ).filter((tx) => !tx.billId || !read.has(tx.billId.trim()));
          const whole = { ...card, creditCardAccountId: cardId, ...cardLimit(limits), bills, open };
          if (input.onCardRead) await input.onCardRead(whole);
          else cards.push(whole);
        }
      }

      const investments: BankSnapshot['investments'] = [];
      for (const family of INVESTMENT_FAMILIES) {
        const api = institution.apis[family];
        if (!api) continue;
        for (const item of await list<{ investmentId: string; brandName: string }>(
          `${api}/investments?${PAGE}`,
          investmentItemSchema,
          'investimento',
        )) {
          const investmentId = item.investmentId.trim();
          if (!shared(investmentId)) continue;
          const base = `${api}/investments/${encodeURIComponent(investmentId)}`;
          const identification =
            (await orSkip(`identificação do investimento ${investmentId}`, () =>
              one<Record<string, string | undefined>>(base, investmentIdentificationSchema),
            )) ?? {};
          const balance = await orSkip(`saldo do investimento ${investmentId}`, () =>
            one<
              | { grossAmount: BankSnapshot['investments'][number]['grossAmount'] }
              | Array<{ grossAmount?: BankSnapshot['investments'][number]['grossAmount'] }>
            >(`${base}/balances`, investmentBalanceSchema),
          );
          const grossAmount = Array.isArray(balance) ? balance[0]?.grossAmount : balance?.grossAmount;
          if (!grossAmount) continue;
          const kind =
            family === 'treasure-titles'
              ? 'TREASURY'
              : (identification.investmentType ?? identification.anbimaCategory ?? family.toUpperCase());
          investments.push({
            family,
            investmentId,
            name:
              identification.name ?? identification.productName ?? identification.ticker ?? `${kind} ${item.brandName}`,
            kind,
            brandName: item.brandName,
            grossAmount,
          });
        }
      }
      return { accounts, cards, investments, skipped };
    },
  };
}

interface BankLimit {
  creditLineLimitType: string;
  isLimitFlexible?: boolean;
  limitAmount?: BankMoney;
  usedAmount?: BankMoney;
  availableAmount?: BankMoney;
}
type BankMoney = { amount: string | number; currency: string };

/**
 * The card's limit from its limits: the total line (`LIMITE_CREDITO_TOTAL`), else the largest line; what is
 * available of it as the institution says, or its limit less what it says is used.
 */
function cardLimit(limits: BankLimit[]): { limit: BankMoney | null; available: BankMoney | null } {
  const amountOf = (money?: BankMoney) => Number(String(money?.amount ?? 0).replace(',', '.'));
  const line =
    limits.find((l) => l.creditLineLimitType === 'LIMITE_CREDITO_TOTAL' && l.limitAmount) ??
    [...limits].filter((l) => l.limitAmount).sort((a, b) => amountOf(b.limitAmount) - amountOf(a.limitAmount))[0];
  if (!line?.limitAmount) return { limit: null, available: null };
  return { limit: line.limitAmount, available: line.availableAmount ?? null };
}

/** openid-client's failures as the domain's: a grant the institution refuses, an answer out of the profile, a silence. */
function asBankError(institution: Institution, err: unknown): BankError {
  if (err instanceof BankError) return err;
  const error = err as { code?: string; error?: string; status?: number; message?: string; cause?: unknown };
  if (error.cause instanceof BankError) return error.cause;
  if (error.error === 'invalid_grant' || error.error === 'access_denied') {
    return new BankError('refused', `${institution.name} recusou a autorização (${error.error})`, error.status ?? 400);
  }
  if (error.status && (error.status === 429 || error.status >= 500)) {
    return new BankError('unavailable', `${institution.name} respondeu ${error.status}`, error.status);
  }
  if (error.code === 'OAUTH_RESPONSE_BODY_ERROR' || error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    return new BankError(
      'refused',
      `${institution.name} recusou a chamada (${error.error ?? error.code})`,
      error.status ?? 400,
    );
  }
  return new BankError(
    'invalid',
    `Resposta de ${institution.name} fora do perfil de segurança (${error.code ?? 'erro'})`,
  );
}
