import { type ChildProcess, spawn } from 'node:child_process';
import { redisAnswers } from '@finance/shared/testing/servers';
import { waitFor } from './wait-for.ts';

/** A private redis-server this test can stop and start again on the same port. */
export class DisposableRedis {
  readonly port: number;
  private process: ChildProcess | null = null;

  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.process) return;
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitFor(() => redisAnswers(this.url), 10_000, 50);
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
