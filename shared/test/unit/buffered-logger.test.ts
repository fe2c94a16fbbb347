import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOGGER = fileURLToPath(new URL('../../src/logger.ts', import.meta.url));

/** Runs `body` in a fresh Node process with `log` (a buffered logger) in scope; resolves with its stdout lines. */
function runWithLogger(
  body: string,
  { onLine, onStderr }: { onLine?: (line: string, kill: () => void) => void; onStderr?: (chunk: string) => void } = {},
) {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER)};
const log = createLogger('probe', 'info', 3072);
${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      onLine?.(line, () => child.kill('SIGKILL'));
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    onStderr?.(chunk);
  });
  return new Promise<{ lines: string[]; code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ lines, code, stderr })),
  );
}

const messages = (lines: string[]) => lines.map((line) => JSON.parse(line).msg as string);

describe('buffered logger (LOG_BUFFER_BYTES)', () => {
  it('when the process exits with lines still in the buffer, then every line is written, in order', async () => {
    const { lines, code, stderr } = await runWithLogger(
      `for (let i = 0; i < 50; i++) log.info({ i }, 'line ' + i);
process.exit(3);`,
    );
    expect(stderr).toBe('');
    expect(code).toBe(3);
    expect(messages(lines)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
  });

  it('when an uncaught error ends the process, then the lines logged before it are written', async () => {
    const { lines, code } = await runWithLogger(`log.info('before the crash');
log.error('about to fail');
setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(code).not.toBe(0);
    expect(messages(lines)).toEqual(['before the crash', 'about to fail']);
  });

  it('when a few lines are logged and the process stays up, then they are held for a batch and still reach stdout within about a second', async () => {
    let loggedAt = 0;
    let arrivedAt = 0;
    const { lines } = await runWithLogger(
      `log.info('first'); log.info('second');
process.stderr.write('logged\\n');
setTimeout(() => {}, 5_000);`,
      {
        onStderr: () => {
          loggedAt ||= Date.now();
        },
        onLine: (_line, kill) => {
          arrivedAt ||= Date.now();
          kill();
        },
      },
    );
    expect(messages(lines)).toEqual(['first', 'second']);
    // written by the flush that runs every second, not line by line as they were logged
    expect(arrivedAt - loggedAt).toBeGreaterThan(500);
    expect(arrivedAt - loggedAt).toBeLessThan(3_000);
  });
});
