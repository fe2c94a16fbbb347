import { notFoundHandler } from '@finance/shared/http/error-middleware';
import { QUEUES } from '@finance/shared/queue/catalogue';
import type { QueueRegistry } from '@finance/shared/queue/queues';
import express, { type Router } from 'express';
import { requireAdmin } from './require-admin.ts';

export const DASHBOARD_PATH = '/admin/queues';

// the dashboard page boots with inline scripts and styles; the rest of the API keeps helmet's strict CSP
const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * bull-board at `/admin/queues` over every queue of the catalogue (this environment's prefix), to see
 * and retry failed jobs. Without ADMIN_SECRET the path does not exist: like any unknown path, 401 without
 * an API key, 404 with one. bull-board (its UI and validation library) loads only when the dashboard is on.
 */
export async function queueDashboardRouter(secret: string | undefined, queues: QueueRegistry): Promise<Router> {
  const router = express.Router();
  if (!secret) return router;
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(QUEUES).map((name) => new BullMQAdapter(queues.get(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Finance queues' } },
  });
  router.use(
    '/queues',
    requireAdmin(secret),
    (_req, res, next) => {
      res.setHeader('content-security-policy', DASHBOARD_CSP);
      next();
    },
    serverAdapter.getRouter(),
    // an admin asking for a dashboard path that does not exist
    notFoundHandler,
  );
  return router;
}
