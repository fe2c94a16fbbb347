import Joi from 'joi';
import { anyUuid, colorString, errorSchema, idParams, listQuery, type PageQuery, page, timestamp } from '../common.ts';
import { defineRoute } from '../route.ts';

export const DRE_GROUPS = [
  'receita',
  'deducoes',
  'custos',
  'despesas_operacionais',
  'financeiro',
  'investimento',
  'retiradas',
] as const;
export type DreGroup = (typeof DRE_GROUPS)[number];

/** Message of the 409 answered for writes to a system category or subcategory. */
export const SYSTEM_READ_ONLY = 'Categorias do sistema não podem ser alteradas';

const recordOwnership = {
  profile_id: anyUuid().allow(null).required(),
  user_id: anyUuid().allow(null).required().description('null for system records, visible to every context'),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
};

export const categorySchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  is_expense: Joi.boolean()
    .allow(null)
    .required()
    .description(
      'true: expense category; false: income category; null: no direction (entries carry their own: reports split by each entry’s `is_expense`, and the DRE groups its entries by each entry’s direction)',
    ),
  is_essential: Joi.boolean().required(),
  is_hidden: Joi.boolean().required(),
  icon: Joi.string().allow(null).required(),
  icon_name: Joi.string().required(),
  icon_background_color: colorString().required().description('#RRGGBB'),
  image: Joi.string().allow(null).required(),
  ...recordOwnership,
}).label('Category');

export const subcategorySchema = Joi.object({
  id: anyUuid().required(),
  category_id: anyUuid().required(),
  name: Joi.string().required(),
  is_essential: Joi.boolean().required(),
  is_hidden: Joi.boolean().required(),
  icon_name: Joi.string().required(),
  icon_background_color: colorString().required().description('#RRGGBB'),
  image: Joi.string().allow(null).required(),
  ...recordOwnership,
}).label('Subcategory');

/** The look a category and a subcategory share, as a client sends it. */
interface StyleFields {
  is_essential?: boolean;
  is_hidden?: boolean;
  icon_name?: string;
  icon_background_color?: string;
  image?: string | null;
}

/** A category's fields a client may change (all optional on update). */
export interface CategoryFields extends StyleFields {
  name?: string;
  icon?: string | null;
}

/** Creation also takes the direction, which never changes afterwards. */
export interface CreateCategoryBody extends CategoryFields {
  name: string;
  is_expense?: boolean | null;
}

/** A subcategory's fields a client may change (all optional on update). */
export interface SubcategoryFields extends StyleFields {
  name?: string;
}

/** Creation names the parent category, which never changes afterwards. */
export interface CreateSubcategoryBody extends SubcategoryFields {
  name: string;
  category_id: string;
}

/** The category listing's query: a page, optionally of one direction (plus those without one). */
export interface CategoryListQuery extends PageQuery {
  is_expense?: boolean;
}

/** The subcategory listing's query: a page, optionally of one category. */
export interface SubcategoryListQuery extends PageQuery {
  category_id?: string;
}

const imageUrl = () =>
  Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2048)
    .allow(null);

const styleFields = {
  is_essential: Joi.boolean().strict(),
  is_hidden: Joi.boolean().strict(),
  icon_name: Joi.string().trim().min(1).max(60),
  icon_background_color: colorString(),
  image: imageUrl(),
};

const categoryFields = {
  name: Joi.string().trim().min(1).max(100),
  ...styleFields,
  icon: Joi.string().trim().min(1).max(60).allow(null),
};

const createCategoryBody = Joi.object<CreateCategoryBody>({
  ...categoryFields,
  name: categoryFields.name.required(),
  is_expense: Joi.boolean().strict().allow(null),
}).label('CreateCategory');

const updateCategoryBody = Joi.object<CategoryFields>(categoryFields).min(1).required().label('UpdateCategory');

const subcategoryFields = { name: Joi.string().trim().min(1).max(100), ...styleFields };

const createSubcategoryBody = Joi.object<CreateSubcategoryBody>({
  ...subcategoryFields,
  name: subcategoryFields.name.required(),
  category_id: anyUuid().required(),
}).label('CreateSubcategory');

const updateSubcategoryBody = Joi.object<SubcategoryFields>(subcategoryFields)
  .min(1)
  .required()
  .label('UpdateSubcategory');

const notFoundCategory = { description: 'Unknown category or one of another context', schema: errorSchema };
const notFoundSubcategory = { description: 'Unknown subcategory or one of another context', schema: errorSchema };
const readOnly = { description: `System record: \`${SYSTEM_READ_ONLY}\``, schema: errorSchema };
const common = { service: 'ledger' as const, tag: 'Categories' };

