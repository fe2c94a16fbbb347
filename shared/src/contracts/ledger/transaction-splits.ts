import Joi from 'joi';
import { anyUuid, dayInput, errorSchema, idParams, positiveCents } from '../common.ts';
import { defineRoute } from '../route.ts';
import { EDITION_TYPES, type EditionType } from './transactions.ts';

/** Most parts one transaction may be split into. */
export const MAX_SPLIT_PARTS = 50;

/** One part as a client sends it: its amount and how it is filed; business fields need a licensed company. */
export interface SplitPartFields {
  amount: number;
  category_id?: string | null;
  subcategory_id?: string | null;
  description?: string | null;
  tag_ids?: string[];
  contact_id?: string | null;
  cost_center_id?: string | null;
}

/** The parts that replace a transaction's split, and the members of its series that take them. */
export interface ReplaceSplitsBody {
  parts: SplitPartFields[];
  edition_type?: EditionType | null;
  edition_date?: string;
}

/** The members of a series whose split is removed: THIS (default), THIS_AND_NEXT from `edition_date`, ALL. */
export interface RemoveSplitsQuery {
  edition_type?: EditionType | '';
  edition_date?: string;
}

/** A part as it is stored and shown (and as `transaction.changed` events and webhooks carry it). */
export interface SplitPart {
  id: string;
  amount: number;
  category_id: string | null;
  subcategory_id: string | null;
  description: string | null;
  tag_ids: string[];
  contact_id: string | null;
  cost_center_id: string | null;
}

export const splitPartSchema = Joi.object({
  id: anyUuid().required(),
  amount: positiveCents().required(),
  category_id: anyUuid().allow(null).required(),
  subcategory_id: anyUuid().allow(null).required(),
  description: Joi.string().allow(null).required(),
  tag_ids: Joi.array().items(anyUuid()).required(),
  contact_id: anyUuid().allow(null).required(),
  cost_center_id: anyUuid().allow(null).required(),
}).label('SplitPart');

export const transactionSplitSchema = Joi.object({
  transaction_id: anyUuid().required(),
  amount: positiveCents().required().description('The transaction’s amount: its parts always sum to it exactly'),
  is_expense: Joi.boolean().required(),
  parts: Joi.array()
    .items(splitPartSchema)
    .required()
    .description('In the order they were sent; empty when the transaction is not split'),
}).label('TransactionSplit');

const partBody = Joi.object<SplitPartFields>({
  amount: positiveCents().required(),
  category_id: anyUuid().allow(null),
  subcategory_id: anyUuid().allow(null),
  description: Joi.string().max(2000).allow(null, ''),
  tag_ids: Joi.array().items(anyUuid()).unique().max(50),
  contact_id: anyUuid().allow(null).description('Business'),
  cost_center_id: anyUuid().allow(null).description('Business'),
}).label('SplitPartInput');

const editionType = () =>
  Joi.string()
    .valid(...EDITION_TYPES)
    .allow(null);

const notFound = { description: 'Unknown transaction or another context', schema: errorSchema };

/** How a split counts and what keeps it whole, said once for the three routes. */
const COUNTING =
  'The parts count instead of the transaction wherever totals go by category: the subcategory report, spending limits and their warnings, the DRE (each part by its own category through the mapping, at the transaction’s competence date) and the cash-flow forecast by cost center. The transaction stays one entry: the list, the bill’s total, the account balance and the summary show its amount, unchanged.';

const tag = 'Transactions';

export const transactionSplitRoutes = [
  defineRoute({
    operationId: 'getTransactionSplit',
    method: 'get',
    path: '/v1/transactions/:id/splits',
    service: 'ledger',
    tag,
    summary: 'The parts a transaction is split into',
    description: `\`parts\` is empty when the transaction is not split (\`is_split\` false). ${COUNTING}`,
    params: idParams,
    responses: { 200: { description: 'The split', schema: transactionSplitSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'replaceTransactionSplit',
    method: 'put',
    path: '/v1/transactions/:id/splits',
    service: 'ledger',
    tag,
    summary: 'Split a transaction into parts, or replace its parts',
    description: [
      `2 to ${MAX_SPLIT_PARTS} \`parts\`, each with its \`amount\` (cents ≥ 1), category and subcategory (a subcategory alone brings its category), tags, an optional description and, for a licensed company, contact and cost center (403 otherwise). The amounts sum exactly to the transaction’s \`amount\` (else 400 on \`parts\`); they take its direction. Any transaction may be split: account or card entry, installment, occurrence, transfer leg.`,
      '`edition_type` THIS (default) / THIS_AND_NEXT (members dated on or after `edition_date`, default the transaction’s date) / ALL reaches the members of its series as an edit does (a transfer’s two legs always together): each member gets the same parts in the same proportions, its own amount apportioned as installments are (each part floor(amount × part ÷ total), the leftover cents one each to the first parts), so every member’s parts sum to its amount; a member too small for every part to get a cent is 400, nothing written. A recurrence’s later occurrences copy the split of the latest one, as they copy its tags.',
      'Changing a split transaction’s amount later (an edit or a bank’s re-import) apportions its parts to the new amount the same way, dropping a part left with no cent (a split left with one part is removed). A re-import or re-sync never changes the parts otherwise (they are the user’s). Concurrent changes of one transaction apply one after the other. All or nothing; answers every member’s split, by date.',
      COUNTING,
    ].join(' '),
    params: idParams,
    body: Joi.object<ReplaceSplitsBody>({
      parts: Joi.array().items(partBody).min(2).max(MAX_SPLIT_PARTS).required(),
      edition_type: editionType(),
      edition_date: dayInput(),
    }).label('ReplaceTransactionSplit'),
    example: {
      parts: [
        { amount: 18_000, category_id: '0190a1b2-0000-7000-8000-000000000002', description: 'Comida' },
        { amount: 4_990, category_id: '0190a1b2-0000-7000-8000-000000000003', description: 'Limpeza' },
        { amount: 2_000, category_id: '0190a1b2-0000-7000-8000-000000000004', description: 'Presente' },
      ],
    },
    responses: {
      200: { description: 'The split of every member changed', schema: Joi.array().items(transactionSplitSchema) },
      400: { description: 'Invalid parts', schema: errorSchema },
      403: { description: 'Business field without an active company license', schema: errorSchema },
      404: {
        description: 'Transaction, category, subcategory, tag, contact or cost center not found',
        schema: errorSchema,
      },
    },
  }),
  defineRoute({
    operationId: 'removeTransactionSplit',
    method: 'delete',
    path: '/v1/transactions/:id/splits',
    service: 'ledger',
    tag,
    summary: 'Remove the split of a transaction (or of members of its series)',
    description:
      'The transaction counts again as one entry of its own category. `edition_type` THIS (default) / THIS_AND_NEXT (from `edition_date`, default its date) / ALL as on replace. `removed` counts the members that were split.',
    params: idParams,
    query: Joi.object<RemoveSplitsQuery>({
      edition_type: Joi.string()
        .valid(...EDITION_TYPES)
        .allow(''),
      edition_date: dayInput(),
    }),
    responses: {
      200: {
        description: 'How many transactions were split before',
        schema: Joi.object({ removed: Joi.number().integer().required() }).label('SplitsRemoved'),
      },
      404: notFound,
    },
  }),
];
