import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the old generation grow past what its last full collection kept (`HEAP_GROWING_PERCENT`;
 * 0 leaves V8's own factor, up to 4× when collections are fast). A bill or a report allocates megabytes that
 * die within the request; with V8's factor a burst of them grows a service past 300 MB RSS of mostly garbage
 * (docs/performance.md, "Memory"). V8 reads the flag each time it sets the next limit, so setting it at start
 * works as the command-line flag does (Node refuses that one in NODE_OPTIONS).
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
