/**
 * Unexpected errors fail the test that caused them, in every Vitest project (decision 017): a
 * `console.error` in the test's process (React's warnings, a logged failure) and, in the e2e
 * project, a browser page's console error or uncaught exception (tests/e2e/support.ts reports
 * those here). tests/setup/fail-on-console-error.ts collects them and fails the test at its end.
 *
 * A test that means to cause an error says so, for itself only, with {@link expectConsoleError}
 * (it must happen) or {@link allowConsoleError} (it may happen, e.g. a browser's "Failed to load
 * resource" line for an answer the test asks for, which Chromium logs or not depending on timing).
 * What is allowed is forgotten when the test ends.
 */

/**
 * Where an error came from: this process's console, a browser page (e2e), or a server process the
 * test started (tests/e2e/support.ts: a log record at level error or above, a line on stderr, or
 * its stopping when no test stopped it).
 */
export type ErrorSource = 'console.error' | 'browser console.error' | 'browser pageerror' | 'server log' | 'server stderr' | 'server exit';

interface Allowance {
  pattern: RegExp;
  /** Whether the test fails when nothing matched. */
  required: boolean;
  matched: number;
}

interface State {
  /** Whether a test is running (between the setup file's beforeEach and afterEach). */
  inTest: boolean;
  allowances: Allowance[];
  /** Unexpected errors of the running test. */
  unexpected: string[];
  /** Unexpected errors outside any test (hooks, or a page logging after its test ended). */
  outside: string[];
  /** What the test's server processes wrote since it started, shown only if it fails ({@link takeOutput}). */
  output: string[];
}

// On globalThis: the setup file and the test file may load this module as separate instances.
const KEY = Symbol.for('wizard.tests.console-errors');
const state: State = ((globalThis as Record<symbol, State | undefined>)[KEY] ??= { inTest: false, allowances: [], unexpected: [], outside: [], output: [] });

/** The text of a console call's arguments, as the console would print them. */
export function consoleText(args: readonly unknown[]): string {
  return args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : typeof arg === 'string' ? arg : safeString(arg))).join(' ');
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}

/**
 * Records an error. An error the running test allowed is counted and dropped.
 * @returns whether it was expected (the caller may then leave it unprinted).
 */
export function reportError(source: ErrorSource, text: string): boolean {
  if (state.inTest) {
    const allowance = state.allowances.find((candidate) => candidate.pattern.test(text));
    if (allowance) {
      allowance.matched += 1;
      return true;
    }
    state.unexpected.push(`${source}: ${text}`);
  } else {
    state.outside.push(`${source}: ${text}`);
  }
  return false;
}

/**
 * Lets the running test log errors matching `pattern`, from any {@link ErrorSource}, without
 * failing; it fails if none came by its end. Use {@link allowConsoleError} when the error may not
 * come.
 */
export function expectConsoleError(pattern: RegExp): void {
  state.allowances.push({ pattern, required: true, matched: 0 });
}

/** Lets the running test log errors matching `pattern` without failing, whether they come or not. */
export function allowConsoleError(pattern: RegExp): void {
  state.allowances.push({ pattern, required: false, matched: 0 });
}

/**
 * Keeps a line a server process of the test wrote (its log, at the level the test gave it), to be
 * shown only if the test fails: a passing run prints nothing of what its servers logged, and an
 * error among it fails the test through {@link reportError} unless the test allowed it. At most the
 * last 500 lines are kept.
 */
export function recordOutput(line: string): void {
  state.output.push(line);
  if (state.output.length > 500) state.output.splice(0, state.output.length - 500);
}

/** The lines kept by {@link recordOutput} since the running test started; forgets them. */
export function takeOutput(): string[] {
  return state.output.splice(0);
}

/** Called by the setup file as each test starts. */
export function beginTest(): void {
  state.inTest = true;
  state.allowances = [];
  state.unexpected = [];
  state.output = [];
}

/**
 * Called by the setup file as each test ends: forgets the test's allowances.
 * @returns why the test fails, or undefined.
 */
export function endTest(): string | undefined {
  const problems = [...state.unexpected];
  for (const allowance of state.allowances) {
    if (allowance.required && allowance.matched === 0) problems.push(`expected an error matching ${String(allowance.pattern)}, none came`);
  }
  state.inTest = false;
  state.allowances = [];
  state.unexpected = [];
  return problems.length > 0 ? describe(problems) : undefined;
}

/**
 * Called by the setup file when the test file ends (and before each test): errors logged outside
 * any test.
 * @returns why the file fails, or undefined.
 */
export function takeOutside(): string | undefined {
  const problems = state.outside.splice(0);
  return problems.length > 0 ? describe(problems, 'outside a test') : undefined;
}

function describe(problems: string[], where = ''): string {
  const shown = problems.slice(0, 5).map((problem) => `  ${problem.length > 2000 ? `${problem.slice(0, 2000)}…` : problem}`);
  const more = problems.length > 5 ? `\n  …and ${problems.length - 5} more` : '';
  const heading = where ? `Errors logged ${where}` : 'Errors not as the test expects';
  return `${heading} (a test allows one it causes with expectConsoleError or allowConsoleError, tests/support/console-errors.ts):\n${shown.join('\n')}${more}`;
}
