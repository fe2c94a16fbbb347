import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Topology {
  url: string;
  /** RSS in MB of `npm start`'s wrapper and each service process, by name. */
  rss(): Record<string, number>;
  /**
   * PSS in MB, by name: RSS with each shared page (the node binary's code, mapped by all five processes)
   * divided among the processes sharing it, so the sum is the group's real memory.
   */
  pss(): Record<string, number>;
  /** The pids of the wrapper and each service process, by name. */
  pids(): Record<string, number>;
  /** Banco Sandbox as `npm start` runs it beside the services (`sandbox: true`), its RSS apart from ours. */
  sandbox: { url: string; rss(): number | null } | null;
  stop(): Promise<void>;
}

/** A process's RSS in MB, or null once it has ended. */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** A process's PSS in MB (its shared pages divided among their sharers), or null once it has ended. */
export function pssMb(pid: number): number | null {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** The service processes `scripts/start.ts` spawned, named by the entry file on their command line (`ledger-files`: the ledger's worker role). */
function childrenOf(parent: number): Record<string, number> {
  const found: Record<string, number> = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const service = /services\/(\w+)\/src\/main\.ts/.exec(cmdline)?.[1];
      if (!service) continue;
      // the ledger's statement-file worker runs the ledger's main.ts in a role of its own
      const files = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes('ROLE=worker');
      found[files ? `${service}-files` : service] = Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm start not ready after ${timeoutMs} ms`);
}

/** One figure of the wrapper and of each service process, by name. */
function figuresOf(pid: number, read: (pid: number) => number | null): Record<string, number> {
  const figures: Record<string, number> = {};
  const wrapper = read(pid);
  if (wrapper !== null) figures.wrapper = wrapper;
  for (const [name, childPid] of Object.entries(childrenOf(pid))) {
    const value = read(childPid);
    if (value !== null) figures[name] = value;
  }
  return figures;
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** The wrapper's child running Banco Sandbox, if any. */
function sandboxOf(parent: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('sandbox/src/main.ts')) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return null;
}

/**
 * A first port of `count` free ones, below Linux's ephemeral range (32768 and up): a port there can be the local end
 * of one of the run's own connections, and a service that cannot bind exits and is restarted until it gives up.
 */
async function freeBase(count: number): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.map(bindable))).every(Boolean)) return base;
  }
}

/**
 * The production topology as `npm start` runs it: four processes (gateway, ledger, billing, insights, each
 * with its workers) under the `scripts/start.ts` wrapper, through scripts/runtime.sh, `NODE_ENV=production`, on
 * free ports. The compile cache is filled first, as a second `npm start` finds it (the first fills it while the
 * wrapper already runs). With `sandbox`, the wrapper also runs Banco Sandbox (`SANDBOX_BANK=on`) on a fifth port,
 * our callback its client's redirect URI, the ledger connected to it.
 */
export async function startTopology(
  env: Record<string, string>,
  { sandbox = false }: { sandbox?: boolean } = {},
): Promise<Topology> {
  const base = await freeBase(sandbox ? 5 : 4);
  const url = `http://127.0.0.1:${base}`;
  const sandboxEnv: Record<string, string> = sandbox
    ? {
        SANDBOX_BANK: 'on',
        SANDBOX_PORT: String(base + 4),
        OPEN_BANKING_REDIRECT_URI: `${url}/v1/open-banking/callback`,
        // production requires a keyring once an institution is configured: one made for this run
        OPEN_BANKING_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      }
    : {};
  execFileSync('sh', ['scripts/runtime.sh', process.execPath, 'scripts/warm-compile-cache.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const child = spawn('sh', ['scripts/runtime.sh', process.execPath, 'scripts/start.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // npm start's default: one access-log line per request in the gateway and the service (to /dev/null here)
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PORT: String(base),
      LEDGER_URL: `http://127.0.0.1:${base + 1}`,
      BILLING_URL: `http://127.0.0.1:${base + 2}`,
      INSIGHTS_URL: `http://127.0.0.1:${base + 3}`,
      INTERNAL_SECRET: 'bench-internal-secret-0123456789abcdef',
      ...sandboxEnv,
      ...env,
    },
  });
  await waitReady(url, child, 120_000);
  const pid = child.pid as number;
  return {
    url,
    rss: () => figuresOf(pid, rssMb),
    pss: () => figuresOf(pid, pssMb),
    pids: () => figuresOf(pid, (of) => of),
    sandbox: sandbox
      ? {
          url: `http://127.0.0.1:${base + 4}`,
          rss: () => {
            const found = sandboxOf(pid);
            return found === null ? null : rssMb(found);
          },
        }
      : null,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Samples `rss()` every `everyMs` while `work` runs and returns the highest figure of each process. */
export async function peakRss<T>(
  topology: Topology,
  work: () => Promise<T>,
  everyMs = 500,
): Promise<{ result: T; peak: Record<string, number> }> {
  const peak: Record<string, number> = {};
  const sample = () => {
    for (const [name, mb] of Object.entries(topology.rss())) peak[name] = Math.max(peak[name] ?? 0, mb);
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}
