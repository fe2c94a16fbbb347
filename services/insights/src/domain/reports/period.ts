import type { PeriodQuery } from '@finance/shared/contracts/common';
import { invalidField } from '@finance/shared/errors/app-error';

export function assertPeriod(period: PeriodQuery): PeriodQuery {
  if (period.end_date < period.start_date) {
    throw invalidField('end_date', 'end_date não pode ser anterior a start_date');
  }
  return period;
}
