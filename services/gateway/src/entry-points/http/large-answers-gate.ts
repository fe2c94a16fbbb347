import { inFlightGate } from '@finance/shared/http/in-flight-gate';
import type { Handler } from './idempotency.ts';

/**
 * At most `inFlight` answers of the routes marked `largeAnswer` (a bill's megabytes) forwarded at once
 * (`LARGE_ANSWERS_IN_FLIGHT`), the others wait in order: every hop behind the gateway then holds at most that
 * many. A slot is held until the service's answer has been handed to the client's socket, not until the client
 * has read it, so a slow reader cannot keep other contexts' bills waiting; a request whose client left while
 * it waited is never forwarded.
 */
export function largeAnswersGate(inFlight: number): (handler: Handler) => Handler {
  const gate = inFlightGate(
    {
      name: 'gateway_large_answers',
      help: 'Answers of megabytes (bills) the gateway is forwarding (active) or keeps waiting for a slot (waiting)',
    },
    inFlight,
  );
  return (handler) => (req, res) => {
    let gone = false;
    res.once('close', () => {
      gone = true;
    });
    return gate(() => (gone ? Promise.resolve() : handler(req, res)));
  };
}
