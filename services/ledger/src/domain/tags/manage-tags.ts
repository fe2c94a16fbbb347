import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CreateTagBody, TagFields } from '@finance/shared/contracts/ledger/tags';
import { iso, ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Tag, TagSchema } from '../../data-access/entities/tag.ts';
import { ownWhere, pageById } from '../../data-access/reference-repository.ts';

const NOT_FOUND = 'Tag não encontrada';
const DEFAULT_COLOR = '#64748B';

/** The Tag record of the spec. */
export const tagView = (tag: Tag) => ({
  id: tag.id,
  name: tag.name,
  color: tag.color,
  profile_id: tag.profileId ?? null,
  user_id: tag.userId,
  createdAt: iso(tag.createdAt),
  updatedAt: iso(tag.updatedAt),
});

async function findTag(em: EntityManager, ctx: CallerContext, id: string): Promise<Tag> {
  const tag = await em.findOne(TagSchema, { id, ...ownWhere(ctx) });
  if (!tag) throw notFound(NOT_FOUND);
  return tag;
}

export async function createTag(em: EntityManager, ctx: CallerContext, input: CreateTagBody) {
  const tag = em.create(TagSchema, {
    ...ownerOf(ctx),
    name: input.name,
    color: input.color ?? DEFAULT_COLOR,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => tagView(tag));
}

export async function updateTag(em: EntityManager, ctx: CallerContext, id: string, input: TagFields) {
  const tag = await findTag(em, ctx, id);
  if (input.name !== undefined) tag.name = input.name;
  if (input.color !== undefined) tag.color = input.color;
  return flushKeepingAnswer(em, () => tagView(tag));
}

export async function deleteTag(em: EntityManager, ctx: CallerContext, id: string) {
  const tag = await findTag(em, ctx, id);
  const view = tagView(tag);
  tag.deletedAt = now();
  return flushKeepingAnswer(em, () => view);
}

export async function getTag(em: EntityManager, ctx: CallerContext, id: string) {
  return tagView(await findTag(em, ctx, id));
}

export async function listTags(em: EntityManager, ctx: CallerContext, page: PageQuery) {
  const rows = await pageById(em, TagSchema, ownWhere(ctx), page.limit, afterIdOf(page.cursor));
  return toPage(rows, page.limit, tagView);
}
