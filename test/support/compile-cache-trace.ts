/** Node's compile-cache trace (`NODE_DEBUG_NATIVE=COMPILE_CACHE` on stderr), read by what it says of sources. */

/** The TypeScript sources stripped because the compile cache did not hold them, in the order they were. */
export const strippedSources = (trace: string): string[] =>
  [...trace.matchAll(/no transpile cache for StrippedTypeScript (\S+)/g)].map((match) => match[1]);

/**
 * Whether the trace shows `file` (a path from the repository's root) read from the compile cache: its last lookup
 * (`retrieving transpile cache for … <url>...`) and no miss after it (`no transpile cache for … <url>`). Node
 * writes a lookup and its `success` in two writes, and the processes of a group share one stderr, so another
 * process's line may come between the two: the miss, one write, is what tells a lookup that failed.
 */
export const readFromCache = (trace: string, file: string): boolean => {
  const url = new URL(`../../${file}`, import.meta.url).href;
  const lookup = trace.lastIndexOf(`retrieving transpile cache for StrippedTypeScript ${url}...`);
  return lookup >= 0 && !trace.includes(`no transpile cache for StrippedTypeScript ${url}\n`, lookup);
};

/** The trace's lines that name `file` (a path from the repository's root): what a failed `readFromCache` shows. */
export const linesAbout = (trace: string, file: string): string[] => {
  const url = new URL(`../../${file}`, import.meta.url).href;
  return trace.split('\n').filter((line) => line.includes(url));
};
