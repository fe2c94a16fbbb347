import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RELAY = fileURLToPath(new URL('./bare-relay.ts', import.meta.url));

/** Bare relays in front of the bare server: the production topology's hops with none of our code in them. */
export interface BareHops {
  /** `bareUrl` (a URL of the bare server) reached through `hops` relays, each its own process. */
  through(hops: 1 | 2, bareUrl: string): string;
  /** The pids of the relays a request through `hops` crosses, by name, for their CPU. */
  pids(hops: 1 | 2): Record<string, number>;
  stop(): Promise<void>;
}

/** Starts one relay process in front of `upstream` and resolves with it and its URL once it listens. */
function startRelay(upstream: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RELAY, upstream], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bare relay exited with ${code}`)));
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }));
  });
}

/**
 * Three relays for the bare server at `bareOrigin`: one alone (a request the gateway passes to one service) and
 * two chained (the gateway to a service that asks another: the bill through billing, a report through insights).
 */
export async function startBareHops(bareOrigin: string): Promise<BareHops> {
  const one = await startRelay(bareOrigin);
  const inner = await startRelay(bareOrigin);
  const outer = await startRelay(inner.url);
  const pid = (relay: { child: ChildProcess }) => relay.child.pid as number;
  return {
    through: (hops, bareUrl) => bareUrl.replace(bareOrigin, hops === 1 ? one.url : outer.url),
    pids: (hops): Record<string, number> =>
      hops === 1 ? { relay: pid(one) } : { 'outer relay': pid(outer), 'inner relay': pid(inner) },
    async stop() {
      for (const { child } of [one, inner, outer]) {
        child.removeAllListeners('exit');
        child.kill('SIGTERM');
      }
    },
  };
}
