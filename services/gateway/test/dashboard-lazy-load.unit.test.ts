import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Runs the dashboard router in a fresh Node process and lists the bull-board modules it resolved. */
function bullBoardModulesLoaded(secret: string | null): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { if (specifier.startsWith('@bull-board/')) seen.push(specifier); return next(specifier, context); } });
    const { queueDashboardRouter } = await import('./services/gateway/src/entry-points/http/queue-dashboard.ts');
    // a stand-in registry: building the board may fail on it, what was resolved before is what counts
    await queueDashboardRouter(${JSON.stringify(secret ?? undefined) ?? 'undefined'}, { get: () => ({}) }).catch(() => undefined);
    console.log(JSON.stringify(seen));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop() as string) as string[];
}

describe('queue dashboard loading', () => {
  it('when ADMIN_SECRET is unset, then bull-board is never loaded', () => {
    expect(bullBoardModulesLoaded(null)).toEqual([]);
  });

  it('when ADMIN_SECRET is set, then bull-board is loaded for the dashboard', () => {
    expect(bullBoardModulesLoaded('an-admin-secret-0123456789')).toEqual(
      expect.arrayContaining(['@bull-board/api', '@bull-board/express']),
    );
  });
});
