import Joi from 'joi';
import { anyUuid, errorSchema, idParams, listQuery, ownership, type PageQuery, page, uuid } from '../common.ts';
import { defineRoute } from '../route.ts';

export const MATCH_FIELDS = ['merchant_name', 'merchant_cnpj'] as const;
export type MatchField = (typeof MATCH_FIELDS)[number];
export const SOURCE_KINDS = ['ACCOUNT', 'CREDIT_CARD'] as const;

const criterionSchema = Joi.object({
  field: Joi.string()
    .valid(...MATCH_FIELDS)
    .required(),
  normalized: Joi.string()
    .required()
    .description(
      'Unicode-decomposed (NFD) without combining marks, A–Z lower-cased, every run of Unicode blanks one space, trimmed; a CNPJ keeps its digits only',
    ),
  value: Joi.string().required().description('The value as the source transaction carries it'),
}).label('RuleCriterion');

/** Most parts a rule splits into. */
export const MAX_RULE_SPLITS = 20;

/** A share of what a rule categorizes: a percentage with at most two decimals, in a category. */
export interface RuleSplitFields {
  percentage: number;
  category_id: string;
  subcategory_id?: string | null;
}

const ruleSplitSchema = Joi.object({
  percentage: Joi.number().required(),
  category_id: anyUuid().required(),
  subcategory_id: anyUuid().allow(null).required(),
}).label('RuleSplit');

const ruleSplitsInput = () =>
  Joi.array()
    .items(
      Joi.object<RuleSplitFields>({
        percentage: Joi.number().strict().min(0.01).max(99.99).precision(2).required(),
        category_id: uuid().required(),
        subcategory_id: uuid().allow(null),
      }).label('RuleSplitInput'),
    )
    .min(2)
    .max(MAX_RULE_SPLITS)
    .allow(null);

export const categorizationRuleSchema = Joi.object({
  id: anyUuid().required(),
  category_id: anyUuid().required(),
  subcategory_id: anyUuid().allow(null).required(),
  enabled: Joi.boolean().required(),
  is_expense: Joi.boolean().required(),
  match_fields: Joi.array()
    .items(Joi.string().valid(...MATCH_FIELDS))
    .required(),
  source_id: anyUuid().required().description('Account or card of the source transaction'),
  source_kind: Joi.string()
    .valid(...SOURCE_KINDS)
    .required(),
  source_transaction_id: anyUuid().required(),
  available_criteria: Joi.array().items(criterionSchema).required(),
  fingerprint: Joi.string()
    .pattern(/^sha256:[0-9a-f]{64}$/)
    .required(),
  splits: Joi.array()
    .items(ruleSplitSchema)
    .allow(null)
    .required()
    .description('The parts the rule splits a matching transaction into, or null: it only categorizes'),
  ...ownership,
}).label('CategorizationRule');

const ruleResultSchema = Joi.object({
  rule: categorizationRuleSchema.required(),
  source_transaction_updated: Joi.boolean().required(),
  updated_existing_count: Joi.number().integer().min(0).required(),
  job_id: anyUuid()
    .allow(null)
    .required()
    .description('Recategorization job of `apply_to_existing` (`GET /v1/jobs/{id}`); null when none ran'),
}).label('CategorizationRuleResult');

const matchFields = () =>
  Joi.array()
    .items(Joi.string().valid(...MATCH_FIELDS))
    .min(1)
    .unique();

/** A rule made from a transaction with merchant data. */
export interface CreateCategorizationRuleBody {
  source_transaction_id: string;
  category_id: string;
  subcategory_id?: string | null;
  match_fields?: MatchField[];
  enabled?: boolean;
  apply_to_existing?: boolean;
  splits?: RuleSplitFields[] | null;
}

/** Only the fields sent change; `subcategory_id: null` clears it, `splits: null` makes it categorize only. */
export interface UpdateCategorizationRuleBody {
  category_id?: string;
  subcategory_id?: string | null;
  enabled?: boolean;
  match_fields?: MatchField[];
  apply_to_existing?: boolean;
  splits?: RuleSplitFields[] | null;
}

const createRuleBody = Joi.object<CreateCategorizationRuleBody>({
  source_transaction_id: uuid().required(),
  category_id: uuid().required(),
  subcategory_id: uuid().allow(null),
  match_fields: matchFields(),
  enabled: Joi.boolean().strict(),
  apply_to_existing: Joi.boolean().strict(),
  splits: ruleSplitsInput(),
}).label('CreateCategorizationRule');

const updateRuleBody = Joi.object<UpdateCategorizationRuleBody>({
  category_id: uuid(),
  subcategory_id: uuid().allow(null),
  enabled: Joi.boolean().strict(),
  match_fields: matchFields(),
  apply_to_existing: Joi.boolean().strict(),
  splits: ruleSplitsInput(),
})
  .min(1)
  .label('UpdateCategorizationRule');

