// `--import`ed by tests into a process: as it exits, it prints its script and which of Node's bundled dependencies
// it loaded (amaro is the TypeScript stripper). Plain JavaScript, so importing it strips no TypeScript.
process.on('exit', () => {
  const deps = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule internal/deps/'));
  process.stderr.write(`[internal-deps] ${JSON.stringify({ script: process.argv[1] ?? '', deps })}\n`);
});
