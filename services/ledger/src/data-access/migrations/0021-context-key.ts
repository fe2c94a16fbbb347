import { contextKeyMigration, type IndexDefinition } from '@finance/shared/db/context-key-migration';

const TENANT_TABLES = [
  'accounts',
  'background_jobs',
  'categories',
  'categorization_rules',
  'connections',
  'consent_revocations',
  'contacts',
  'cost_centers',
  'dre_mappings',
  'open_banking_imports',
  'personal_configs',
  'recategorization_runs',
  'subcategories',
  'tags',
  'transactions',
];

/** Each index a context's statements use, rebuilt on `context_id` (the column those statements filter by). */
const CONTEXT_INDEXES: IndexDefinition[] = [
  ['accounts_context_idx', 'accounts (context_id, id) where deleted_at is null'],
  ['accounts_one_default_idx', 'unique accounts (context_id) where is_default and deleted_at is null'],
  ['accounts_external_idx', 'unique accounts (context_id, connection_id, external_id) where external_id is not null'],
  ['background_jobs_context_idx', 'background_jobs (context_id, created_at)'],
  ['categories_context_idx', 'categories (context_id, id) where deleted_at is null'],
  ['categorization_rules_context_idx', 'categorization_rules (context_id, id) where deleted_at is null'],
  [
    'categorization_rules_fingerprint_idx',
    'unique categorization_rules (context_id, fingerprint) where deleted_at is null',
  ],
  ['connections_external_idx', 'unique connections (context_id, external_id)'],
  ['contacts_context_idx', 'contacts (context_id, id) where deleted_at is null'],
  ['cost_centers_context_idx', 'cost_centers (context_id, id) where deleted_at is null'],
  ['personal_configs_context_idx', 'unique personal_configs (context_id)'],
  ['subcategories_context_idx', 'subcategories (context_id, id) where deleted_at is null'],
  ['tags_context_idx', 'tags (context_id, id) where deleted_at is null'],
  ['transactions_context_date_idx', 'transactions (context_id, date, id) where deleted_at is null'],
  [
    'transactions_merchant_cnpj_idx',
    'transactions (context_id, merchant_cnpj_digits, id) where deleted_at is null and merchant_cnpj_digits is not null',
  ],
  [
    'transactions_merchant_name_idx',
    'transactions (context_id, merchant_name_normalized, id) where deleted_at is null and merchant_name_normalized is not null',
  ],
  [
    'transactions_external_idx',
    'unique transactions (context_id, connection_id, external_id) where external_id is not null',
  ],
];

/** Every tenant row carries its context's key, and every context index leads with it. */
// the system categories are the system context's rows (context-scope.ts): the context index serves them too
export const ContextKey = contextKeyMigration(TENANT_TABLES, CONTEXT_INDEXES, ['categories_system_idx']);
