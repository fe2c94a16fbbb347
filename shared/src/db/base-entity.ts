import { defineEntity, p } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { CONTEXT_ID_GENERATED } from './context-scope.ts';

/**
 * Time-ordered ids (UUIDv7) keep indexes compact and make id order follow creation order, within a millisecond
 * too (uuid's v7 keeps RFC 9562's counter).
 */
export const newId = (): string => uuidv7();

export const BaseSchema = defineEntity({
  name: 'BaseEntity',
  abstract: true,
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    createdAt: p
      .datetime()
      .columnType('timestamptz(3)')
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .columnType('timestamptz(3)')
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** The generated `context_id` column (context-scope.ts): read and filtered on, never written. */
export const contextIdProperty = () => p.uuid().generated(CONTEXT_ID_GENERATED).nullable();

/** Every record of a context carries its creator and its context (docs/decisions.md §2). */
export const OwnedSchema = defineEntity({
  name: 'OwnedEntity',
  abstract: true,
  extends: BaseSchema,
  properties: {
    userId: p.uuid(),
    profileId: p.uuid().nullable(),
    contextId: contextIdProperty(),
  },
});
