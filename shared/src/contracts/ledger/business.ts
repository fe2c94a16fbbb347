import Joi from 'joi';
import { anyUuid, errorSchema, idParams, listQuery, ownership, type PageQuery, page } from '../common.ts';
import { defineRoute } from '../route.ts';
import { DRE_GROUPS, type DreGroup } from './categories.ts';

export const CONTACT_KINDS = ['CUSTOMER', 'SUPPLIER', 'BOTH'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

// the gateway adds "Business: needs a company key with an active license." to every business route
const BUSINESS_ONLY = 'A personal key or an inactive-license company key answers 403 and nothing is written.';

export const contactSchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  kind: Joi.string()
    .valid(...CONTACT_KINDS)
    .required(),
  document: Joi.string().allow(null).required().description('CPF (11 digits) or CNPJ (14 digits), digits only'),
  email: Joi.string().allow(null).required(),
  phone: Joi.string().allow(null).required(),
  ...ownership,
}).label('Contact');

export const costCenterSchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  code: Joi.string().allow(null).required(),
  ...ownership,
}).label('CostCenter');

export const dreEntrySchema = Joi.object({
  category_id: anyUuid().required(),
  category_name: Joi.string().required(),
  dre_group: Joi.string()
    .valid(...DRE_GROUPS)
    .allow(null)
    .required()
    .description(
      'null for a category without direction (`is_expense` null) and no mapping: the DRE puts each of its entries in receita or despesas_operacionais by the entry’s own direction',
    ),
  is_system: Joi.boolean().required(),
  source: Joi.string().valid('mapping', 'default').required(),
}).label('DreMappingEntry');

/** The text a contact `document` may be (what the OpenAPI document states): 11 or 14 digits among `.-/` and spaces. */
export const DOCUMENT_INPUT = /^[.\-/\s]*(?:\d[.\-/\s]*){11}(?:(?:\d[.\-/\s]*){3})?$/;

/** A contact's fields as a client sends them (all optional on update; null clears an optional one). */
export interface ContactFields {
  name?: string;
  kind?: ContactKind;
  document?: string | null;
  email?: string | null;
  phone?: string | null;
}

const contactFields = {
  name: Joi.string().trim().min(1).max(150),
  kind: Joi.string().valid(...CONTACT_KINDS),
  // punctuation is dropped before the length check: 11 digits CPF, 14 digits CNPJ
  document: Joi.string()
    .trim()
    .replace(/[.\-/\s]/g, '')
    .pattern(/^(\d{11}|\d{14})$/, 'CPF or CNPJ')
    .allow(null)
    .meta({ openapi: { pattern: DOCUMENT_INPUT.source } }),
  email: Joi.string().trim().email().max(254).allow(null),
  phone: Joi.string()
    .trim()
    .pattern(/^\+?[\d\s()-]{8,20}$/, 'phone')
    .allow(null),
};

/** A cost center's fields as a client sends them (all optional on update; null clears `code`). */
export interface CostCenterFields {
  name?: string;
  code?: string | null;
}

/** One entry of the DRE mapping's update: the group a category goes to. */
export interface DreMappingChange {
  category_id: string;
  dre_group: DreGroup;
}

const costCenterFields = {
  name: Joi.string().trim().min(1).max(100),
  code: Joi.string().trim().min(1).max(30).allow(null),
};

const contactNotFound = { description: 'Unknown contact or one of another context', schema: errorSchema };
const costCenterNotFound = { description: 'Unknown cost center or one of another context', schema: errorSchema };
const forbidden = { description: 'Not a company key with an active license', schema: errorSchema };
const common = { service: 'ledger' as const, tag: 'Business', business: true };

