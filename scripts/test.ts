/**
 * `npm test`: every suite on two workers, then the timing guards (jest.config.cjs `TIMING_SUITES`) one at a time on
 * a machine no other suite keeps busy: they measure how our processes answer while they work, which the suite
 * running beside them on two cores would measure instead. Arguments (a path, `-t`) run one jest with every suite.
 */
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const jest = (env: Record<string, string>, extra: string[]) =>
  spawnSync('jest', extra, {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules', ...env },
  }).status ?? 1;

const phases: Array<[Record<string, string>, string[]]> =
  args.length > 0
    ? [[{ TEST_TIMING: 'with' }, ['--maxWorkers=2', ...args]]]
    : [
        [{ TEST_TIMING: 'without' }, ['--maxWorkers=2']],
        [{ TEST_TIMING: 'only' }, ['--runInBand']],
      ];
// the second phase runs even when the first failed, so one run shows every failure
const statuses = phases.map(([env, extra]) => jest(env, extra));
process.exit(statuses.find((status) => status !== 0) ?? 0);
