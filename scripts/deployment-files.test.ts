// @vitest-environment node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../tests/support/server-process';

// No image can be pulled or built where the tests run: the Dockerfile, compose.yaml and the systemd
// unit of docs/operations.md are read and held to the README (the Node version, `npm start`'s
// command, the environment variables of its table) and to package.json.

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');
const operations = read('docs/operations.md');
const packageJson = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: Record<string, string> };

/** The variables of the README's table (`| \`NAME\` | default | meaning |`), and NODE_ENV, which `npm start` sets. */
const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!).concat('NODE_ENV'));
/** `npm start`'s command: its environment assignments and the command itself. */
const start = packageJson.scripts.start!;
const startEnv = Object.fromEntries([...start.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
const startCommand = start.replace(/(?:^|\s)[A-Z_]+=\S+/g, '').trim();
const [, readmeMajor, readmeMinor] = /Node (\d+)\.(\d+) or newer/.exec(readme) ?? [];

describe('the deployment files follow the README', () => {
  it('reads what it holds them to', () => {
    expect(documented.size).toBeGreaterThan(10);
    expect(startCommand).toBe('node build/server/server.mjs');
    expect(startEnv).toEqual({ NODE_ENV: 'production' });
    expect(readme).toContain(start);
    expect(packageJson.engines.node).toBe(`>=${readmeMajor}.${readmeMinor}`);
  });

  it("Dockerfile: several stages on the README's Node, the last one non-root, running npm start's command with its environment", () => {
    const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      const [, major, minor] = /^node:(\d+)(?:\.(\d+))?\S*/.exec(stage) ?? [];
      expect(major, `FROM ${stage.split('\n')[0]}`).toBe(readmeMajor);
      if (minor !== undefined) expect(Number(minor)).toBeGreaterThanOrEqual(Number(readmeMinor));
    }
    const last = stages.at(-1)!;
    const user = /^USER (\S+)/m.exec(last)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(last)![1]!) as string[];
    expect(cmd.join(' ')).toBe(startCommand);
    const env = Object.fromEntries(
      [...last.matchAll(/^ENV (.*)$/gm)].flatMap((match) => [...match[1]!.matchAll(/([A-Z_]+)=(\S+)/g)].map((pair) => [pair[1]!, pair[2]!])),
    );
    expect(env).toMatchObject(startEnv);
    expect(env.HOST).toBe('0.0.0.0');
    expect(Object.keys(env).filter((name) => !documented.has(name))).toEqual([]);
    expect(last).toMatch(/HEALTHCHECK .*\/readyz/);
  });

  it("compose.yaml: the server built from the Dockerfile, on PostgreSQL, with only the README's variables", () => {
    const compose = parse(read('compose.yaml')) as { services: Record<string, { build?: string; image?: string; environment?: Record<string, string> }> };
    const app = Object.values(compose.services).find((service) => service.build === '.');
    const db = Object.values(compose.services).find((service) => service.image?.startsWith('postgres:'));
    expect(app).toBeDefined();
    expect(db).toBeDefined();
    const env = app!.environment!;
    expect(Object.keys(env).filter((name) => !documented.has(name))).toEqual([]);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(env.UPLOADS_DIR).toBeDefined();
  });

  it("the systemd unit of docs/operations.md runs npm start's command with its environment and the README's variables", () => {
    const unit = /```ini\n([\s\S]*?)```/.exec(operations)![1]!;
    expect(unit).toMatch(new RegExp(`^ExecStart=/usr/bin/${startCommand.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
    const env = Object.fromEntries([...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
    expect(env).toMatchObject(startEnv);
    expect(Object.keys(env).filter((name) => !documented.has(name))).toEqual([]);
    expect(unit).toMatch(/^User=(?!root$)\S+$/m);
  });

  it('README points to docs/operations.md', () => {
    expect(readme).toContain('(docs/operations.md)');
  });
});
