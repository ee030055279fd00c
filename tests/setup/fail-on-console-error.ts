import { afterAll, afterEach, beforeEach } from 'vitest';
import { beginTest, consoleText, endTest, reportError, takeOutput, takeOutside } from '../support/console-errors';

// Setup file of every project (decision 017): an unexpected console.error fails the test that
// caused it. A React warning (act, keys, invalid DOM nesting) is a bug; so is a failure logged by
// a library. A test that causes one on purpose allows it (tests/support/console-errors.ts); one that
// spies on console.error itself (vi.spyOn(console, 'error')) handles what it catches.
const original = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (!reportError('console.error', consoleText(args))) original(...args);
};

beforeEach(({ onTestFailed }) => {
  beginTest();
  // What the test's server processes logged is kept, not printed (tests/e2e/support.ts), and shown
  // here only when the test fails.
  onTestFailed(() => {
    const output = takeOutput();
    if (output.length > 0) console.log(`What the test's servers logged (last ${output.length} lines):\n${output.join('\n')}`);
  });
});

afterEach(() => {
  const problem = endTest();
  if (problem) throw new Error(problem);
});

afterAll(() => {
  const problem = takeOutside();
  if (problem) throw new Error(problem);
});
