import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import { markForecastsDue } from '../../data-access/cash-flow-watches.ts';

/**
 * Something a forecast reads changed in these contexts (their entries, accounts, preferences, zone or goals): their
 * shortfall alerts are worked out again on the next run of the cash-flow job, within the minute.
 */
export const forecastInputsChanged = (em: EntityManager, contexts: ContextRef[]): Promise<void> =>
  markForecastsDue(em, contexts);
