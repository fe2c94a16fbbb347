import Joi from 'joi';
import type { CallerContext } from '../context/signed-context.ts';
import type { ContextRef } from '../queue/catalogue.ts';

/** Filter selecting exactly the records of the caller's context (docs/decisions.md §2). */
export const contextWhere = (ctx: CallerContext) =>
  ctx.profileId ? { profileId: ctx.profileId } : { profileId: null, userId: ctx.userId };

/** Same filter in SQL for a table alias; parameters in order. */
export const contextSql = (ctx: CallerContext, alias = ''): { sql: string; params: string[] } => {
  const a = alias ? `${alias}.` : '';
  return ctx.profileId
    ? { sql: `${a}profile_id = ?`, params: [ctx.profileId] }
    : { sql: `${a}profile_id is null and ${a}user_id = ?`, params: [ctx.userId] };
};

/** One id per context, for locks and unique indexes (a company id and a user id never collide). */
export const contextKey = (ctx: CallerContext): string => ctx.profileId ?? ctx.userId;

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
