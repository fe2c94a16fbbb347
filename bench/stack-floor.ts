import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pssMb, rssMb } from './topology.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROBE = fileURLToPath(new URL('./stack-floor.mjs', import.meta.url));

/**
 * The memory at rest (MB) of `stack-floor.mjs`, a process holding only the libraries every service is built on,
 * started as `npm start` starts a service (through scripts/runtime.sh: its V8 flags, allocator and compile cache) and read `settleMs` after
 * it is ready, as the services are: the floor under each service's RSS and PSS while each runs its own Node.
 */
export async function stackFloor(
  env: { DATABASE_URL: string; REDIS_URL: string },
  settleMs = 5000,
): Promise<{ rss: number; pss: number }> {
  const child = spawn('sh', ['scripts/runtime.sh', process.execPath, PROBE], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('"msg":"ready"')) resolve();
      });
      exited.then((code) => reject(new Error(`stack-floor.mjs exited with ${code} before it was ready`)));
    });
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const rss = rssMb(child.pid ?? 0);
    const pss = pssMb(child.pid ?? 0);
    if (rss === null || pss === null) throw new Error('stack-floor.mjs: no memory figures in /proc (not Linux?)');
    return { rss, pss };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
