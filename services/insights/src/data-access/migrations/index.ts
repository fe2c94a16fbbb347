import type { MigrationList } from '@finance/shared/db/orm';
import { CreateInboxTable } from '@finance/shared/queue/inbox';
import { CreateLimitsGoalsNotifications } from './0001-create-limits-goals-notifications.ts';
import { CreateInvestments } from './0002-create-investments.ts';
import { CreateContextTimeZones } from './0003-context-time-zones.ts';

export const insightsMigrations: MigrationList = [
  { name: '0000-create-inbox', class: CreateInboxTable },
  { name: '0001-create-limits-goals-notifications', class: CreateLimitsGoalsNotifications },
  { name: '0002-create-investments', class: CreateInvestments },
  { name: '0003-context-time-zones', class: CreateContextTimeZones },
];
