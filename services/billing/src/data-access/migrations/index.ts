import type { MigrationList } from '@finance/shared/db/orm';
import { CreateInboxTable } from '@finance/shared/queue/inbox';
import { AddOutboxJobQueue, CreateOutboxTable } from '@finance/shared/queue/outbox';
import { CreateCreditCardsAndBills } from './0001-create-credit-cards-and-bills.ts';
import { AddBillCarriedTo } from './0002-bill-carried-to.ts';
import { AddBillEvents } from './0003-bill-events.ts';

export const billingMigrations: MigrationList = [
  { name: '0000-create-inbox', class: CreateInboxTable },
  { name: '0001-create-credit-cards-and-bills', class: CreateCreditCardsAndBills },
  { name: '0002-bill-carried-to', class: AddBillCarriedTo },
  { name: '0003-create-outbox', class: CreateOutboxTable },
  { name: '0003-outbox-job-queue', class: AddOutboxJobQueue },
  { name: '0003-bill-events', class: AddBillEvents },
];
