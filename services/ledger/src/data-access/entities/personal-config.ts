import { OwnedSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

/** Saved preferences of one context; absent until the first PUT (defaults apply). */
export const PersonalConfigSchema = defineEntity({
  name: 'PersonalConfig',
  tableName: 'personal_configs',
  extends: OwnedSchema,
  properties: {
    autoReconcileEnabled: p.boolean(),
    includeBillPayments: p.boolean(),
    includeCurrentBillInToPay: p.boolean(),
    includeInvestments: p.boolean(),
    includeTransfers: p.boolean(),
    showOpenBill: p.boolean(),
    /** IANA zone of the context's day; null = the default (America/Sao_Paulo). */
    timeZone: p.string().nullable(),
    /** Cents: a projected balance below it is a cash-flow shortfall. */
    cashFlowThreshold: p.bigint('number').default(0),
  },
});
export type PersonalConfig = InferEntity<typeof PersonalConfigSchema>;
