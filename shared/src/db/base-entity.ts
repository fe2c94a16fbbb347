import { defineEntity, p } from '@mikro-orm/postgresql';
import { CONTEXT_ID_GENERATED } from './context-scope.ts';
import { newId } from './new-id.ts';

export { newId };

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
