import type { CallerContext } from '@finance/shared/context/signed-context';
import { anyUuid } from '@finance/shared/contracts/common';
import { validDay } from '@finance/shared/contracts/insights/fields';
import Joi from 'joi';

export type ImportedPosition = {
  investment_id: string;
  name: string;
  bank_name: string;
  type: string;
  subtype: string | null;
  snapshots: Array<{ date: string; balance_cents: number }>;
};

export type ImportedInvestments = {
  backgroundJobId: string;
  ctx: CallerContext;
  connectionId: string;
  positions: ImportedPosition[];
};

const text = () => Joi.string().trim().min(1).max(500);

const payloadSchema = Joi.object({
  background_job_id: text().required(),
  context: Joi.object({ user_id: anyUuid().required(), profile_id: anyUuid().allow(null).required() }).required(),
  connection_id: text().required(),
  investments: Joi.array()
    .items(
      Joi.object({
        investment_id: text().required(),
        name: text().required(),
        bank_name: text().required(),
        type: text().required(),
        subtype: text().allow(null, ''),
        // a safe integer of cents (Joi rejects unsafe numbers), so bigint storage is exact
        snapshots: Joi.array()
          .items(Joi.object({ date: validDay().required(), balance_cents: Joi.number().integer().strict().required() }))
          .required(),
      }),
    )
    .required(),
});

/**
 * Validates an `investments.imported` payload; returns the reason when it is poisoned.
 * The same investment or day twice in one payload: the last one wins (as in the yield report).
 */
export function parseInvestmentsImported(data: unknown): ImportedInvestments | { error: string } {
  const { value, error } = payloadSchema.validate(data, { abortEarly: true, allowUnknown: true, stripUnknown: true });
  if (error) return { error: `payload investments.imported inválido: ${error.message}` };
  const byId = new Map<string, ImportedPosition>();
  for (const item of value.investments as ImportedPosition[]) {
    const days = new Map((byId.get(item.investment_id)?.snapshots ?? []).map((s) => [s.date, s.balance_cents]));
    for (const snapshot of item.snapshots) days.set(snapshot.date, snapshot.balance_cents);
    byId.set(item.investment_id, {
      investment_id: item.investment_id,
      name: item.name,
      bank_name: item.bank_name,
      type: item.type,
      subtype: item.subtype || null,
      snapshots: [...days].map(([date, balance_cents]) => ({ date, balance_cents })),
    });
  }
  return {
    backgroundJobId: value.background_job_id,
    ctx: { userId: value.context.user_id, profileId: value.context.profile_id, business: false, keyId: null },
    connectionId: value.connection_id,
    positions: [...byId.values()],
  };
}
