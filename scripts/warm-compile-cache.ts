import { getCompileCacheDir } from 'node:module';
import { warmCompileCache } from './compile-cache.ts';

/**
 * `node scripts/warm-compile-cache.ts` with `NODE_COMPILE_CACHE` set: fills Node's compile cache with every
 * service's startup modules, so services started with the same cache directory (and user) never load the
 * TypeScript stripper. The Docker image runs it at build time; `npm start` does the same in its prepare step.
 */
if (!(await warmCompileCache())) {
  console.error('NODE_COMPILE_CACHE is not set (or NODE_DISABLE_COMPILE_CACHE is): there is no cache to fill');
  process.exit(1);
}
console.log(`compile cache filled: ${getCompileCacheDir()}`);
