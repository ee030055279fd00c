import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import QuietRunReporter from '../setup/quiet-run-reporter';
import { lineSplitter, stackTraceLines } from './stack-traces';

/** A pino record as a server logs it at level error, its error's stack inside the JSON string. */
const PINO_RECORD = JSON.stringify({
  level: 50,
  msg: 'store unavailable',
  err: {
    type: 'Error',
    message: 'connect ECONNREFUSED 127.0.0.1:34561',
    stack:
      'Error: connect ECONNREFUSED 127.0.0.1:34561\n    at /work/main/node_modules/pg-pool/index.js:45:11\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  },
});

/** What a passing run prints: the reporter's lines, test names that start with "at", durations. */
const PASSING_OUTPUT = [
  ' \u001b[32m✓\u001b[39m \u001b[30m\u001b[45m e2e \u001b[49m\u001b[39m tests/e2e/layout.test.ts \u001b[2m(\u001b[22m\u001b[2m18 tests\u001b[22m\u001b[2m)\u001b[22m\u001b[33m 44512\u001b[2mms\u001b[22m\u001b[39m',
  '     ✓ at 1280px: cover panel on the left, content at most 540px wide, step bar with numbered dots and labels  1823ms',
  "   ✓ 'a 375 px phone at 2×' downloads 'cover-1-800.webp', once 1002ms",
  '   Duration  1017.24s (transform 4.89s, setup 1.52s, import 64.91s, tests 915.19s, environment 10.39s)',
].join('\n');

describe("stack traces in a run's output (decision 017)", () => {
  it('finds the frames of a printed error and of an error inside a JSON log record', () => {
    const error = new Error('boom');
    expect(stackTraceLines(error.stack!).length).toBeGreaterThan(0);
    expect(stackTraceLines(error.stack!).every((line) => line.trimStart().startsWith('at '))).toBe(true);
    expect(stackTraceLines(`${PINO_RECORD}\n`)).toEqual([PINO_RECORD]);
  });

  it('finds none in what a passing run prints', () => {
    expect(stackTraceLines(PASSING_OUTPUT)).toEqual([]);
  });

  it('reads lines written in pieces', () => {
    const lines: string[] = [];
    const splitter = lineSplitter((line) => lines.push(line));
    splitter.write('one\ntw');
    splitter.write('o\nthr');
    splitter.end();
    expect(lines).toEqual(['one', 'two', 'thr']);
  });

  it('fails a passing run that printed a stack trace, not one that printed none or failed anyway', () => {
    const run = (printed: string, reason: 'passed' | 'failed') => {
      const stream = new PassThrough();
      const report = new PassThrough();
      let failed = false;
      const reporter = new QuietRunReporter({ streams: [stream], report, fail: () => void (failed = true) });
      reporter.onInit();
      // Written in two chunks, a frame cut between them.
      stream.write(printed.slice(0, printed.length / 2));
      stream.write(Buffer.from(printed.slice(printed.length / 2)));
      reporter.onTestRunEnd([], [], reason);
      return { failed, said: String(report.read() ?? '') };
    };
    const traced = run(`${PASSING_OUTPUT}\n${PINO_RECORD}\n`, 'passed');
    expect(traced.failed).toBe(true);
    expect(traced.said).toContain('printed 1 line(s) of stack traces');
    expect(run(`${PASSING_OUTPUT}\n`, 'passed')).toEqual({ failed: false, said: '' });
    expect(run(`${PINO_RECORD}\n`, 'failed')).toEqual({ failed: false, said: '' });
  });
});
