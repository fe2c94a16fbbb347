import { contextKeyMigration } from '@finance/shared/db/context-key-migration';

/** Every tenant row carries its context's key, and every context index leads with it. */
export const ContextKey = contextKeyMigration(
  ['credit_cards', 'bills'],
  [
    ['credit_cards_context_idx', 'credit_cards (context_id, id) where deleted_at is null'],
    [
      'credit_cards_external_idx',
      'unique credit_cards (context_id, connection_id, external_id) where external_id is not null',
    ],
  ],
);
