import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { createServer } from './node-http.ts';

/** Each server's connections that have sent no request yet (a client's spare socket): nothing to drain. */
const silentConnections = new WeakMap<Server, Set<Socket>>();

export function listen(app: Express, port: number): Promise<Server> {
  // update-many takes up to 500 ids in the query string (~19 KB), above Node's 16 KB default
  const server = createServer({ maxHeaderSize: 64 * 1024 }, app);
  // keep-alive longer than typical load balancers' idle timeout, so they close first
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const silent = new Set<Socket>();
  silentConnections.set(server, silent);
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  server.on('request', (req) => silent.delete(req.socket));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

/** Shutdown state an app reads (createApp's `drain`): while draining, /readyz answers 503 and responses close their connection. */
export interface DrainState {
  draining: boolean;
}

/**
 * Graceful stop of an HTTP server: mark it draining (load balancers see /readyz fail, keep-alive
 * clients are told to reconnect), keep serving for `delayMs`, then close as closeServer does.
 */
export async function drainAndClose(
  server: Server,
  drain: DrainState,
  options: { delayMs: number; timeoutMs: number },
): Promise<void> {
  drain.draining = true;
  if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  await closeServer(server, options.timeoutMs);
}

/** Stops accepting, lets in-flight requests finish, drops idle and silent sockets as they are; forces after the timeout. */
export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    // keep-alive sockets become idle as their last response ends: drop them then, not at the timeout; Node
    // counts a connection that has sent nothing as awaiting its headers, so those are dropped here too
    const dropIdle = () => {
      server.closeIdleConnections();
      for (const socket of silentConnections.get(server) ?? []) socket.destroy();
    };
    const sweep = setInterval(dropIdle, 50);
    sweep.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      resolve();
    });
    dropIdle();
  });
}
