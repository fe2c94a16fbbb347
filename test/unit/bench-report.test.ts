import { cpuLine, type ScenarioResult, table, topologyRatioOf } from '../../bench/report.ts';

const create: ScenarioResult = {
  scenario: 'Create transaction',
  request: 'POST /v1/transactions',
  rps: 1_000,
  p50: 12,
  p99: 40,
  ratio: 3,
  baseline: { name: 'bare express + pg insert', rps: 3_000, p99: 20 },
  bareTopology: { name: 'bare server behind one bare relay', rps: 2_000, p99: 25 },
};

describe('bench: the bare topology beside the baseline', () => {
  it('when a row has the bare topology, then the table adds its figure, our ratio to it and the p99 ratio', () => {
    const lines = table([create]).split('\n');
    expect(lines[0]).toMatch(/\| Bare topology \| Ratio \| p99 ratio \|$/);
    expect(lines[1].split('|')).toHaveLength(lines[0].split('|').length);
    expect(lines[2]).toMatch(/\| 2,000 req\/s \(bare server behind one bare relay\) \| 2\.0× \| 1\.6× \|$/);
    expect(lines[2]).toContain('| 3.0× | 2.0× |');
    expect(topologyRatioOf(create)).toBe(2);
  });

  it('when no row has it (the in-process pass), then the table keeps its nine columns', () => {
    const { bareTopology: _, ...inProcess } = create;
    const lines = table([inProcess, { scenario: 'Show bill', request: 'GET', skipped: 'no cards were seeded' }]);
    for (const line of lines.split('\n')) expect(line.split('|')).toHaveLength(11);
    expect(topologyRatioOf(inProcess)).toBeUndefined();
  });

  it('when the bare topology was measured, then the CPU line gives its processes and our ratio to it', () => {
    const line = cpuLine({
      ours: { gateway: 300, ledger: 400, PostgreSQL: 500, total: 1_200 },
      baseline: { 'bare server': 200, PostgreSQL: 280, total: 480 },
      bareTopology: { 'bare server': 200, relay: 170, PostgreSQL: 330, total: 700 },
    });
    expect(line).toBe(
      'CPU µs per request: ours gateway 300 + ledger 400 + PostgreSQL 500 = 1200; baseline bare server 200 + PostgreSQL 280 = 480 (2.5×); bare topology bare server 200 + relay 170 + PostgreSQL 330 = 700 (1.7×)',
    );
  });
});
