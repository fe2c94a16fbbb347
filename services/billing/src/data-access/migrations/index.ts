import type { MigrationList } from '@finance/shared/db/orm';
import { CreateInboxTable } from '@finance/shared/queue/inbox';
import { CreateCreditCardsAndBills } from './0001-create-credit-cards-and-bills.ts';

export const billingMigrations: MigrationList = [
  { name: '0000-create-inbox', class: CreateInboxTable },
  { name: '0001-create-credit-cards-and-bills', class: CreateCreditCardsAndBills },
];
