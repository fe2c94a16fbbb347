import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { withActivity } from '../service/activity.ts';
import { unavailable } from './dependency-outage.ts';

/** Every answer the process has not finished yet (all the apps of the process: a fault ends them all). */
const inFlight = new Set<ServerResponse>();
let failing = false;

/**
 * Test hook, set only by code running in the process (a test's preload): runs for each request before the app
 * handles it, in its context.
 */
export const inFlightTestHooks: { onRequest?: (req: Request) => Promise<void> | void } = {};

/** The documented 503 on the raw response (nothing the handler set in between is kept); the connection closes. */
function answerUnavailable(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const error = unavailable();
  const body = JSON.stringify(error.toBody());
  res.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
    ...error.headers,
  });
  res.end(body);
  // a handler that goes on answering later writes nothing more
  Object.assign(res, { json: () => res, send: () => res });
}

/**
 * Runs each request as an activity named by its id and keeps it among the answers in flight until its answer
 * ends; once the process is failing (`answerInFlightUnavailable`), a new request gets the 503 at once.
 */
export function trackInFlight(req: Request, res: Response, next: NextFunction): void {
  if (failing) {
    answerUnavailable(res);
    return;
  }
  inFlight.add(res);
  res.once('close', () => inFlight.delete(res));
  withActivity({ req_id: req.id }, () => {
    const hook = inFlightTestHooks.onRequest;
    if (!hook) next();
    else Promise.resolve(hook(req)).then(() => next(), next);
  });
}

/**
 * After a fault that ends the process: every request not answered yet gets the documented 503 (a keyed retry
 * then replays what committed), and so does any that still arrives; resolves once the answers have left, or
 * after `timeoutMs`.
 */
export async function answerInFlightUnavailable(timeoutMs: number): Promise<void> {
  failing = true;
  const answers = [...inFlight].map(
    (res) =>
      new Promise<void>((resolve) => {
        res.once('close', resolve);
        answerUnavailable(res);
        if (res.writableFinished || res.destroyed) resolve();
      }),
  );
  await Promise.race([Promise.all(answers), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
}
