import { getCompileCacheDir } from 'node:module';
import { warmCompileCache } from './compile-cache.ts';

/**
 * `sh scripts/runtime.sh node scripts/warm-compile-cache.ts`: fills Node's compile cache with the startup modules
 * of every service, the supervisor and Banco Sandbox, so processes started with the same cache directory, user and
 * settings never load the TypeScript stripper. The Docker image runs it at build time; `npm start` does the same
 * in its prepare step.
 */
if (!(await warmCompileCache())) {
  console.error('NODE_COMPILE_CACHE is not set (or NODE_DISABLE_COMPILE_CACHE is): there is no cache to fill');
  process.exit(1);
}
console.log(`compile cache filled: ${getCompileCacheDir()}`);
