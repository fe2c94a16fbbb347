import { AddIdempotencyRecoveryPoint, CreateIdempotencyKeysTable } from '@finance/shared/db/idempotency-records';
import type { MigrationList } from '@finance/shared/db/orm';
import {
  AddOutboxClaim,
  AddOutboxJobQueue,
  CreateOutboxTable,
  OutboxDropPayloadBytes,
  OutboxPayloadAsText,
  OutboxPayloadBytes,
  OutboxRoomForClaims,
} from '@finance/shared/queue/outbox';
import { CreateAccounts } from './0001-create-accounts.ts';
import { CreateTransactions } from './0002-create-transactions.ts';
import { CreateCategoriesTags } from './0003-create-categories-tags.ts';
import { CreatePreferencesBusiness } from './0004-create-preferences-business.ts';
import { SeedSystemCategories } from './0005-seed-system-categories.ts';
import { CreateBillRolloverEntries } from './0006-create-bill-rollover-entries.ts';
import { CreateBackgroundJobs } from './0007-create-background-jobs.ts';
import { CreateCategorizationRules } from './0008-create-categorization-rules.ts';
import { CreateOpenBanking } from './0009-create-open-banking.ts';
import { IndexTransactionsByBill } from './0011-index-transactions-by-bill.ts';
import { AddRecurrenceEnd } from './0012-recurrence-end.ts';
import { CreateCardCalendars } from './0013-card-calendars.ts';
import { MerchantNameNfd } from './0013-merchant-name-nfd.ts';
import { TaxesDefaultToDeducoes } from './0013-taxes-default-deducoes.ts';
import { CategoryDirectionOptional } from './0014-category-direction-optional.ts';
import { AddContextTimeZone } from './0014-context-time-zone.ts';
import { UserEditedFields } from './0015-user-edited-fields.ts';
import { RecategorizationLanes } from './0019-recategorization-lanes.ts';
import { ContextKey } from './0021-context-key.ts';
import { RecurrenceDueDates } from './0022-recurrence-due-dates.ts';
import { ImportPipeline } from './0024-import-pipeline.ts';
import { OpenFinanceConnections } from './0025-open-finance-connections.ts';
import { ImportKeysPerHolder } from './0026-import-keys-per-holder.ts';
import { ConnectionSyncOutcome } from './0027-connection-sync-outcome.ts';
import { ConnectionSyncRequests } from './0028-connection-sync-requests.ts';
import { StatementFiles } from './0029-statement-files.ts';
import { TransactionSplits } from './0030-transaction-splits.ts';
import { BalanceCoveringIndexes } from './0031-balance-covering-indexes.ts';
import { SyncStagedEntries } from './0032-sync-staged-entries.ts';

export const ledgerMigrations: MigrationList = [
  { name: '0000-create-outbox', class: CreateOutboxTable },
  { name: '0001-create-accounts', class: CreateAccounts },
  { name: '0002-create-transactions', class: CreateTransactions },
  { name: '0003-create-categories-tags', class: CreateCategoriesTags },
  { name: '0004-create-preferences-business', class: CreatePreferencesBusiness },
  { name: '0005-seed-system-categories', class: SeedSystemCategories },
  { name: '0006-create-bill-rollover-entries', class: CreateBillRolloverEntries },
  { name: '0007-create-background-jobs', class: CreateBackgroundJobs },
  { name: '0008-create-categorization-rules', class: CreateCategorizationRules },
  { name: '0009-create-open-banking', class: CreateOpenBanking },
  { name: '0010-outbox-job-queue', class: AddOutboxJobQueue },
  { name: '0011-index-transactions-by-bill', class: IndexTransactionsByBill },
  { name: '0012-recurrence-end', class: AddRecurrenceEnd },
  { name: '0013-merchant-name-nfd', class: MerchantNameNfd },
  { name: '0014-category-direction-optional', class: CategoryDirectionOptional },
  { name: '0015-user-edited-fields', class: UserEditedFields },
  { name: '0100-create-idempotency-keys', class: CreateIdempotencyKeysTable },
  { name: '0013-card-calendars', class: CreateCardCalendars },
  { name: '0013-taxes-default-deducoes', class: TaxesDefaultToDeducoes },
  { name: '0014-context-time-zone', class: AddContextTimeZone },
  { name: '0016-outbox-claim', class: AddOutboxClaim },
  { name: '0017-outbox-fillfactor', class: OutboxRoomForClaims },
  { name: '0018-outbox-payload-json', class: OutboxPayloadAsText },
  { name: '0019-recategorization-lanes', class: RecategorizationLanes },
  { name: '0020-outbox-payload-bytes', class: OutboxPayloadBytes },
  { name: '0021-context-key', class: ContextKey },
  { name: '0022-recurrence-due-dates', class: RecurrenceDueDates },
  { name: '0023-outbox-drop-payload-bytes', class: OutboxDropPayloadBytes },
  { name: '0024-import-pipeline', class: ImportPipeline },
  { name: '0025-open-finance-connections', class: OpenFinanceConnections },
  { name: '0026-import-keys-per-holder', class: ImportKeysPerHolder },
  { name: '0027-connection-sync-outcome', class: ConnectionSyncOutcome },
  { name: '0028-connection-sync-requests', class: ConnectionSyncRequests },
  { name: '0029-statement-files', class: StatementFiles },
  { name: '0030-transaction-splits', class: TransactionSplits },
  { name: '0031-balance-covering-indexes', class: BalanceCoveringIndexes },
  { name: '0032-sync-staged-entries', class: SyncStagedEntries },
  { name: '0101-idempotency-recovery-point', class: AddIdempotencyRecoveryPoint },
];
