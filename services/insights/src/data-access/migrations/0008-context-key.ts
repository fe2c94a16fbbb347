import { contextKeyMigration } from '@finance/shared/db/context-key-migration';

/** Every tenant row carries its context's key, and every context index leads with it. */
export const ContextKey = contextKeyMigration(
  ['goals', 'investment_positions', 'notifications', 'spending_limits', 'webhooks'],
  [
    ['goals_context_idx', 'goals (context_id, id)'],
    ['investment_positions_context_investment_uq', 'unique investment_positions (context_id, investment_id)'],
    ['notifications_context_idx', 'notifications (context_id, id desc)'],
    ['spending_limits_context_idx', 'spending_limits (context_id, category_id, id)'],
    ['webhooks_context_idx', 'webhooks (context_id, id)'],
  ],
);
