import { DEFAULT_TIME_ZONE, now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import {
  CONFIG_DEFAULTS,
  CONFIG_FLAGS,
  type ConfigFlag,
  type PersonalConfigFields,
} from '@finance/shared/contracts/ledger/personal-config';
import { contextRef, contextWhere } from '@finance/shared/db/context-scope';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonalConfigSchema } from '../../data-access/entities/personal-config.ts';
import { upsertPersonalConfig } from '../../data-access/personal-config-repository.ts';

export type PersonalConfigView = Record<ConfigFlag, boolean> & {
  time_zone: string;
  cash_flow_threshold: number;
  configured: boolean;
};

/** The preferences in force for a context: saved values, or the defaults with `configured` false. */
export async function getPersonalConfig(em: EntityManager, ctx: CallerContext): Promise<PersonalConfigView> {
  const saved = await em.findOne(PersonalConfigSchema, contextWhere(ctx));
  if (!saved) return { ...CONFIG_DEFAULTS, time_zone: DEFAULT_TIME_ZONE, cash_flow_threshold: 0, configured: false };
  return {
    auto_reconcile_enabled: saved.autoReconcileEnabled,
    include_bill_payments: saved.includeBillPayments,
    include_current_bill_in_to_pay: saved.includeCurrentBillInToPay,
    include_investments: saved.includeInvestments,
    include_transfers: saved.includeTransfers,
    show_open_bill: saved.showOpenBill,
    time_zone: saved.timeZone ?? DEFAULT_TIME_ZONE,
    cash_flow_threshold: saved.cashFlowThreshold,
    configured: true,
  };
}

/** The IANA zone whose calendar is the context's "today" (the default until the context sets one). */
export async function contextTimeZone(em: EntityManager, ctx: CallerContext): Promise<string> {
  const saved = await em.findOne(PersonalConfigSchema, contextWhere(ctx), { fields: ['timeZone'] });
  return saved?.timeZone ?? DEFAULT_TIME_ZONE;
}

/**
 * One upsert: the first save starts from the defaults, later ones change only the fields sent;
 * concurrent first saves meet on the per-context unique index instead of failing. A `time_zone` sent is
 * announced (`context.time_zone_changed`, same transaction) to the services that run daily jobs per context.
 */
export async function updatePersonalConfig(
  em: EntityManager,
  ctx: CallerContext,
  input: PersonalConfigFields,
): Promise<PersonalConfigView> {
  const values = { ...CONFIG_DEFAULTS, ...input };
  const sent = CONFIG_FLAGS.filter((flag) => input[flag] !== undefined);
  const columns = [
    ...sent,
    ...(input.time_zone !== undefined ? ['time_zone'] : []),
    ...(input.cash_flow_threshold !== undefined ? ['cash_flow_threshold'] : []),
  ];
  const at = now();
  return em.transactional(async (tx) => {
    const row = await upsertPersonalConfig(tx, ctx, {
      flags: CONFIG_FLAGS.map((flag) => values[flag]),
      columns,
      timeZone: input.time_zone ?? null,
      threshold: input.cash_flow_threshold ?? 0,
      at,
    });
    if (input.time_zone !== undefined) {
      // stamped after the upsert took the row's lock, so concurrent changes are stamped in commit order
      recordEvent(tx, 'context.time_zone_changed', contextRef(ctx), {
        time_zone: row.time_zone ?? DEFAULT_TIME_ZONE,
        changed_at: row.changed_at,
      });
    }
    // what changes totals changes the cash-flow forecast: insights evaluates its alerts again
    if (columns.some((column) => column !== 'time_zone')) {
      recordEvent(tx, 'context.preferences_changed', contextRef(ctx), { fields: columns });
    }
    return keepAnswer(await getPersonalConfig(tx, ctx));
  });
}
