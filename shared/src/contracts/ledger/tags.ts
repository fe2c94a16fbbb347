import Joi from 'joi';
import { anyUuid, colorString, errorSchema, idParams, listQuery, ownership, type PageQuery, page } from '../common.ts';
import { defineRoute } from '../route.ts';

export const tagSchema = Joi.object({
  id: anyUuid().required(),
  name: Joi.string().required(),
  color: colorString().required().description('#RRGGBB'),
  ...ownership,
}).label('Tag');

/** A tag's fields as a client sends them (all optional on update). */
export interface TagFields {
  name?: string;
  color?: string;
}

/** A new tag: `name` required. */
export type CreateTagBody = TagFields & { name: string };

const tagFields = { name: Joi.string().trim().min(1).max(60), color: colorString() };

const notFound = { description: 'Unknown tag or one of another context', schema: errorSchema };
const common = { service: 'ledger' as const, tag: 'Tags' };

export const tagRoutes = [
  defineRoute({
    ...common,
    operationId: 'listTags',
    method: 'get',
    path: '/v1/tags',
    summary: 'List the tags of the context',
    description: 'Ordered by creation.',
    query: Joi.object<PageQuery>(listQuery),
    responses: { 200: { description: 'A page of tags', schema: page(tagSchema, 'TagPage') } },
  }),
  defineRoute({
    ...common,
    operationId: 'createTag',
    method: 'post',
    path: '/v1/tags',
    summary: 'Create a tag',
    description: '`name` is required; `color` (`#RRGGBB`) defaults to `#64748B`. Names need not be unique.',
    body: Joi.object<CreateTagBody>({ ...tagFields, name: tagFields.name.required() }).label('CreateTag'),
    example: { name: 'Viagem Nordeste', color: '#0EA5E9' },
    responses: { 201: { description: 'The tag', schema: tagSchema } },
  }),
  defineRoute({
    ...common,
    operationId: 'getTag',
    method: 'get',
    path: '/v1/tags/:id',
    summary: 'Get one tag',
    params: idParams,
    responses: { 200: { description: 'The tag', schema: tagSchema }, 404: notFound },
  }),
  defineRoute({
    ...common,
    operationId: 'updateTag',
    method: 'put',
    path: '/v1/tags/:id',
    summary: 'Update a tag',
    description: 'Only the fields sent change (at least one).',
    params: idParams,
    body: Joi.object<TagFields>(tagFields).min(1).required().label('UpdateTag'),
    example: { color: '#22C55E' },
    responses: { 200: { description: 'The tag', schema: tagSchema }, 404: notFound },
  }),
  defineRoute({
    ...common,
    operationId: 'deleteTag',
    method: 'delete',
    path: '/v1/tags/:id',
    summary: 'Delete a tag',
    description:
      'Logical deletion: the tag vanishes from every read and can no longer be given in `tag_ids`. Returns the tag as it was.',
    params: idParams,
    responses: { 200: { description: 'The deleted tag', schema: tagSchema }, 404: notFound },
  }),
];
