// `--import`ed by tests into a service: as it exits, it prints which of Node's bundled dependencies it loaded
// (plain JavaScript, so importing it strips no TypeScript).
process.on('exit', () => {
  const deps = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule internal/deps/'));
  process.stderr.write(`[internal-deps] ${JSON.stringify(deps)}\n`);
});