/** The five routes of a business record; `F` is the type of its fields, `R` those required on creation. */
const crud = <Op extends string, F extends object, R extends keyof F & string>(
  name: { one: string; many: string; op: Op; path: string },
  schema: Joi.ObjectSchema,
  fields: Record<string, Joi.Schema>,
  required: R[],
  example: unknown,
  notFound: { description: string; schema: Joi.Schema },
  createNotes: string,
) => {
  // the map is built from `fields` at run time, so its keys are checked against no type (joi's third parameter)
  const createBody = Joi.object<F & Required<Pick<F, R>>, false, Record<string, Joi.Schema>>({
    ...fields,
    ...Object.fromEntries(required.map((key) => [key, fields[key].required()])),
  }).label(`Create${name.op}`);
  const updateBody = Joi.object<F>(fields).min(1).required().label(`Update${name.op}`);
  return [
    defineRoute({
      ...common,
      operationId: `create${name.op}`,
      method: 'post',
      path: name.path,
      summary: `Create a ${name.one}`,
      description: `${createNotes} ${BUSINESS_ONLY}`,
      body: createBody,
      example,
      responses: { 201: { description: `The ${name.one}`, schema }, 403: forbidden },
    }),
    defineRoute({
      ...common,
      operationId: `list${name.op}s`,
      method: 'get',
      path: name.path,
      summary: `List the ${name.many} of the company`,
      description: `Ordered by creation. ${BUSINESS_ONLY}`,
      query: Joi.object<PageQuery>(listQuery),
      responses: {
        200: { description: `A page of ${name.many}`, schema: page(schema, `${name.op}Page`) },
        403: forbidden,
      },
    }),
    defineRoute({
      ...common,
      operationId: `get${name.op}`,
      method: 'get',
      path: `${name.path}/:id`,
      summary: `Get one ${name.one}`,
      description: BUSINESS_ONLY,
      params: idParams,
      responses: { 200: { description: `The ${name.one}`, schema }, 403: forbidden, 404: notFound },
    }),
    defineRoute({
      ...common,
      operationId: `update${name.op}`,
      method: 'put',
      path: `${name.path}/:id`,
      summary: `Update a ${name.one}`,
      description: `Only the fields sent change (at least one); null clears an optional field. ${BUSINESS_ONLY}`,
      params: idParams,
      body: updateBody,
      example,
      responses: { 200: { description: `The ${name.one}`, schema }, 403: forbidden, 404: notFound },
    }),
    defineRoute({
      ...common,
      operationId: `delete${name.op}`,
      method: 'delete',
      path: `${name.path}/:id`,
      summary: `Delete a ${name.one}`,
      description: `Logical deletion: it vanishes from every read and can no longer be referenced by transactions (which keep the id they have). Returns the record as it was. ${BUSINESS_ONLY}`,
      params: idParams,
      responses: { 200: { description: `The deleted ${name.one}`, schema }, 403: forbidden, 404: notFound },
    }),
  ];
};

export const businessRoutes = [
  ...crud<'Contact', ContactFields, 'name'>(
    { one: 'contact', many: 'contacts', op: 'Contact', path: '/v2/business/contacts' },
    contactSchema,
    contactFields,
    ['name'],
    {
      name: 'Distribuidora Sol Ltda',
      kind: 'SUPPLIER',
      document: '12.345.678/0001-95',
      email: 'financeiro@sol.com.br',
    },
    contactNotFound,
    '`name` is required; `kind` defaults to `BOTH`; `document` (CPF or CNPJ, punctuation allowed, stored as digits), `email` and `phone` are optional.',
  ),
  ...crud<'CostCenter', CostCenterFields, 'name'>(
    { one: 'cost center', many: 'cost centers', op: 'CostCenter', path: '/v2/business/cost-centers' },
    costCenterSchema,
    costCenterFields,
    ['name'],
    { name: 'Marketing', code: 'MKT' },
    costCenterNotFound,
    '`name` is required; `code` is optional.',
  ),
  defineRoute({
    ...common,
    operationId: 'getDreMapping',
    method: 'get',
    path: '/v2/business/dre-mapping',
    summary: 'Get the DRE group of every category visible to the company',
    description: `One entry per live category (system and the company’s own), system first then by id. \`source\` is \`mapping\` when the company chose the group, \`default\` otherwise: system categories default to their built-in group ("Impostos e taxas": \`deducoes\`, taxes on revenue), the company’s own to \`receita\` (income) or \`despesas_operacionais\` (expense). ${BUSINESS_ONLY}`,
    responses: {
      200: { description: 'The complete mapping', schema: Joi.array().items(dreEntrySchema).label('DreMapping') },
      403: forbidden,
    },
  }),
  defineRoute({
    ...common,
    operationId: 'updateDreMapping',
    method: 'put',
    path: '/v2/business/dre-mapping',
    summary: 'Set the DRE group of some categories',
    description: `A JSON array (1 to 500 entries) of \`{category_id, dre_group}\`; a category listed twice is 400. Replaces the group of the listed categories only, in one transaction; a category that is unknown or of another context is 404 and nothing changes; an unknown group is 400. Returns the complete mapping as GET does. ${BUSINESS_ONLY}`,
    body: Joi.array<DreMappingChange[]>()
      .items(
        Joi.object<DreMappingChange>({
          category_id: anyUuid().required(),
          dre_group: Joi.string()
            .valid(...DRE_GROUPS)
            .required(),
        }).label('DreMappingChange'),
      )
      .min(1)
      .max(500)
      .unique('category_id')
      .required()
      .label('UpdateDreMapping'),
    example: [{ category_id: 'c0000000-0000-4000-8000-000000000007', dre_group: 'custos' }],
    responses: {
      200: { description: 'The complete mapping', schema: Joi.array().items(dreEntrySchema).label('DreMapping') },
      403: forbidden,
      404: { description: 'A listed category is unknown or of another context', schema: errorSchema },
    },
  }),
];
