import { spawnSync } from 'node:child_process';
import { addUsage, cpuMsOf, perRequest } from '../cpu.ts';
import { cpuLine } from '../report.ts';

describe('bench: CPU per request of each side of a scenario', () => {
  it('when two windows are added, then each process counts what it used in both, and one missing from a sample is left out', () => {
    const used = {};
    addUsage(used, { gateway: 100, ledger: 200, PostgreSQL: 1_000 }, { gateway: 160, ledger: 290, PostgreSQL: 1_070 });
    // the ledger restarted between the samples: no figure rather than a negative one
    addUsage(used, { gateway: 500, ledger: 900, insights: 5 }, { gateway: 540, ledger: 10, PostgreSQL: 2_000 });
    expect(used).toEqual({ gateway: 100, ledger: 90, PostgreSQL: 70 });
  });

  it('when the processes used some ms over some requests, then each gets its µs per request and the total their sum', () => {
    expect(perRequest({ gateway: 190, ledger: 270, PostgreSQL: 275 }, 1_000)).toEqual({
      gateway: 190,
      ledger: 270,
      PostgreSQL: 275,
      total: 735,
    });
    expect(perRequest({ gateway: 10 }, 0)).toEqual({});
    expect(perRequest({}, 1_000)).toEqual({});
  });

  it('when printed, then both sides are listed with their totals and the ratio of the totals', () => {
    expect(
      cpuLine({
        ours: { gateway: 190, ledger: 270, total: 460 },
        baseline: { 'bare server': 110, PostgreSQL: 120, total: 230 },
      }),
    ).toBe(
      'CPU µs per request: ours gateway 190 + ledger 270 = 460; baseline bare server 110 + PostgreSQL 120 = 230 (2.0×)',
    );
  });

  it('when this process has worked, then /proc shows its CPU time, and a pid that does not exist has none', () => {
    const started = cpuMsOf(process.pid) as number;
    // 60 ms of CPU by the kernel's own count (getrusage), however long the machine makes it take
    const from = process.cpuUsage();
    while (process.cpuUsage(from).user < 60_000);
    expect(cpuMsOf(process.pid)).toBeGreaterThanOrEqual(started + 30);
    expect(cpuMsOf(2 ** 22 + 1)).toBeNull();
  });

  it('when a child that worked has ended, then its CPU counts with its parent only where the reaped are asked for', () => {
    const own = cpuMsOf(process.pid) as number;
    const withReaped = cpuMsOf(process.pid, true) as number;
    // 150 ms of CPU in a child this process waits for (a backend PostgreSQL's server reaps)
    spawnSync(process.execPath, ['-e', 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 150000);']);
    expect(
      (cpuMsOf(process.pid, true) as number) - withReaped - ((cpuMsOf(process.pid) as number) - own),
    ).toBeGreaterThanOrEqual(100);
  });
});
