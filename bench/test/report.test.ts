import { cpuLine, type ScenarioResult, sameBytesNote, sameBytesTable, table, topologyRatioOf } from '../report.ts';

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

  it("when an import's CPU is counted per entry, then the line says so", () => {
    const line = cpuLine(
      { ours: { 'statement files': 90, PostgreSQL: 150, total: 240 }, baseline: { PostgreSQL: 30, total: 30 } },
      'entry',
    );
    expect(line).toBe(
      'CPU µs per entry: ours statement files 90 + PostgreSQL 150 = 240; baseline PostgreSQL 30 = 30 (8.0×)',
    );
  });
});

describe("bench: the bill against a bare server answering the spec's bytes", () => {
  const bill: ScenarioResult = {
    scenario: 'Show bill (1,360 transactions)',
    request: 'GET /v2/bills/show-by-card/x',
    rps: 25,
    p99: 1_000,
    baseline: { name: 'bare express + pg, same statements', rps: 50, p99: 500 },
    sameBytes: { name: 'same bytes', rps: 27.5, p99: 625 },
    sameBytesTopology: { name: 'bare server behind two chained bare relays', rps: 22.5, p99: 1_250 },
  };

  it('when a row was measured against the same bytes, then a second table gives both floors, our ratios and p99s', () => {
    const lines = sameBytesTable([create, bill]).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1].split('|')).toHaveLength(lines[0].split('|').length);
    expect(lines[2]).toBe(
      '| Show bill (1,360 transactions) | 25 | 28 req/s (same bytes) | 1.1× | 1.6× | 23 req/s (bare server behind two chained bare relays) | 0.9× | 0.8× |',
    );
    expect(sameBytesNote(bill)).toBe(', 1.1× the same bytes (0.9× behind the bare relays)');
  });

  it('when no row was (the other scenarios), then there is no second table and no note', () => {
    expect(sameBytesTable([create])).toBe('');
    expect(sameBytesNote(create)).toBe('');
    const { sameBytesTopology: _, ...inProcess } = bill;
    expect(sameBytesTable([inProcess]).split('\n')[2]).toBe(
      '| Show bill (1,360 transactions) | 25 | 28 req/s (same bytes) | 1.1× | 1.6× |',
    );
  });

  it('when the same bytes were measured, then the CPU line gives their processes and our ratio to them', () => {
    const line = cpuLine({
      ours: { ledger: 500, total: 1_000 },
      baseline: { 'bare server': 250, total: 250 },
      sameBytes: { 'bare server': 400, total: 800 },
      sameBytesTopology: { 'bare server': 400, relay: 600, total: 1_000 },
    });
    expect(line).toBe(
      'CPU µs per request: ours ledger 500 = 1000; baseline bare server 250 = 250 (4.0×); same bytes bare server 400 = 800 (1.3×); same bytes, bare topology bare server 400 + relay 600 = 1000 (1.0×)',
    );
  });
});
