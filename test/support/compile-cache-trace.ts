/** Node's compile-cache trace (`NODE_DEBUG_NATIVE=COMPILE_CACHE` on stderr), read by what it says of sources. */

/** The TypeScript sources stripped because the compile cache did not hold them, in the order they were. */
export const strippedSources = (trace: string): string[] =>
  [...trace.matchAll(/no transpile cache for StrippedTypeScript (\S+)/g)].map((match) => match[1]);

/** Whether the trace shows `file` (a path from the repository's root) read from the compile cache. */
export const readFromCache = (trace: string, file: string): boolean =>
  trace.includes(
    `retrieving transpile cache for StrippedTypeScript ${new URL(`../../${file}`, import.meta.url).href}...success`,
  );
