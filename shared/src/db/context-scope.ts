import Joi from 'joi';
import type { CallerContext } from '../context/signed-context.ts';
import type { ContextRef } from '../queue/catalogue.ts';

/**
 * The context key of every tenant row: the company's id in a company context, else the user's (a company id and a
 * user id never collide). Tables store it as `context_id`, generated from `profile_id`/`user_id` so no write can
 * forget it, and every index serving a context's reads leads with it (docs/architecture.md, "One context key").
 */
export const contextKey = (ctx: CallerContext): string => ctx.profileId ?? ctx.userId;

/** The key of the rows every context sees (the system categories, which have no user): the nil UUID. */
export const SYSTEM_CONTEXT_ID = '00000000-0000-0000-0000-000000000000';

/** How PostgreSQL computes `context_id` from a row (the ORM's generated property says the same). */
export const CONTEXT_ID_GENERATED = `(coalesce(profile_id, user_id, '${SYSTEM_CONTEXT_ID}'::uuid)) stored`;

/** The `context_id` column of a tenant table, as its migration adds it. */
export const CONTEXT_ID_COLUMN = `context_id uuid generated always as ${CONTEXT_ID_GENERATED}`;

/** ORM filter selecting exactly the records of the caller's context. */
export const contextWhere = (ctx: CallerContext) => ({ contextId: contextKey(ctx) });

/** Same filter in SQL for a table alias; its one parameter is the context key. */
export const contextSql = (ctx: CallerContext, alias = ''): { sql: string; params: string[] } => ({
  sql: `${alias ? `${alias}.` : ''}context_id = ?`,
  params: [contextKey(ctx)],
});

export const ownerOf = (ctx: CallerContext) => ({ userId: ctx.userId, profileId: ctx.profileId });

export const contextRef = (ctx: CallerContext): ContextRef => ({ user_id: ctx.userId, profile_id: ctx.profileId });

/** The context a background job or event acts in, from the reference it carries (no API key behind it). */
export const contextOfRef = (ref: ContextRef): CallerContext => ({
  userId: ref.user_id,
  profileId: ref.profile_id ?? null,
  business: false,
  keyId: null,
});

/** A job payload's `context` reference: user id and profile id (null for the personal context). */
export const contextRefSchema = Joi.object({
  user_id: Joi.string().guid().required(),
  profile_id: Joi.string().guid().allow(null).required(),
});

export const iso = (date: Date | null | undefined): string | null =>
  date ? (date instanceof Date ? date : new Date(date)).toISOString() : null;
