// After Jest's summary, names each test file whose tests were all skipped, with its suite's title (which says why).
const { relative } = require('node:path');

class SkippedSuitesReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.testResults.filter(
      (file) => file.numPendingTests > 0 && file.numPassingTests + file.numFailingTests === 0,
    );
    if (skipped.length === 0) return;
    const lines = skipped.map(
      (file) => `  ${relative(process.cwd(), file.testFilePath)}: ${file.testResults[0]?.ancestorTitles[0] ?? ''}`,
    );
    process.stderr.write(`\nSkipped suites:\n${lines.join('\n')}\n`);
  }
}

module.exports = SkippedSuitesReporter;
