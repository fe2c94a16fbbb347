import type { CallerContext } from '@finance/shared/context/signed-context';
import { CONFIG_DEFAULTS, CONFIG_FLAGS, type ConfigFlag } from '@finance/shared/contracts/ledger/personal-config';
import { newId } from '@finance/shared/db/base-entity';
import { contextWhere } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonalConfigSchema } from '../../data-access/entities/personal-config.ts';

export type PersonalConfigInput = Partial<Record<ConfigFlag, boolean>>;
export type PersonalConfigView = Record<ConfigFlag, boolean> & { configured: boolean };

/** The preferences in force for a context: saved values, or the defaults with `configured` false. */
export async function getPersonalConfig(em: EntityManager, ctx: CallerContext): Promise<PersonalConfigView> {
  const saved = await em.findOne(PersonalConfigSchema, contextWhere(ctx));
  if (!saved) return { ...CONFIG_DEFAULTS, configured: false };
  return {
    auto_reconcile_enabled: saved.autoReconcileEnabled,
    include_bill_payments: saved.includeBillPayments,
    include_current_bill_in_to_pay: saved.includeCurrentBillInToPay,
    include_investments: saved.includeInvestments,
    include_transfers: saved.includeTransfers,
    show_open_bill: saved.showOpenBill,
    configured: true,
  };
}

/**
 * One upsert: the first save starts from the defaults, later ones change only the flags sent;
 * concurrent first saves meet on the per-context unique index instead of failing.
 */
export async function updatePersonalConfig(
  em: EntityManager,
  ctx: CallerContext,
  input: PersonalConfigInput,
): Promise<PersonalConfigView> {
  const values = { ...CONFIG_DEFAULTS, ...input };
  const sent = CONFIG_FLAGS.filter((flag) => input[flag] !== undefined);
  const now = new Date();
  await em.getConnection().execute(
    `insert into personal_configs (id, user_id, profile_id, ${CONFIG_FLAGS.join(', ')}, created_at, updated_at)
     values (?, ?, ?, ${CONFIG_FLAGS.map(() => '?').join(', ')}, ?, ?)
     on conflict (coalesce(profile_id, user_id)) do update set
       ${[...sent.map((flag) => `${flag} = excluded.${flag}`), 'updated_at = excluded.updated_at'].join(', ')}`,
    [newId(), ctx.userId, ctx.profileId, ...CONFIG_FLAGS.map((flag) => values[flag]), now, now],
    'run',
  );
  return getPersonalConfig(em.fork(), ctx);
}