export const categoryRoutes = [
  defineRoute({
    ...common,
    operationId: 'listCategories',
    method: 'get',
    path: '/v1/categories',
    summary: 'List the system categories and the context’s own',
    description:
      'System categories (`user_id` null, a standard Brazilian set shipped with fixed ids) come with the context’s own, hidden ones included, ordered by id. `is_expense` tells expense from income categories (null: no direction). Optional `is_expense` filter: the categories of that direction plus those without one.',
    query: Joi.object<CategoryListQuery>({ ...listQuery, is_expense: Joi.boolean() }),
    responses: { 200: { description: 'A page of categories', schema: page(categorySchema, 'CategoryPage') } },
  }),
  defineRoute({
    ...common,
    operationId: 'createCategory',
    method: 'post',
    path: '/v1/categories',
    summary: 'Create a category in the context',
    description:
      '`name` is required. `is_expense` is optional (default null: a category with no direction, since direction belongs to each transaction; the subcategory report splits expenses and incomes by the transaction, and the DRE default puts such a category’s entries in `receita` or `despesas_operacionais` by each entry’s own direction). Defaults: `is_essential` false, `is_hidden` false, `icon` null, `icon_name` `tag`, `icon_background_color` `#64748B`, `image` null (an http(s) URL when set). Names need not be unique.',
    body: createCategoryBody,
    example: {
      name: 'Mercado do bairro',
      is_expense: true,
      is_essential: true,
      icon_name: 'store',
      icon_background_color: '#F97316',
    },
    responses: { 201: { description: 'The category', schema: categorySchema } },
  }),
  defineRoute({
    ...common,
    operationId: 'getCategory',
    method: 'get',
    path: '/v1/categories/:id',
    summary: 'Get one category (system or the context’s own)',
    params: idParams,
    responses: { 200: { description: 'The category', schema: categorySchema }, 404: notFoundCategory },
  }),
  defineRoute({
    ...common,
    operationId: 'updateCategory',
    method: 'put',
    path: '/v1/categories/:id',
    summary: 'Update a category of the context',
    description: `Only the fields sent change (at least one). \`is_expense\` cannot change (400). A system category answers 409 \`${SYSTEM_READ_ONLY}\`.`,
    params: idParams,
    body: updateCategoryBody,
    example: { name: 'Feira', is_hidden: false },
    responses: {
      200: { description: 'The category', schema: categorySchema },
      404: notFoundCategory,
      409: readOnly,
    },
  }),
  defineRoute({
    ...common,
    operationId: 'deleteCategory',
    method: 'delete',
    path: '/v1/categories/:id',
    summary: 'Delete a category of the context',
    description: `Logical deletion of the category and its subcategories: they vanish from every read; transactions keep their \`category_id\`. Returns the category as it was. A system category answers 409 \`${SYSTEM_READ_ONLY}\`.`,
    params: idParams,
    responses: {
      200: { description: 'The deleted category', schema: categorySchema },
      404: notFoundCategory,
      409: readOnly,
    },
  }),
  defineRoute({
    ...common,
    operationId: 'listSubcategories',
    method: 'get',
    path: '/v1/subcategories',
    summary: 'List the system subcategories and the context’s own',
    description:
      'Ordered by id. `category_id` narrows to one visible category; a category of another context or unknown is 404.',
    query: Joi.object<SubcategoryListQuery>({ ...listQuery, category_id: anyUuid() }),
    responses: {
      200: { description: 'A page of subcategories', schema: page(subcategorySchema, 'SubcategoryPage') },
      404: notFoundCategory,
    },
  }),
  defineRoute({
    ...common,
    operationId: 'createSubcategory',
    method: 'post',
    path: '/v1/subcategories',
    summary: 'Create a subcategory in the context',
    description:
      '`category_id` (a system category or one of the context; otherwise 404) and `name` are required. Defaults: `is_essential` false, `is_hidden` false, `icon_name` `tag`, `icon_background_color` the parent category’s, `image` null.',
    body: createSubcategoryBody,
    example: { category_id: 'c0000000-0000-4000-8000-000000000001', name: 'Hortifruti', is_essential: true },
    responses: { 201: { description: 'The subcategory', schema: subcategorySchema }, 404: notFoundCategory },
  }),
  defineRoute({
    ...common,
    operationId: 'getSubcategory',
    method: 'get',
    path: '/v1/subcategories/:id',
    summary: 'Get one subcategory (system or the context’s own)',
    params: idParams,
    responses: { 200: { description: 'The subcategory', schema: subcategorySchema }, 404: notFoundSubcategory },
  }),
  defineRoute({
    ...common,
    operationId: 'updateSubcategory',
    method: 'put',
    path: '/v1/subcategories/:id',
    summary: 'Update a subcategory of the context',
    description: `Only the fields sent change (at least one); \`category_id\` cannot change (400). A system subcategory answers 409 \`${SYSTEM_READ_ONLY}\`.`,
    params: idParams,
    body: updateSubcategoryBody,
    example: { name: 'Sacolão' },
    responses: {
      200: { description: 'The subcategory', schema: subcategorySchema },
      404: notFoundSubcategory,
      409: readOnly,
    },
  }),
  defineRoute({
    ...common,
    operationId: 'deleteSubcategory',
    method: 'delete',
    path: '/v1/subcategories/:id',
    summary: 'Delete a subcategory of the context',
    description: `Logical deletion; transactions keep their \`subcategory_id\`. Returns the subcategory as it was. A system subcategory answers 409 \`${SYSTEM_READ_ONLY}\`.`,
    params: idParams,
    responses: {
      200: { description: 'The deleted subcategory', schema: subcategorySchema },
      404: notFoundSubcategory,
      409: readOnly,
    },
  }),
];
