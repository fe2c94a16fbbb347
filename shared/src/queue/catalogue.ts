import type { JobsOptions } from 'bullmq';
import type { BillTotals } from '../contracts/internal/ledger-for-billing.ts';
import type { SplitPart } from '../contracts/ledger/transaction-splits.ts';

/** Every queue of the system; a worker may consume only a queue named here. */
export const QUEUES = {
  /** Ledger domain events for insights (accounts and time zones; inbox). */
  insightsLedgerEvents: 'insights.ledger-events',
  /**
   * `transaction.changed` for insights: one job read by its spending limits and its webhooks, each with its own
   * inbox, so a rule's megabytes of events are written to Redis and parsed once instead of once per consumer.
   */
  transactionChanges: 'insights.transaction-changes',
  recurrence: 'ledger.recurrence',
  recategorization: 'ledger.recategorization',
  imports: 'ledger.imports',
  /** A statement file's import (`StatementFileJob`): the file read from where it was stored, its entries through the pipeline. */
  statementFiles: 'ledger.statement-files',
  consentRevocation: 'ledger.consent-revocation',
  /** One sync of an Open Finance connection (job `open-banking.sync`), and the scheduler's run over every ACTIVE one. */
  openBankingSync: 'ledger.open-banking-sync',
  /** Cards of a deleted account moving to another account in billing, after the deletion committed. */
  cardMoves: 'ledger.card-moves',
  billRollover: 'billing.bill-rollover',
  /** Ledger events for billing: a bill's payment written, which billing announces as `bill.paid` when nothing is owed. */
  billingLedgerEvents: 'billing.ledger-events',
  /** A card's effects on the ledger after billing committed (purchases re-billed by calendar, entries of a deleted card). */
  cardLedgerSync: 'billing.card-ledger-sync',
  goalReminders: 'insights.goal-reminders',
  /**
   * Every minute: the cash-flow forecasts of the contexts whose inputs changed (or whose day turned), and their
   * shortfall alerts.
   */
  cashFlowAlerts: 'insights.cash-flow-alerts',
  /** Hourly: notifies each limit's current window in its context's day (a window that has just started). */
  limitWindows: 'insights.limit-windows',
  investmentSnapshots: 'insights.investment-snapshots',
  investmentYields: 'insights.investment-yields',
  /**
   * The events a webhook may subscribe to, fanned out by insights into one delivery per webhook; transaction
   * changes come through `transactionChanges`.
   */
  webhookEvents: 'insights.webhook-events',
  /** One job per delivery attempt of a webhook (`WebhookDeliveryJob`); retries are delayed jobs. */
  webhookDeliveries: 'insights.webhook-deliveries',
  /** Hourly deletion of old outbox and inbox rows, one queue per service that has them. */
  ledgerRetention: 'ledger.retention',
  billingRetention: 'billing.retention',
  insightsRetention: 'insights.retention',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface ContextRef {
  user_id: string;
  profile_id: string | null;
}

/** Envelope of every event relayed from an outbox; `event_id` is the outbox row's id, the key of every consumer's inbox. */
export interface DomainEvent<T = unknown> {
  event_id: string;
  type: EventType;
  occurred_at: string;
  context: ContextRef;
  data: T;
  /** W3C traceparent of the request that recorded the event, so the job joins its trace. */
  traceparent?: string;
}

export interface AccountCreated {
  account_id: string;
  name: string;
  type: string | null;
}

/**
 * Most transactions a rule's batch puts in one `transaction.changed` (its 5,000 changed rows make ten events),
 * and what one relayed job carries at most: ≈110 KB of JSON, under V8's large-object size (128 KB), so the
 * strings made of it (the claim's text, BullMQ's JSON per queue) are young-generation garbage; a megabyte event's
 * waited in the large-object space for a full collection (docs/performance.md, twenty-fourth round).
 */
export const MAX_CHANGED_PER_EVENT = 500;

export interface TransactionChanged {
  change: 'created' | 'updated' | 'deleted';
  transactions: Array<{
    id: string;
    date: string;
    amount: number;
    is_expense: boolean;
    category_id: string | null;
    subcategory_id: string | null;
    type: string;
    /** The parts of a split transaction (absent when it is not split): they count by their own categories. */
    splits?: SplitPart[];
  }>;
}

/**
 * A connection's consent is to be revoked at the bank: its last live account was deleted (`last-account`, the
 * default), or the client deleted the connection (`deleted`).
 */
export interface ConsentRevokeRequested {
  connection_id: string;
  reason?: 'last-account' | 'deleted';
}

/** A connection's consent ended at the institution (`connection.revoked`, `connection.expired`) or here. */
export interface ConnectionEnded {
  connection_id: string;
  institution: string;
  status: 'REVOKED' | 'EXPIRED';
  /** The institution's reason (`CUSTOMER_MANUALLY_REVOKED`, `CONSENT_EXPIRED`, …), when it gave one. */
  reason: string | null;
}

/** Sync of one Open Finance connection (job `open-banking.sync`); the scheduler's run (`open-banking.sync-all`) has no data. */
export interface OpenBankingSyncJob {
  connection_id: string;
  context: ContextRef;
}

/** A context chose the IANA zone of its "today"; consumers keep the latest by `changed_at` (microseconds, commit order). */
export interface ContextTimeZoneChanged {
  time_zone: string;
  changed_at: string;
}

/** A context changed preferences that change totals (flags, the cash-flow threshold): the columns it sent. */
export interface ContextPreferencesChanged {
  fields: string[];
}

/** A bill closed, became overdue (both noticed by billing's daily job) or was paid. */
export interface BillEvent {
  bill_id: string;
  credit_card_id: string;
  /** First day of the bill's month, YYYY-MM-DD. */
  month: string;
  closing_date: string;
  due_date: string;
  /** What the bill holds, in cents (purchases and carried balance, minus payments), when the event was noticed. */
  balance: number;
  /** `bill.paid` only: the payment recorded and what is left. */
  payment?: { transaction_id: string; amount: number; date: string };
}

/**
 * The ledger wrote a payment of a bill (in the payment's transaction): billing consumes it and, when the bill's
 * sums leave nothing owed, records `bill.paid` in its inbox transaction.
 */
export interface BillPaymentRecorded {
  bill_id: string;
  payment: { transaction_id: string; amount: number; date: string };
  /** The bill's sums in the ledger as the payment committed (null: the ledger holds nothing of it). */
  totals: BillTotals | null;
}

/** An open-banking import finished (`import.completed`) or gave up (`import.failed`). */
export interface ImportEvent {
  job_id: string;
  connection_id: string | null;
  status: 'COMPLETED' | 'FAILED';
  result: Record<string, unknown> | null;
  error: string | null;
}

/** A categorization rule finished applying to history. */
export interface RuleApplied {
  rule_id: string;
  job_id: string;
  updated: number;
}

/** A spending limit crossed its warning level or its amount (same data as the notification). */
export interface SpendingLimitEvent {
  notification_id: string;
  spending_limit_id: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
}

/** An account's projected balance falls below the context's threshold (same data as the notification). */
export interface CashFlowShortfallEvent {
  notification_id: string;
  account_id: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
}

/** A goal's reminder day came (same data as the notification). */
export interface GoalReminderEvent {
  notification_id: string;
  goal_id: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
}

export interface EventPayloads {
  'account.created': AccountCreated;
  'transaction.changed': TransactionChanged;
  'connection.consent_revoke_requested': ConsentRevokeRequested;
  'connection.revoked': ConnectionEnded;
  'connection.expired': ConnectionEnded;
  'context.time_zone_changed': ContextTimeZoneChanged;
  'context.preferences_changed': ContextPreferencesChanged;
  'bill.closed': BillEvent;
  'bill.overdue': BillEvent;
  'bill.paid': BillEvent;
  'bill.payment_recorded': BillPaymentRecorded;
  'import.completed': ImportEvent;
  'import.failed': ImportEvent;
  'rule.applied': RuleApplied;
  'spending_limit.warning': SpendingLimitEvent;
  'spending_limit.exceeded': SpendingLimitEvent;
  'goal.reminder': GoalReminderEvent;
  'cash_flow.shortfall': CashFlowShortfallEvent;
}

export type EventType = keyof EventPayloads;

/** Name of the job that carries a relay's batch of events to one queue (`EventBatch`). */
export const EVENT_BATCH_JOB = 'events';

/**
 * Events relayed together to one queue, oldest first: one BullMQ job and one inbox statement per batch, not per
 * event. Its job id digests the events' ids, so relaying the same rows twice is still one job.
 */
export interface EventBatch {
  events: DomainEvent[];
}

/**
 * Which queues each event is relayed to: BullMQ has no fan-out, so each consuming service gets its own queue;
 * consumers of one service that take the same event share its job (`transactionChanges`).
 */
export const EVENT_ROUTES: Record<EventType, QueueName[]> = {
  'account.created': [QUEUES.insightsLedgerEvents],
  'transaction.changed': [QUEUES.transactionChanges],
  'connection.consent_revoke_requested': [QUEUES.consentRevocation],
  // insights notifies the context and sends the webhooks subscribed
  'connection.revoked': [QUEUES.insightsLedgerEvents, QUEUES.webhookEvents],
  'connection.expired': [QUEUES.insightsLedgerEvents, QUEUES.webhookEvents],
  'context.time_zone_changed': [QUEUES.insightsLedgerEvents],
  'context.preferences_changed': [QUEUES.insightsLedgerEvents],
  'bill.closed': [QUEUES.webhookEvents],
  'bill.overdue': [QUEUES.webhookEvents],
  'bill.paid': [QUEUES.webhookEvents],
  'bill.payment_recorded': [QUEUES.billingLedgerEvents],
  'import.completed': [QUEUES.webhookEvents],
  'import.failed': [QUEUES.webhookEvents],
  'rule.applied': [QUEUES.webhookEvents],
  'spending_limit.warning': [QUEUES.webhookEvents],
  'spending_limit.exceeded': [QUEUES.webhookEvents],
  'goal.reminder': [QUEUES.webhookEvents],
  'cash_flow.shortfall': [QUEUES.webhookEvents],
};

/** Event types a webhook subscribes to; `transaction.*` come from `transaction.changed`, the rest by their own name. */
export const WEBHOOK_EVENT_TYPES = [
  'transaction.created',
  'transaction.updated',
  'transaction.deleted',
  'bill.closed',
  'bill.overdue',
  'bill.paid',
  'spending_limit.warning',
  'spending_limit.exceeded',
  'goal.reminder',
  'cash_flow.shortfall',
  'import.completed',
  'import.failed',
  'rule.applied',
  'connection.revoked',
  'connection.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One delivery attempt of a webhook: job id the delivery id (first), `<delivery_id>-<n>` (automatic retry n) or a new id (manual retry). */
export interface WebhookDeliveryJob {
  delivery_id: string;
}

/** Bill rollover run; `date` (YYYY-MM-DD, default each context's today) is the day the run acts as. */
export interface BillRolloverJob {
  date?: string;
}

/** Goal reminder run; `today` (YYYY-MM-DD, default each context's today in its zone) is the day the run acts as. */
export interface GoalReminderJob {
  today?: string;
}

/** Cash-flow alert run; `at` (an ISO instant, default now) is the moment the run acts at. */
export interface CashFlowAlertsJob {
  at?: string;
}

/** Limit window run; `today` (YYYY-MM-DD, default each context's today in its zone) is the day the run acts as. */
export interface LimitWindowsJob {
  today?: string;
}

/** Applies a categorization rule to history; the id is the background job's (and the BullMQ job's). */
export interface RecategorizationJob {
  job_id: string;
}

/** Investment positions of one open-banking import, for insights (job `investments.imported`, jobId `${background_job_id}-investments`). */
export interface InvestmentsImported {
  background_job_id: string;
  context: ContextRef;
  connection_id: string;
  investments: Array<{
    investment_id: string;
    name: string;
    bank_name: string;
    type: string;
    subtype: string;
    snapshots: Array<{ date: string; balance_cents: number }>;
  }>;
}

/** Daily yield materialization run; no fields. */
export type InvestmentYieldsJob = Record<string, never>;

/**
 * Moves every live card of a deleted account to another account in billing (job `move-cards`, job id = the
 * deleted account's id). Idempotent: a card already moved is not linked to the deleted account any more.
 */
/**
 * What the ledger must learn of a card change billing committed (`billing.card-ledger-sync`, recorded in
 * billing's outbox with the change, id `<card>:<version>`): `rebill` moves the card's purchases to the bills of
 * the calendar version; `delete` removes a deleted card's entries. Both are idempotent by `calendar_version`.
 */
export interface CardLedgerSyncJob {
  context: ContextRef;
  credit_card_id: string;
  calendar_version: number;
  /** `rebill`: the first month whose bills changed. */
  first_month?: string;
}

export interface CardMovesJob {
  context: ContextRef;
  from_account_id: string;
  to_account_id: string;
}

/** An open-banking import to run; the payload waits in the ledger's `open_banking_imports`, the job id is the background job id. */
export interface ImportJob {
  background_job_id: string;
  context: ContextRef;
}

/** A statement file's import: its background job, whose file the job reads (job id = background job id). */
export type StatementFileJob = ImportJob;

/** The one place that sets retry, backoff and retention for every job. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/**
 * Queues whose jobs retry beyond the default: revoking a consent at the institution must reach it however long it
 * is down (20 attempts doubling from 1 s: about 6 days).
 */
export const QUEUE_JOB_OPTIONS: Partial<Record<QueueName, JobsOptions>> = {
  [QUEUES.consentRevocation]: { attempts: 20 },
};
