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
import { CreateLimitsGoalsNotifications } from './0001-create-limits-goals-notifications.ts';
import { CreateInvestments } from './0002-create-investments.ts';
import { CreateContextTimeZones } from './0003-context-time-zones.ts';
import { CreateWebhooks } from './0003-create-webhooks.ts';
import { ContextKey } from './0008-context-key.ts';
import { DueWork } from './0009-due-work.ts';
import { ConnectionNotifications } from './0011-connection-notifications.ts';
import { CashFlowAlerts } from './0012-cash-flow-alerts.ts';

export const insightsMigrations: MigrationList = [
  { name: '0000-create-inbox', class: CreateInboxTable },
  { name: '0001-create-limits-goals-notifications', class: CreateLimitsGoalsNotifications },
  { name: '0002-create-investments', class: CreateInvestments },
  { name: '0100-create-idempotency-keys', class: CreateIdempotencyKeysTable },
  { name: '0003-create-outbox', class: CreateOutboxTable },
  { name: '0003-outbox-job-queue', class: AddOutboxJobQueue },
  { name: '0003-create-webhooks', class: CreateWebhooks },
  { name: '0003-context-time-zones', class: CreateContextTimeZones },
  { name: '0004-outbox-claim', class: AddOutboxClaim },
  { name: '0005-outbox-fillfactor', class: OutboxRoomForClaims },
  { name: '0006-outbox-payload-json', class: OutboxPayloadAsText },
  { name: '0007-outbox-payload-bytes', class: OutboxPayloadBytes },
  { name: '0008-context-key', class: ContextKey },
  { name: '0009-due-work', class: DueWork },
  { name: '0010-outbox-drop-payload-bytes', class: OutboxDropPayloadBytes },
  { name: '0011-connection-notifications', class: ConnectionNotifications },
  { name: '0012-cash-flow-alerts', class: CashFlowAlerts },
  { name: '0101-idempotency-recovery-point', class: AddIdempotencyRecoveryPoint },
];
