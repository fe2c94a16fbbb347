import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DriveOptions, DriveResult } from './drive.ts';

/** The line the driver prints when its counted window starts (the CPU probes are read then). */
export const STEADY_LINE = 'steady';

const DRIVER = fileURLToPath(new URL('./drive.ts', import.meta.url));

/**
 * Runs autocannon in a child process (same Node) and returns its figures; `onSteady` runs when its warm-up ends
 * and its counted window starts.
 */
export function drive(options: DriveOptions, onSteady: () => void = () => {}): Promise<DriveResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRIVER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.startsWith(`${STEADY_LINE}\n`)) {
        stdout = stdout.slice(STEADY_LINE.length + 1);
        onSteady();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as DriveResult);
    });
  });
}
