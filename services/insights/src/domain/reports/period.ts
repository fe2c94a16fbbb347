import type { Period } from '@finance/shared/contracts/internal/ledger-for-insights';
import { invalidField } from '@finance/shared/errors/app-error';

export function assertPeriod(period: Period): Period {
  if (period.end_date < period.start_date) {
    throw invalidField('end_date', 'end_date não pode ser anterior a start_date');
  }
  return period;
}
