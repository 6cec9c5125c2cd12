/**
 * The guide's TypeScript section (docs/guide.md, "10. TypeScript"), done as it says in a project made with
 * `npm init -y` (whose package.json says "type": "commonjs"): the package packed and installed, the
 * section's tsconfig.json and `.mts` files written from the page, compiled with tsc, the compiled scenario run
 * and its replay verified by the installed CLI; and the declaration file the section shows for a `.mjs`
 * scenario type-checks a TypeScript module that imports one.
 *
 * TypeScript and @types/node are the checkout's (the versions its lockfile pins), linked into the project
 * instead of installed from the registry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'retrosim-ts-guide-'));
const app = join(tmp, 'app');
const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

function run(cmd: string, args: string[], cwd = app): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS, env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The guide's section 9: its files (a "`NAME`:" line before a block) and its ```sh blocks, in order. */
const section = (() => {
  const guide = readFileSync(join(repoRoot, 'docs/guide.md'), 'utf8');
  return guide.slice(guide.indexOf('## 10. TypeScript'), guide.indexOf('## Where next'));
})();
const files = new Map([...section.matchAll(/`([\w./-]+)`[^\n]*:\n\n```(?:json|ts)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n'));

beforeAll(() => {
  mkdirSync(app);
  expect(run(npm, ['init', '-y']).code).toBe(0);
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: repoRoot, encoding: 'utf8', env });
  const tarball = join(tmp, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const deps = Object.keys(pkg.dependencies).map((name) => join(tmp, (JSON.parse(execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: join(repoRoot, 'node_modules', name), encoding: 'utf8' })) as { filename: string }[])[0]!.filename));
  const inst = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...deps]);
  if (inst.code !== 0) throw new Error(`npm install failed: ${inst.stderr}`);
  mkdirSync(join(app, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules', 'typescript'), join(app, 'node_modules', 'typescript'), 'dir');
  symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(app, 'node_modules', '@types', 'node'), 'dir');
  for (const [name, text] of files) {
    mkdirSync(dirname(join(app, name)), { recursive: true });
    writeFileSync(join(app, name), text);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the guide\'s TypeScript section, in an npm init -y project', () => {
  it('the project is CommonJS by its package.json, and the section shows its files and commands', () => {
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))['type']).toBe('commonjs');
    expect([...files.keys()]).toEqual(['tsconfig.json', 'src/laps.mts', 'src/laps-scenario.mts', 'guards.d.mts']);
    expect(commands).toContain('npx tsc');
  });

  it('tsc compiles the .mts files; the compiled scenario runs and its replay verifies', () => {
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const line of commands) {
      if (line.startsWith('npm ')) continue; // the installs: done above
      const args = line.replace(/^npx /, '').split(/\s+/);
      const r = args[0] === 'tsc' ? run(process.execPath, [tsc, ...args.slice(1)]) : run(process.execPath, [join(app, 'node_modules', 'retrosim', 'bin', 'retrosim.js'), ...args.slice(1)]);
      expect(r.code, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    const v = run(process.execPath, [join(app, 'node_modules', 'retrosim', 'bin', 'retrosim.js'), 'replay', 'verify', 'laps.replay', '--scenario', 'out/laps-scenario.mjs', '--json']);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, frames: 600 });
  });

  it('the declaration file types a .mjs scenario for a TypeScript module that imports it (and a wrong use is an error)', () => {
    const dir = join(app, 'typed-mjs');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), join(dir, 'guards.mjs'));
    writeFileSync(join(dir, 'guards.d.mts'), files.get('guards.d.mts')!);
    writeFileSync(join(dir, 'use.mts'), `import guards, { Guard } from './guards.mjs';\nconst name: string = guards.name;\nconst fields: readonly string[] = Object.keys(Guard.schema);\nconsole.log(name, fields.length);\n`);
    writeFileSync(join(dir, 'wrong.mts'), `import guards from './guards.mjs';\nconst n: number = guards.name;\nconsole.log(n);\n`);
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node'];
    const ok = run(process.execPath, [tsc, ...flags, 'use.mts'], dir);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const bad = run(process.execPath, [tsc, ...flags, 'wrong.mts'], dir);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain("Type 'string' is not assignable to type 'number'");
  });
});
