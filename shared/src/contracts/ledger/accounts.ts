import Joi from 'joi';
import { anyUuid, cents, errorSchema, idParams, ownership, type PageQuery } from '../common.ts';
import { defineRoute } from '../route.ts';

export const ACCOUNT_TYPES = ['PERSONAL_BANK', 'BUSINESS_BANK', 'INVESTMENT', 'OTHER'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** An http(s) URL or a COMPE bank code from `GET /v1/banks`; the code is checked against the list by ledger. */
const logo = () =>
  Joi.alternatives()
    .try(
      Joi.string().pattern(/^\d{3}$/, 'bank code'),
      Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .max(2048),
    )
    .messages({ 'alternatives.match': '{{#label}} deve ser uma URL http(s) ou um código de banco de /v1/banks' });

export const accountSchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  logo: Joi.string().required().description('Bank logo URL'),
  balance: cents().required().description('Current balance in BRL cents (entries in another currency are not counted)'),
  include_total_balance: Joi.boolean().required(),
  is_default: Joi.boolean().required(),
  type: Joi.string()
    .valid(...ACCOUNT_TYPES)
    .allow(null)
    .required(),
  subtype: Joi.string().allow(null).required(),
  ...ownership,
}).label('Account');

/** An account's fields as a client sends them: create and update take the same body. */
export interface AccountFields {
  name: string;
  logo: string;
  balance?: number;
  include_total_balance?: boolean;
  type?: AccountType;
}

const accountFields = {
  name: Joi.string().trim().min(1).max(100),
  logo: logo(),
  balance: cents().min(-1e13).max(1e13).description('Initial balance in cents'),
  include_total_balance: Joi.boolean().strict(),
  type: Joi.string().valid(...ACCOUNT_TYPES),
};

const createAccountBody = Joi.object<AccountFields>({
  ...accountFields,
  name: accountFields.name.required(),
  logo: accountFields.logo.required(),
}).label('CreateAccount');

const updateAccountBody = createAccountBody.label('UpdateAccount');

const notFound = { description: 'Unknown account or another context', schema: errorSchema };

export const accountRoutes = [
  defineRoute({
    operationId: 'createAccount',
    method: 'post',
    path: '/v1/accounts',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'Create a manual account',
    description:
      'The first account of a context becomes its default. `logo` is an http(s) URL or a bank code from `GET /v1/banks`, which resolves to that bank logo.',
    body: createAccountBody,
    example: {
      name: 'Conta corrente',
      logo: '341',
      balance: 150000,
      include_total_balance: true,
      type: 'PERSONAL_BANK',
    },
    responses: { 201: { description: 'The account', schema: accountSchema } },
  }),
  defineRoute({
    operationId: 'updateAccount',
    method: 'put',
    path: '/v1/accounts/:id',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'Update an account',
    description: '`name` and `logo` are required; the other fields change only when sent.',
    params: idParams,
    body: updateAccountBody,
    example: { name: 'Conta Itaú', logo: '341' },
    responses: { 200: { description: 'The account', schema: accountSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'listAccounts',
    method: 'get',
    path: '/v1/accounts',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'List the accounts of the context',
    description: 'Ordered by creation. Balances are computed as docs/decisions.md §7 describes.',
    query: Joi.object<PageQuery>({
      limit: Joi.number().integer().min(1).max(500).default(50),
      cursor: Joi.string().max(512),
    }),
    responses: {
      200: {
        description: 'A page of accounts',
        schema: Joi.object({ data: Joi.array().items(accountSchema), next_cursor: Joi.string().allow(null) }),
      },
    },
  }),
  defineRoute({
    operationId: 'getAccount',
    method: 'get',
    path: '/v1/accounts/:id',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'Get one account',
    params: idParams,
    responses: { 200: { description: 'The account', schema: accountSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteAccount',
    method: 'delete',
    path: '/v1/accounts/:id',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'Delete an account and its transactions',
    description:
      'Logical: the account and its transactions vanish from every read and total. The other leg of a transfer, in an account that survives, stays there as a plain entry (`type` FIXED, no `connected_transaction_id`): the money did move. A deleted default passes to the oldest remaining account. `creditCards` is always empty; `movedCreditCards` lists the cards moved to the (new) default account; deleting the last account while cards are linked to it is 409.',
    params: idParams,
    responses: {
      200: {
        description: 'The deleted account',
        schema: accountSchema
          .keys({
            creditCards: Joi.array().length(0).required(),
            movedCreditCards: Joi.array()
              .items(Joi.object({ id: anyUuid().required(), account_id: anyUuid().required() }))
              .required(),
          })
          .label('DeletedAccount'),
      },
      404: notFound,
      409: { description: 'Last account with credit cards linked', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'listBanks',
    method: 'get',
    path: '/v1/banks',
    service: 'ledger',
    tag: 'Accounts',
    summary: 'List the bank codes accepted as account logos',
    responses: {
      200: {
        description: 'Banks',
        schema: Joi.array().items(
          Joi.object({ code: Joi.string(), name: Joi.string(), logo: Joi.string() }).label('Bank'),
        ),
      },
    },
  }),
];
