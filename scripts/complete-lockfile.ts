import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The registry this project installs from lacks some platform builds (darwin, win32, android…) of
 * packages such as @biomejs/biome, @swc/core and jest's resolver, so npm leaves them out of
 * package-lock.json and `npm ci` then refuses the lock. This adds each missing optional platform
 * package as an entry for its own os/cpu, which npm skips on every other machine.
 * Run after `npm install`: node scripts/complete-lockfile.ts
 */
interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'sunos', 'win32', 'aix', 'openharmony', 'wasm32'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | null {
  const parts = name.split('/').pop()?.split('-') ?? [];
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part));
  if (!os && !cpu) return null;
  const entry: Pick<LockEntry, 'os' | 'cpu' | 'libc'> = {};
  if (os && os !== 'wasm32') entry.os = [os];
  if (cpu) entry.cpu = [cpu === 'wasm32' ? 'wasm32' : cpu];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (parts.includes('gnu') || parts.includes('gnueabihf')) entry.libc = ['glibc'];
  return entry;
}

const path = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockEntry> };
let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const prefix = location ? `${location}/node_modules/` : 'node_modules/';
    if (lock.packages[`${prefix}${name}`] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(JSON.stringify({ added }));
