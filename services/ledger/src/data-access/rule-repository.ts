import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextKey, contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface Criterion {
  field: 'merchant_name' | 'merchant_cnpj';
  normalized: string;
  value: string;
}

/** A share of a rule's split: basis points (10,000 = 100 %) in a category. */
export interface RuleShare {
  basis_points: number;
  category_id: string;
  subcategory_id: string | null;
}

/** A stored categorization rule as SQL returns it. */
export interface RuleRow {
  id: string;
  user_id: string;
  profile_id: string | null;
  category_id: string;
  subcategory_id: string | null;
  enabled: boolean;
  is_expense: boolean;
  match_fields: string[];
  match_merchant_name: string | null;
  match_merchant_cnpj: string | null;
  source_id: string;
  source_kind: 'ACCOUNT' | 'CREDIT_CARD';
  source_transaction_id: string;
  available_criteria: Criterion[];
  fingerprint: string;
  /** The parts it splits what it categorizes into, or null: it only categorizes. */
  splits: RuleShare[] | null;
  created_at: Date;
  updated_at: Date;
}

/** What create and update write; the matched values follow from `match_fields` and the criteria. */
export type RuleValues = Omit<RuleRow, 'id' | 'user_id' | 'profile_id' | 'created_at' | 'updated_at'>;

const COLUMNS = `id, user_id, profile_id, category_id, subcategory_id, enabled, is_expense, match_fields,
  match_merchant_name, match_merchant_cnpj, source_id, source_kind, source_transaction_id, available_criteria,
  fingerprint, splits, created_at, updated_at`;

const pgArray = (values: string[]) => `{${values.join(',')}}`;

export async function findRule(em: EntityManager, ctx: CallerContext, id: string, lock = false) {
  const scope = contextSql(ctx);
  const rows = await runSql<RuleRow>(
    em,
    `select ${COLUMNS} from categorization_rules where id = ? and deleted_at is null and ${scope.sql}${lock ? ' for update' : ''}`,
    [id, ...scope.params],
  );
  return rows[0] ?? null;
}

export async function findRuleByFingerprint(em: EntityManager, ctx: CallerContext, fingerprint: string) {
  const scope = contextSql(ctx);
  const rows = await runSql<RuleRow>(
    em,
    `select ${COLUMNS} from categorization_rules
     where ${scope.sql} and fingerprint = ? and deleted_at is null for update`,
    [...scope.params, fingerprint],
  );
  return rows[0] ?? null;
}

/** Serializes writers of one fingerprint in a context, so two equal POSTs never race to two rules. */
export async function lockFingerprint(em: EntityManager, ctx: CallerContext, fingerprint: string): Promise<void> {
  await runSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`rule:${contextKey(ctx)}:${fingerprint}`]);
}

export async function insertRule(em: EntityManager, ctx: CallerContext, values: RuleValues): Promise<RuleRow> {
  const rows = await runSql<RuleRow>(
    em,
    `insert into categorization_rules (${COLUMNS})
     values (?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, now(), now()) returning ${COLUMNS}`,
    [newId(), ctx.userId, ctx.profileId, ...ruleParams(values)],
  );
  return rows[0];
}

/** The rule's own columns in the order both statements list them. */
const ruleParams = (values: RuleValues): unknown[] => [
  values.category_id,
  values.subcategory_id,
  values.enabled,
  values.is_expense,
  pgArray(values.match_fields),
  values.match_merchant_name,
  values.match_merchant_cnpj,
  values.source_id,
  values.source_kind,
  values.source_transaction_id,
  JSON.stringify(values.available_criteria),
  values.fingerprint,
  values.splits === null ? null : JSON.stringify(values.splits),
];

export async function updateRule(em: EntityManager, id: string, values: RuleValues): Promise<RuleRow> {
  const rows = await runSql<RuleRow>(
    em,
    `update categorization_rules set category_id = ?, subcategory_id = ?, enabled = ?, is_expense = ?,
       match_fields = ?::text[], match_merchant_name = ?, match_merchant_cnpj = ?, source_id = ?, source_kind = ?,
       source_transaction_id = ?, available_criteria = ?::jsonb, fingerprint = ?, splits = ?::jsonb, updated_at = now()
     where id = ? returning ${COLUMNS}`,
    [...ruleParams(values), id],
  );
  return rows[0];
}

export async function softDeleteRule(em: EntityManager, id: string): Promise<void> {
  await runSql(em, 'update categorization_rules set deleted_at = now(), updated_at = now() where id = ?', [id]);
}

/** `limit + 1` live rules of the context after `afterId`, in creation order (uuidv7 ids). */
export async function pageRules(em: EntityManager, ctx: CallerContext, limit: number, afterId: string | null) {
  const scope = contextSql(ctx);
  return runSql<RuleRow>(
    em,
    `select ${COLUMNS} from categorization_rules
     where ${scope.sql} and deleted_at is null ${afterId ? 'and id > ?' : ''}
     order by id limit ?`,
    [...scope.params, ...(afterId ? [afterId] : []), limit + 1],
  );
}

/** An enabled rule as the import pipeline compares it. */
export type EnabledRule = Pick<
  RuleRow,
  | 'id'
  | 'category_id'
  | 'subcategory_id'
  | 'is_expense'
  | 'match_fields'
  | 'match_merchant_name'
  | 'match_merchant_cnpj'
  | 'splits'
  | 'updated_at'
>;

/** The context's enabled live rules (a context holds tens, not thousands). */
export async function selectEnabledRules(em: EntityManager, ctx: CallerContext): Promise<EnabledRule[]> {
  const scope = contextSql(ctx);
  return runSql<EnabledRule>(
    em,
    `select id, category_id, subcategory_id, is_expense, match_fields, match_merchant_name, match_merchant_cnpj,
       splits, updated_at from categorization_rules where ${scope.sql} and enabled and deleted_at is null`,
    scope.params,
  );
}
