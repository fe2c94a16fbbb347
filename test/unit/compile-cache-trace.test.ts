import { readFromCache, strippedSources } from '../support/compile-cache-trace.ts';

const url = (file: string) => new URL(`../../${file}`, import.meta.url).href;
const MAIN = 'services/ledger/src/main.ts';
const lookup = (file: string) => `[compile cache] retrieving transpile cache for StrippedTypeScript ${url(file)}...`;
const miss = (file: string) => `[compile cache] no transpile cache for StrippedTypeScript ${url(file)}\n`;
/** A line another process of the group writes meanwhile: the processes share one stderr. */
const other = `[compile cache] reading cache from /tmp/cache/v24 for ESM ${url('services/billing/src/main.ts')}...`;

describe("the compile cache's trace, written by several processes into one stderr", () => {
  it('when a lookup and its success are one after the other, then the file was read from the cache', () => {
    expect(readFromCache(`${lookup(MAIN)}success\n`, MAIN)).toBe(true);
  });

  it("when another process's line comes between a lookup and its success, then the file was still read from the cache", () => {
    expect(readFromCache(`${lookup(MAIN)}${other}success\nsuccess\n`, MAIN)).toBe(true);
  });

  it('when a lookup is followed by a miss, or there was none, then the file was not read from the cache', () => {
    expect(readFromCache(`${lookup(MAIN)}failed\n${miss(MAIN)}`, MAIN)).toBe(false);
    expect(readFromCache(miss(MAIN), MAIN)).toBe(false);
    expect(readFromCache(`${lookup('scripts/start.ts')}success\n`, MAIN)).toBe(false);
  });

  it('when a cold process stripped a file and its warm copy then found it, then the file was read from the cache', () => {
    const trace = `${miss('scripts/start.ts')}${lookup('scripts/start.ts')}success\n`;
    expect(readFromCache(trace, 'scripts/start.ts')).toBe(true);
    expect(strippedSources(trace)).toEqual([url('scripts/start.ts')]);
  });
});
