import { runClockFrom } from '../clock.ts';

/**
 * Jest's setup of every test file: with `TEST_NOW` (an ISO 8601 instant, e.g. `2026-12-31T23:30:00-03:00`, in the
 * environment or given by an edge-day project of jest.config.cjs) the one clock runs from that instant, so the
 * suites that touch dates can be run on any day (docs/contributing.md, "Dates in tests"). Only tests load this
 * file; the clock refuses to move outside NODE_ENV=test.
 */
const instant = (globalThis as { TEST_NOW?: string }).TEST_NOW ?? process.env.TEST_NOW;
if (instant) runClockFrom(instant);
