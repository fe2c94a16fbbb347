import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every call; `failFirst(path, n)` answers 500 to the first n
 * calls on that path, `failAlways(path)` to all of them, anything else gets 204.
 */
export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  private readonly failures = new Map<string, number>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.calls.push({
          path,
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const left = this.failures.get(path) ?? 0;
        if (left > 0) {
          this.failures.set(path, left - 1);
          res.writeHead(500).end('falhou');
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  failFirst(path: string, times: number): void {
    this.failures.set(path, times);
  }

  failAlways(path: string): void {
    this.failures.set(path, Number.POSITIVE_INFINITY);
  }

  on(path: string): ReceivedCall[] {
    return this.calls.filter((call) => call.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