const notFound = {
  description: 'Unknown rule, transaction or category, or one of another context',
  schema: errorSchema,
};
const badRequest = { description: 'Invalid body', schema: errorSchema };
const conflictResponse = {
  description: 'Another live rule of the context already has this fingerprint',
  schema: errorSchema,
};

const MATCHING =
  'A transaction matches when `is_expense` is equal and every field of `match_fields` equals the rule value after normalization (Unicode decomposition with every combining mark removed, so composed and decomposed accents match; lower case; every Unicode blank, U+00A0 included, collapsed to one space; trimmed; a CNPJ keeps its digits). On imports the enabled rule matching more fields wins, then the most recently updated.';
const SPLITS =
  '`splits` (2–20 parts, percentages with at most two decimals summing to exactly 100, else 400 on `splits`) makes the rule split each transaction it categorizes (the transaction takes `category_id`): each part gets floor(amount × percentage ÷ 100) cents and the leftover cents go one each to the first parts, in the order sent (70/30 of R$ 10,01: R$ 7,01 and R$ 3,00); a transaction too small for every part to get a cent is categorized but not split. It replaces any split the transaction had, on imports, on its source and with `apply_to_existing`, like its category; `splits: null` (or absent on creation) only categorizes and leaves parts as they are.';
const APPLY =
  '`apply_to_existing: true` recategorizes every live matching transaction of the context with this rule on the recategorization worker, in batches; the call waits up to 5 s for it. `updated_existing_count` counts the transactions it changed (the source transaction excluded), or, while the job still runs, those it will change; `job_id` follows it on `GET /v1/jobs/{id}` (result `{updated_count}`). An enabled rule always categorizes its source transaction; `source_transaction_updated` says whether this call changed it. A disabled rule categorizes nothing, and asking it to apply to existing transactions is 400.';

export const categorizationRuleRoutes = [
  defineRoute({
    operationId: 'createCategorizationRule',
    method: 'post',
    path: '/v1/categorization-rules',
    service: 'ledger',
    tag: 'Categorization rules',
    summary: 'Create a rule from a transaction with merchant data',
    description: `The source must be a live transaction of the context with a merchant name or CNPJ (404 when unknown, 400 without merchant data). \`available_criteria\` lists its merchant_name and merchant_cnpj; \`match_fields\` defaults to all of them and may only name available ones. \`fingerprint\` is \`sha256:\` + the hex SHA-256 of the context, the direction and the matched normalized values: posting the same fingerprint again updates that rule (200) instead of creating one (201). ${MATCHING} ${SPLITS} ${APPLY}`,
    body: createRuleBody,
    example: {
      source_transaction_id: '0196f3a0-0000-7000-8000-000000000001',
      category_id: 'c0000000-0000-4000-8000-000000000001',
      subcategory_id: '5c000000-0000-4000-8000-000100000001',
      apply_to_existing: true,
    },
    responses: {
      201: { description: 'Rule created', schema: ruleResultSchema },
      200: { description: 'A live rule with the same fingerprint was updated', schema: ruleResultSchema },
      400: badRequest,
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'listCategorizationRules',
    method: 'get',
    path: '/v1/categorization-rules',
    service: 'ledger',
    tag: 'Categorization rules',
    summary: 'List the rules of the context',
    description: 'Ordered by creation.',
    query: Joi.object<PageQuery>(listQuery),
    responses: {
      200: { description: 'A page of rules', schema: page(categorizationRuleSchema, 'CategorizationRulePage') },
    },
  }),
  defineRoute({
    operationId: 'getCategorizationRule',
    method: 'get',
    path: '/v1/categorization-rules/:id',
    service: 'ledger',
    tag: 'Categorization rules',
    summary: 'Get one rule',
    params: idParams,
    responses: { 200: { description: 'The rule', schema: categorizationRuleSchema }, 404: notFound },
  }),
  defineRoute({
    operationId: 'updateCategorizationRule',
    method: 'patch',
    path: '/v1/categorization-rules/:id',
    service: 'ledger',
    tag: 'Categorization rules',
    summary: 'Update a rule, optionally applying it to existing transactions',
    description: `Only the fields sent change; \`subcategory_id: null\` clears it. A new category without a subcategory clears a subcategory of another category. Changing \`match_fields\` changes the fingerprint (409 when another live rule has it). ${MATCHING} ${SPLITS} ${APPLY}`,
    params: idParams,
    body: updateRuleBody,
    example: { category_id: 'c0000000-0000-4000-8000-000000000001', apply_to_existing: true },
    responses: {
      200: { description: 'The rule and what changed', schema: ruleResultSchema },
      400: badRequest,
      404: notFound,
      409: conflictResponse,
    },
  }),
  defineRoute({
    operationId: 'deleteCategorizationRule',
    method: 'delete',
    path: '/v1/categorization-rules/:id',
    service: 'ledger',
    tag: 'Categorization rules',
    summary: 'Delete a rule',
    description: 'Logical: the rule no longer categorizes anything; transactions it categorized keep their category.',
    params: idParams,
    responses: { 200: { description: 'The rule as it was', schema: categorizationRuleSchema }, 404: notFound },
  }),
];
