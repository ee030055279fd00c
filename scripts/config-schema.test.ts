// @vitest-environment node
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { SCHEMA_PATH, renderConfigSchema } from './config-schema';

describe('config/wizard.schema.json', () => {
  it('equals what the zod schema generates (run npm run generate:schema)', () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(renderConfigSchema());
  });

  it("compiles under ajv's strict mode", () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
    expect(validate(JSON.parse(readFileSync('config/wizard.json', 'utf8')))).toBe(true);
    expect(validate({ title: 'x' })).toBe(false);
  });

  it('describes every top-level key and block component', () => {
    const schema = JSON.parse(renderConfigSchema()) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['title', 'lang', 'steps', 'formItems', 'skipFinalStep', 'styleConfig', 'messages']));
    expect(renderConfigSchema()).toContain('"personalInfo"');
  });
});

describe('npm run check-config', () => {
  const run = (file: string) => {
    try {
      return { code: 0, output: execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-config.ts', file], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (error) {
      const failure = error as { status: number; stderr: string };
      return { code: failure.status, output: failure.stderr };
    }
  };

  it('accepts the default configuration', () => {
    expect(run('config/wizard.json')).toMatchObject({ code: 0, output: expect.stringContaining('ok (4 steps') });
  });

  it('prints warnings, and still exits 0', () => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as { steps: { blocks: { data: Record<string, unknown> }[] }[] };
    raw.steps[2]!.blocks[0]!.data.html = '<h2>More details</h2>';
    const file = join(mkdtempSync(join(tmpdir(), 'check-config-')), 'warned.json');
    writeFileSync(file, JSON.stringify(raw));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-config.ts', file], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ok (4 steps');
    expect(result.stderr).toContain('steps[2]: step "More Details" has no <h1> heading (hint: begin the step with an html block whose heading is an <h1>');
  });

  it('prints every problem with its JSON path and a hint, and exits 1', () => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as { steps: { blocks: { data: Record<string, unknown> }[] }[]; colour?: string };
    raw.steps[2]!.blocks[1]!.data.options = 'Super-Fan';
    raw.colour = 'red';
    const file = join(mkdtempSync(join(tmpdir(), 'check-config-')), 'bad.json');
    writeFileSync(file, JSON.stringify(raw));
    const { code, output } = run(file);
    expect(code).toBe(1);
    expect(output).toContain('steps[2].blocks[1].data.options: Invalid input: expected array, received string (hint: give an array here)');
    expect(output).toContain('(root): Unrecognized key: "colour" (hint: remove "colour"');
  });
});

/** Runs the real start script with `env`, expecting it to exit; returns its status and standard error. */
function startServerExpectingFailure(env: Record<string, string>): { status: number; stderr: string } | undefined {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 20_000,
    });
    return undefined;
  } catch (error) {
    return error as { status: number; stderr: string };
  }
}

describe('the server with an invalid configuration', () => {
  it('refuses to start and prints the same problems as check-config', () => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as { steps: { blocks: { data: Record<string, unknown> }[] }[] };
    raw.steps[2]!.blocks[1]!.data.options = 'Super-Fan';
    const file = join(mkdtempSync(join(tmpdir(), 'bad-server-config-')), 'bad.json');
    writeFileSync(file, JSON.stringify(raw));
    const failure = startServerExpectingFailure({ WIZARD_CONFIG: file, PORT: '0', DATABASE_URL: 'sqlite::memory:' });
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain(`Invalid configuration ${file}:`);
    expect(failure?.stderr).toContain('steps[2].blocks[1].data.options: Invalid input: expected array, received string (hint: give an array here)');
  });

  it('refuses a page whose applications it would store without a name or an e-mail', () => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as {
      steps: { blocks: { component: string; data: Record<string, unknown> }[] }[];
      formItems: { path: string }[];
    };
    raw.steps[1]!.blocks.find((block) => block.component === 'personalInfo')!.data.fields = ['phone', 'countryCode', 'provinceCode', 'firstName', 'lastName'];
    raw.formItems = raw.formItems.filter((item) => item.path !== 'personalInfo.emailAddress');
    const file = join(mkdtempSync(join(tmpdir(), 'bad-server-config-')), 'no-email.json');
    writeFileSync(file, JSON.stringify(raw));
    const failure = startServerExpectingFailure({ WIZARD_CONFIG: file, PORT: '0', DATABASE_URL: 'sqlite::memory:' });
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain('steps: no personal info block asks for "emailAddress"');
  });

  it('names the variable of a bad environment value in one line', () => {
    const failure = startServerExpectingFailure({ PORT: 'eighty' });
    expect(failure?.status).toBe(1);
    expect(failure?.stderr.trim().split('\n')).toHaveLength(1);
    expect(failure?.stderr).toMatch(/^PORT: /);
  });
});
