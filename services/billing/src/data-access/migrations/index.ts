import { AddIdempotencyRecoveryPoint, CreateIdempotencyKeysTable } from '@finance/shared/db/idempotency-records';
import type { MigrationList } from '@finance/shared/db/orm';
import { CreateInboxTable } from '@finance/shared/queue/inbox';
import {
  AddOutboxClaim,
  AddOutboxJobQueue,
  CreateOutboxTable,
  OutboxDropPayloadBytes,
  OutboxPayloadAsText,
  OutboxPayloadBytes,
  OutboxRoomForClaims,
} from '@finance/shared/queue/outbox';
import { CreateCreditCardsAndBills } from './0001-create-credit-cards-and-bills.ts';
import { AddBillCarriedTo } from './0002-bill-carried-to.ts';
import { AddBillEvents } from './0003-bill-events.ts';
import { AddBillWorkLease } from './0003-bill-work-lease.ts';
import { AddCardCalendarVersions } from './0003-card-calendar-versions.ts';
import { ContextKey } from './0008-context-key.ts';
import { AnnouncementIndexes } from './0009-announcement-indexes.ts';
import { BankAvailableLimit } from './0011-bank-available-limit.ts';
import { CardWithoutAccount } from './0012-card-without-account.ts';
import { BillsOfDeletedCards } from './0013-bills-of-deleted-cards.ts';

export const billingMigrations: MigrationList = [
  { name: '0000-create-inbox', class: CreateInboxTable },
  { name: '0001-create-credit-cards-and-bills', class: CreateCreditCardsAndBills },
  { name: '0002-bill-carried-to', class: AddBillCarriedTo },
  { name: '0003-bill-work-lease', class: AddBillWorkLease },
  { name: '0100-create-idempotency-keys', class: CreateIdempotencyKeysTable },
  { name: '0003-card-calendar-versions', class: AddCardCalendarVersions },
  { name: '0003-create-outbox', class: CreateOutboxTable },
  { name: '0003-outbox-job-queue', class: AddOutboxJobQueue },
  { name: '0003-bill-events', class: AddBillEvents },
  { name: '0004-outbox-claim', class: AddOutboxClaim },
  { name: '0005-outbox-fillfactor', class: OutboxRoomForClaims },
  { name: '0006-outbox-payload-json', class: OutboxPayloadAsText },
  { name: '0007-outbox-payload-bytes', class: OutboxPayloadBytes },
  { name: '0008-context-key', class: ContextKey },
  { name: '0009-announcement-indexes', class: AnnouncementIndexes },
  { name: '0010-outbox-drop-payload-bytes', class: OutboxDropPayloadBytes },
  { name: '0011-bank-available-limit', class: BankAvailableLimit },
  { name: '0012-card-without-account', class: CardWithoutAccount },
  { name: '0013-bills-of-deleted-cards', class: BillsOfDeletedCards },
  { name: '0101-idempotency-recovery-point', class: AddIdempotencyRecoveryPoint },
];
