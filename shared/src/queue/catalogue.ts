import type { JobsOptions } from 'bullmq';

/** Every queue of the system; a worker may consume only a queue named here. */
export const QUEUES = {
  /** Ledger domain events for insights (spending-limit checks, inbox). */
  insightsLedgerEvents: 'insights.ledger-events',
  recurrence: 'ledger.recurrence',
  recategorization: 'ledger.recategorization',
  imports: 'ledger.imports',
  consentRevocation: 'ledger.consent-revocation',
  billRollover: 'billing.bill-rollover',
  goalReminders: 'insights.goal-reminders',
  /** Hourly: notifies each limit's current window in its context's day (a window that has just started). */
  limitWindows: 'insights.limit-windows',
  investmentSnapshots: 'insights.investment-snapshots',
  investmentYields: 'insights.investment-yields',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface ContextRef {
  user_id: string;
  profile_id: string | null;
}

/** Envelope of every event relayed from an outbox: the outbox row id is the job id, so a relay retry never duplicates. */
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
  }>;
}

/** The last live account of an open-banking connection was deleted: its consent is to be revoked at the bank. */
export interface ConsentRevokeRequested {
  connection_id: string;
}

/** A context chose the IANA zone of its "today"; consumers keep the latest by `changed_at` (microseconds, commit order). */
export interface ContextTimeZoneChanged {
  time_zone: string;
  changed_at: string;
}

export interface EventPayloads {
  'account.created': AccountCreated;
  'transaction.changed': TransactionChanged;
  'connection.consent_revoke_requested': ConsentRevokeRequested;
  'context.time_zone_changed': ContextTimeZoneChanged;
}

export type EventType = keyof EventPayloads;

/** Which queues each event is relayed to (BullMQ has no fan-out, so each consumer gets its own queue). */
export const EVENT_ROUTES: Record<EventType, QueueName[]> = {
  'account.created': [QUEUES.insightsLedgerEvents],
  'transaction.changed': [QUEUES.insightsLedgerEvents],
  'connection.consent_revoke_requested': [QUEUES.consentRevocation],
  'context.time_zone_changed': [QUEUES.insightsLedgerEvents],
};

/** Bill rollover run; `date` (YYYY-MM-DD, default each context's today) is the day the run acts as. */
export interface BillRolloverJob {
  date?: string;
}

/** Goal reminder run; `today` (YYYY-MM-DD, default each context's today in its zone) is the day the run acts as. */
export interface GoalReminderJob {
  today?: string;
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

/** An open-banking import to run; the payload waits in the ledger's `open_banking_imports`, the job id is the background job id. */
export interface ImportJob {
  background_job_id: string;
  context: ContextRef;
}

/** The one place that sets retry, backoff and retention for every job. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};
