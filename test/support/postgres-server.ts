import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { postgresAnswers } from '@finance/shared/testing/servers';
import { waitFor } from './wait-for.ts';

/** The newest PostgreSQL server binaries of the machine (Debian layout). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL under ${root}`);
  return join(root, versions[0], 'bin');
}

/**
 * A private PostgreSQL (initdb + pg_ctl in a temp dir, trust auth, user postgres) that a test may
 * stop and start again on the same port, leaving the machine's shared server alone. As root, the
 * server runs as the `postgres` system user (initdb refuses root).
 */
export class DisposablePostgres {
  readonly port: number;
  private readonly dir: string;
  private readonly bin = postgresBin();
  private readonly asRoot = process.getuid?.() === 0;

  constructor(port: number) {
    this.port = port;
    this.dir = mkdtempSync(join(tmpdir(), 'finance-pg-'));
    chmodSync(this.dir, 0o777);
  }

  /** Server URL (database `postgres`); tests pick their own database on it. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private command(command: string, args: string[]): [string, string[]] {
    return this.asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(this.bin, command), ...args]]
      : [join(this.bin, command), args];
  }

  private run(command: string, args: string[]): void {
    const [file, argv] = this.command(command, args);
    execFileSync(file, argv, { stdio: 'ignore' });
  }

  private running(): boolean {
    if (!readdirSync(this.dir).includes('data')) return false;
    const [file, argv] = this.command('pg_ctl', ['-D', this.data, 'status']);
    return spawnSync(file, argv, { stdio: 'ignore' }).status === 0;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  async start(): Promise<void> {
    if (this.running()) return;
    if (!readdirSync(this.dir).includes('data')) {
      this.run('initdb', ['-D', this.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    }
    this.run('pg_ctl', [
      '-D',
      this.data,
      '-l',
      join(this.dir, 'server.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-w',
      'start',
    ]);
    await waitFor(() => postgresAnswers(this.url), 15_000, 50);
  }

  /**
   * Immediate stop: every connection drops, as in a crash or a failover. Not a blocking call: the services this
   * process hosts handle their connections' closures as they come, as separate processes would, instead of all at
   * once behind the test's next request.
   */
  async stop(): Promise<void> {
    if (!this.running()) return;
    const [file, argv] = this.command('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    await promisify(execFile)(file, argv);
  }

  /** Stops the server if it runs and removes its files. */
  async destroy(): Promise<void> {
    if (this.running()) this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
