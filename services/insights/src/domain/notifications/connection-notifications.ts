import type { ConnectionEnded, DomainEvent } from '@finance/shared/queue/catalogue';
import type { NewNotification } from '../../data-access/notification-writes.ts';

/** The notification of a connection whose consent ended at the institution (once per event). */
export function connectionNotification(event: DomainEvent<ConnectionEnded>): NewNotification {
  const { data } = event;
  const expired = event.type === 'connection.expired';
  return {
    userId: event.context.user_id,
    profileId: event.context.profile_id ?? null,
    kind: expired ? 'CONNECTION_EXPIRED' : 'CONNECTION_REVOKED',
    title: expired ? `Conexão com ${data.institution} expirou` : `Conexão com ${data.institution} revogada`,
    message: expired
      ? `O consentimento com ${data.institution} expirou; renove a conexão para voltar a sincronizar.`
      : `O consentimento com ${data.institution} foi revogado na instituição; renove a conexão para voltar a sincronizar.`,
    data: { connection_id: data.connection_id, status: data.status, reason: data.reason },
    dedupeKey: `connection:${data.connection_id}:${event.event_id}`,
  };
}
