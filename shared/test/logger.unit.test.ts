import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const LOGGER = path.resolve(import.meta.dirname, '../src/logger.ts');
const LINES = 2_000;

/** A process that logs `LINES` lines and then kills itself: what stdout received before the kill. */
async function linesBeforeSigkill(): Promise<string[]> {
  const script = `
    const { createLogger } = await import(${JSON.stringify(LOGGER)});
    const logger = createLogger('probe');
    for (let i = 0; i < ${LINES}; i++) logger.info({ i }, 'linha');
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const [, signal] = await once(child, 'exit');
  expect(signal).toBe('SIGKILL');
  return out.split('\n').filter(Boolean);
}

describe('createLogger: the services’ log lines', () => {
  it('when the process is killed right after logging, then every line it logged is on stdout, in order', async () => {
    const lines = await linesBeforeSigkill();
    expect(lines).toHaveLength(LINES);
    const parsed = lines.map((line) => JSON.parse(line) as { i: number; service: string; msg: string });
    expect(parsed.map((line) => line.i)).toEqual(Array.from({ length: LINES }, (_, i) => i));
    expect(parsed[0]).toMatchObject({ service: 'probe', msg: 'linha' });
  });
});
