import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { IMPORT_STATUSES } from '@finance/shared/contracts/ledger/open-banking';
import type { StatementQuery } from '@finance/shared/contracts/ledger/statements';
import { AppError, notFound } from '@finance/shared/errors/app-error';
import type { Reply } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import Joi from 'joi';
import { findAccount } from '../../data-access/account-repository.ts';
import { accountBalanceOn } from '../../data-access/balance-on-day.ts';
import { requireCard } from '../card-entries/card-rows.ts';
import { importEntries } from '../imports/import-entries.ts';
import type { PipelineEntry } from '../imports/import-entry.ts';
import { updateBackgroundJob } from '../jobs/background-jobs.ts';
import { ImportRejected } from '../open-banking/import-payload.ts';
import { IMPORT_ANSWER_WAIT_MS, queueImport } from '../open-banking/start-import.ts';
import { contextTimeZone } from '../preferences/personal-config.ts';
import { formatOf, type ReadStatement, readStatement, type StatementTarget } from './statement-entries.ts';
import { decodeStatement, StatementRejected } from './statement-text.ts';

export const STATEMENT_KIND = 'STATEMENT_IMPORT';

/** What the import job reads back: the file already read into entries (the file itself is not kept). */
export interface StoredStatement {
  statement: ReadStatement & { target: StatementTarget; source: string };
}

/** The account or card, 404 unless it is the context's (a card through billing). */
async function resolveTarget(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  holder: { account_id: string } | { credit_card_id: string },
): Promise<StatementTarget> {
  if ('account_id' in holder) {
    if (!(await findAccount(em, ctx, holder.account_id))) throw notFound('Conta não encontrada');
    return { account_id: holder.account_id, credit_card_id: null };
  }
  await requireCard(billing, ctx, holder.credit_card_id);
  return { account_id: null, credit_card_id: holder.credit_card_id };
}

/**
 * POST /v1/accounts/{id}/statements and /v1/credit-cards/{id}/statements: the file is read here (a file that
 * cannot be read is 400 naming its line, and nothing is written); its entries are stored with a waiting job and
 * queued through the outbox in one transaction, and the import pipeline runs on the import worker, like the JSON
 * import: the finished job within 5 s (200), else 202.
 */
export async function startStatementImport(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  input: {
    holder: { account_id: string } | { credit_card_id: string };
    file: Buffer;
    query: StatementQuery;
    contentType?: string;
  },
  relaySoon: () => void,
  waitMs = IMPORT_ANSWER_WAIT_MS,
): Promise<Reply> {
  const target = await resolveTarget(em, billing, ctx, input.holder);
  let read: ReadStatement;
  try {
    const text = decodeStatement(input.file);
    const format = formatOf(input.query, input.contentType, text);
    read = readStatement(text, format, input.query, target, await contextTimeZone(em, ctx));
  } catch (err) {
    if (!(err instanceof StatementRejected)) throw err;
    throw new AppError(400, `Arquivo de extrato inválido: ${err.message}`, {
      details: [{ field: err.line === null ? 'arquivo' : `linha ${err.line}`, message: err.message }],
    });
  }
  const holderId = (target.account_id ?? target.credit_card_id) as string;
  const payload: StoredStatement = { statement: { ...read, target, source: `${read.format}:${holderId}` } };
  return queueImport(em, ctx, { kind: STATEMENT_KIND, payload }, relaySoon, waitMs);
}

const nullableText = Joi.string().allow(null).required();
const storedEntry = Joi.object<PipelineEntry>({
  key: Joi.string().required(),
  account_id: Joi.string().guid().allow(null).required(),
  credit_card_id: Joi.string().guid().allow(null).required(),
  status: Joi.string()
    .valid(...IMPORT_STATUSES)
    .required(),
  amount: Joi.number().integer().min(1).required(),
  date: Joi.string().required(),
  is_expense: Joi.boolean().required(),
  title: Joi.string().required(),
  description: nullableText,
  merchant_name: nullableText,
  merchant_cnpj: nullableText,
  merchant_cnae: nullableText,
  operation_type: nullableText,
  logo_url: nullableText,
  installment: Joi.object({ series_key: Joi.string(), number: Joi.number(), total: Joi.number() })
    .allow(null)
    .required(),
  original_amount: nullableText,
  original_currency: nullableText,
  bill_due_date: nullableText,
  line: Joi.number().integer().allow(null).required(),
});
const storedStatement = Joi.object<StoredStatement>({
  statement: Joi.object({
    format: Joi.string().valid('ofx', 'csv').required(),
    target: Joi.object({
      account_id: Joi.string().guid().allow(null).required(),
      credit_card_id: Joi.string().guid().allow(null).required(),
    }).required(),
    source: Joi.string().required(),
    entries: Joi.array().items(storedEntry).required(),
    skipped: Joi.array()
      .items(Joi.object({ line: Joi.number().allow(null), reason: Joi.string() }))
      .required(),
    ledgerBalance: Joi.object({ cents: Joi.number().integer(), date: Joi.string() }).allow(null).required(),
  }).required(),
});

/** Whether a stored import payload is a statement file's (the JSON import's has `connection`). */
export const isStoredStatement = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && 'statement' in payload;

/** The statement import job: the stored entries through the import pipeline, then `LEDGERBAL` checked. */
export async function runStatementImport(
  em: EntityManager,
  ctx: CallerContext,
  jobId: string,
  billing: BillingLedgerClient,
  payload: unknown,
) {
  const { value, error } = storedStatement.validate(payload, { convert: false });
  if (error) throw new ImportRejected(`Importação de extrato inválida: ${error.message}`);
  const { statement } = value;
  await updateBackgroundJob(em, jobId, { state: 'active', progress: 10 });
  const outcome = await importEntries(
    em,
    ctx,
    billing,
    { namespace: statement.source, connectionId: null },
    statement.entries,
  );
  const balance = statement.ledgerBalance;
  const ledger =
    balance && statement.target.account_id
      ? await accountBalanceOn(em, ctx, statement.target.account_id, balance.date)
      : null;
  const byKey = new Map(statement.entries.map((entry) => [entry.key, entry.line]));
  const result = {
    format: statement.format,
    lines: statement.entries.length,
    created: outcome.created.length,
    updated: outcome.updated.length,
    duplicates: outcome.duplicates,
    reconciled: outcome.reconciled,
    reconciliation_suggestions: outcome.reconciliation_suggestions,
    categorized: outcome.categorized,
    skipped: [
      ...statement.skipped,
      ...outcome.skipped.map((entry) => ({ line: byKey.get(entry.key) ?? null, reason: entry.reason })),
    ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    ledger_balance:
      balance && ledger !== null
        ? { statement: balance.cents, ledger, as_of: balance.date, matches: balance.cents === ledger }
        : null,
  };
  await updateBackgroundJob(em, jobId, { state: 'completed', progress: 100, result, error: null });
  return result;
}
