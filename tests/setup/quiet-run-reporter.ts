import type { Reporter, TestRunEndReason } from 'vitest/node';
import { lineSplitter, stackTraceLines } from '../support/stack-traces';

/**
 * Vitest reporter: a run whose tests pass fails all the same if it printed a stack trace
 * (decision 017). A test that causes an error on purpose keeps what it causes out of the output:
 * it allows the `console.error` (tests/support/console-errors.ts), and the servers it starts keep
 * their logs (tests/e2e/support.ts, shown only when a test fails). A trace in a passing run is then
 * an error nobody expected, or one a test leaves for the reader to sift.
 *
 * It reads everything written to this process's stdout and stderr, where Vitest also copies its
 * workers' output (and so what the processes they start print, if they let them print).
 */
export default class QuietRunReporter implements Reporter {
  private readonly traces: string[] = [];
  private readonly splitters: ReturnType<typeof lineSplitter>[] = [];
  private readonly streams: readonly NodeJS.WritableStream[];
  private readonly report: NodeJS.WritableStream;
  private readonly fail: () => void;

  /**
   * @param options - for its own test: the streams read (this process's stdout and stderr), where
   *   it says why the run fails (stderr), and how it fails it (exit code 1).
   */
  constructor(options: { streams?: readonly NodeJS.WritableStream[]; report?: NodeJS.WritableStream; fail?: () => void } = {}) {
    this.streams = options.streams ?? [process.stdout, process.stderr];
    this.report = options.report ?? process.stderr;
    this.fail = options.fail ?? (() => void (process.exitCode = 1));
  }

  /** Reads every write to the streams from now on, passing it on unchanged. */
  onInit(): void {
    for (const stream of this.streams) {
      const write = stream.write;
      const lines = lineSplitter((line) => this.traces.push(...stackTraceLines(line)));
      this.splitters.push(lines);
      stream.write = function (this: NodeJS.WritableStream, chunk: unknown, ...rest: unknown[]) {
        lines.write(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '');
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as NodeJS.WritableStream['write'];
    }
  }

  onTestRunEnd(_modules: unknown, _errors: unknown, reason: TestRunEndReason): void {
    for (const lines of this.splitters) lines.end();
    // A run in watch mode is judged on what it printed itself.
    const traces = this.traces.splice(0);
    if (reason !== 'passed' || traces.length === 0) return;
    const shown = traces.slice(0, 3).map((line) => `  ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
    this.report.write(
      `\nThe tests passed, but the run printed ${traces.length} line(s) of stack traces, e.g.:\n${shown.join('\n')}\n` +
        'A passing run prints none (decision 017): a test allows the error it causes on purpose, and keeps the log of a process it starts.\n',
    );
    this.fail();
  }
}
