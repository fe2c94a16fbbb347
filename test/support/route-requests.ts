import type { AnyRoute } from '@finance/shared/contracts/route';

/**
 * A request body a route accepts as a client would send it: a file route's example file in its first media type,
 * else the contract's example JSON (or `{}` when it has a body schema and no example). What the every-route suites send.
 */
export function sampleBody(route: AnyRoute): { body?: unknown; rawBody?: string; headers?: Record<string, string> } {
  if (route.file) return { rawBody: route.file.example, headers: { 'content-type': route.file.mediaTypes[0] } };
  return route.body ? { body: route.example ?? {} } : {};
}
