// Copies the Docker build context of a directory as `docker build` would send it: every file but
// those .dockerignore excludes (Go filepath.Match patterns with `**`, `!` re-includes, last match
// wins, a pattern matching a directory excludes everything below it).
//
//   node_modules/.bin/node .ci/docker-context.ts <context dir> <destination dir>
//
// Prints the number of files copied. No Docker engine needed.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, matchesGlob, posix } from 'node:path';

const [root = '.', dest] = process.argv.slice(2);
if (!dest) {
  console.error('usage: docker-context.ts <context dir> <destination dir>');
  process.exit(2);
}

const rules = readFileSync(join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const negated = line.startsWith('!');
    const pattern = posix.normalize((negated ? line.slice(1) : line).replace(/^\/+/, '')).replace(/\/+$/, '');
    return { negated, pattern };
  });

/** Excluded when the last rule matching the path or one of its parent directories is not a `!` rule. */
function excluded(path: string): boolean {
  const parts = path.split('/');
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let result = false;
  for (const { negated, pattern } of rules) {
    if (candidates.some((candidate) => matchesGlob(candidate, pattern))) result = !negated;
  }
  return result;
}

/** A directory may be skipped whole when it is excluded and no `!` rule could re-include below it. */
const prunable = (dir: string): boolean =>
  excluded(dir) &&
  !rules.some(({ negated, pattern }) => negated && (pattern.startsWith(`${dir}/`) || pattern.includes('*')));

let copied = 0;
function walk(rel: string): void {
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!prunable(path)) walk(path);
    } else if (entry.isFile() && !excluded(path)) {
      mkdirSync(dirname(join(dest, path)), { recursive: true });
      copyFileSync(join(root, path), join(dest, path));
      copied += 1;
    }
  }
}
walk('');
console.log(`docker context: ${copied} files copied to ${dest}`);
