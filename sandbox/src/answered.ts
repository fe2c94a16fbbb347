import type { NextFunction, Request, Response } from 'express';

/**
 * The institution's own answer time: the wall time of each answer to its API clients (data, consents, token), from
 * the request in to the response finished, summed (`ms`), how many (`answers`), and the time at least one was in
 * flight (`busy_ms`: equal to `ms` while a receiver calls one at a time). What a receiver's sync takes beyond it
 * is the receiver's own (bench/bank-sync.ts).
 */
export class AnswerClock {
  private since = performance.now();
  private ms = 0;
  private answers = 0;
  private busyMs = 0;
  private inFlight = 0;
  private busySince = 0;

  /** Starts again from zero; an answer in flight counts from now. */
  reset(): void {
    this.since = performance.now();
    this.ms = 0;
    this.answers = 0;
    this.busyMs = 0;
    this.busySince = this.since;
  }

  toJSON() {
    const now = performance.now();
    const busy = this.busyMs + (this.inFlight > 0 ? now - Math.max(this.busySince, this.since) : 0);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return { ms: round(this.ms), answers: this.answers, busy_ms: round(busy) };
  }

  middleware() {
    return (_req: Request, res: Response, next: NextFunction) => {
      const started = performance.now();
      if (this.inFlight++ === 0) this.busySince = started;
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        const ended = performance.now();
        this.ms += ended - Math.max(started, this.since);
        this.answers += 1;
        if (--this.inFlight === 0) this.busyMs += ended - Math.max(this.busySince, this.since);
      };
      res.once('finish', end);
      // an answer the client gave up on never finishes: it must not stay in flight
      res.once('close', end);
      next();
    };
  }
}
