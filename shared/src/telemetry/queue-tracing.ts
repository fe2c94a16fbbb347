import { BullMQOtel } from 'bullmq-otel';

let queueTelemetry: BullMQOtel | null = null;

/** BullMQ's telemetry hook for every Queue and Worker: producer and consumer spans joined by job metadata. */
export function bullTelemetry(): BullMQOtel {
  queueTelemetry ??= new BullMQOtel({ tracerName: 'finance-queues' });
  return queueTelemetry;
}
