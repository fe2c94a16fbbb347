import type { DomainEvent } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, runsTogether } from '@finance/shared/queue/event-batches';
import { UnrecoverableError } from 'bullmq';
import fc from 'fast-check';

type Outcome = 'ok' | 'retry' | 'malformed';

const event = (id: number) => ({ event_id: String(id), type: 'transaction.changed' }) as DomainEvent;

/** A consumer that records what it was asked to do and answers each call with its scripted outcome. */
function consumer(outcomes: Outcome[], finish: Outcome) {
  const handled: string[] = [];
  let finished = false;
  const answer = async (outcome: Outcome) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (outcome === 'retry') throw new Error('banco indisponível');
    if (outcome === 'malformed') throw new UnrecoverableError('malformed event');
  };
  const run: EventBatchRun = {
    async handle(item) {
      handled.push(item.event_id);
      await answer(outcomes[Number(item.event_id)]);
    },
    async finish() {
      finished = true;
      await answer(finish);
    },
  };
  return { run, handled: () => handled, finished: () => finished };
}

const failureOf = async (work: Promise<void>) =>
  work.then(
    () => null,
    (err: unknown) => err,
  );

describe('consumers of one service reading the same relayed batch (runsTogether)', () => {
  const outcome = fc.constantFrom<Outcome>('ok', 'retry', 'malformed');

  it('every consumer handles every event and finishes whatever the others did; a retryable failure wins', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }).chain((events) =>
          fc.array(
            fc.record({ handles: fc.array(outcome, { minLength: events, maxLength: events }), finish: outcome }),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        ),
        async (scripts) => {
          const consumers = scripts.map((script) => consumer(script.handles, script.finish));
          const together = runsTogether(consumers.map((item) => item.run));
          const events = scripts[0].handles.map((_, index) => event(index));
          for (const item of events) {
            const failure = await failureOf(together.handle(item));
            const outcomes = scripts.map((script) => script.handles[Number(item.event_id)]);
            if (outcomes.every((value) => value === 'ok')) expect(failure).toBeNull();
            else if (outcomes.includes('retry')) expect(failure).not.toBeInstanceOf(UnrecoverableError);
            else expect(failure).toBeInstanceOf(UnrecoverableError);
          }
          const finishFailure = await failureOf(together.finish?.() ?? Promise.resolve());
          expect(finishFailure === null).toBe(scripts.every((script) => script.finish === 'ok'));
          for (const item of consumers) {
            expect(item.handled()).toEqual(events.map((each) => each.event_id));
            expect(item.finished()).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a consumer without a finish step is skipped at the end', async () => {
    const only = consumer(['ok'], 'ok');
    const together = runsTogether([{ handle: only.run.handle }, only.run]);
    await expect(together.finish?.()).resolves.toBeUndefined();
    expect(only.finished()).toBe(true);
  });
});
