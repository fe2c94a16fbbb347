import type { EntityManager } from '@mikro-orm/postgresql';
import { idempotencyScope, type KeptAnswer } from '../db/idempotency-records.ts';
import { JsonBytes, JsonStream, Reply } from './service-routes.ts';

/** The status and JSON text `mountRoute` sends for a handler's answer, as the key's record keeps them. */
function keptForm(answer: unknown, successStatus: number): KeptAnswer | null {
  // a stream is never kept before it is sent
  if (answer instanceof JsonStream) return null;
  if (answer instanceof Reply) {
    return { status: answer.status, body: answer.body === undefined ? null : JSON.stringify(answer.body) };
  }
  if (answer instanceof JsonBytes) {
    // sent parsed under a key (`mountRoute`), so kept as `res.json` writes it
    const parsed = JSON.parse(Buffer.concat(answer.pieces).toString('utf8'));
    return { status: successStatus, body: JSON.stringify(parsed) };
  }
  return { status: successStatus, body: answer === undefined ? null : JSON.stringify(answer) };
}

/**
 * The request's answer, known before its write commits: called inside the use case's transaction, it makes the
 * commit keep it in the `Idempotency-Key`'s record, so a retry after a process that died right after the commit
 * replays it (`docs/idempotency.md`). Returns `answer`; outside a keyed request it does nothing else.
 */
export function keepAnswer<T>(answer: T): T {
  const scope = idempotencyScope.getStore();
  if (scope && !scope.closed) scope.answer = keptForm(answer, scope.successStatus);
  return answer;
}

/**
 * For a use case whose answer comes only after its commit (it waits for a job, or tells another service first):
 * called inside its transaction, the commit keeps `point` (JSON) in the key's record, and a retry after a process
 * that died before answering rebuilds the answer from it with the route's `recover` (`mountRoute`), as a replay.
 * The answer the request sends replaces it.
 */
export function keepRecoveryPoint(point: object): void {
  const scope = idempotencyScope.getStore();
  if (scope && !scope.closed) scope.answer = { recovery: JSON.stringify(point) };
}

/** Flushes `em`'s changes in one transaction whose commit keeps the answer `answerOf` makes of them (`keepAnswer`). */
export function flushKeepingAnswer<T>(em: EntityManager, answerOf: () => T): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.flush();
    return keepAnswer(answerOf());
  });
}
