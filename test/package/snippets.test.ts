/**
 * The README and the guide as a new user meets them: the built package is packed (`npm pack`), the tarball
 * installed into an empty project the way a user installs it (`npm install <tarball>`, its dependencies from
 * npm's cache or the registry), and there every program and command of both pages runs unmodified, by the
 * conventions written at the top of test/docs/snippets.ts:
 *
 * - a ```js or ```mjs block is a program, saved as a file (`<!-- file: NAME -->` before the fence names it,
 *   else `snippet-N.mjs`) and run with `node` in the page's own folder of the project; it must exit 0 with
 *   nothing on stderr; blocks not meant to run take another fence language (```sh, ```text, ```ts);
 * - `<!-- run -->` before a ```sh block: its `npx retrosim ...` lines run there too, in page order;
 * - `<!-- output -->` before a ```text block: exactly what the step before it prints.
 *
 * Then the default install itself: the CLI opens a built-in world by id, and node_modules holds no queue
 * client, no native add-on and no package that runs a script at install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';
import { expectPageRuns, runPage, spawnRunner, type Ran } from '../docs/snippets.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'retrosim-snippets-'));
const app = join(tmp, 'app');
const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

function run(cmd: string, args: string[], cwd = app): Ran {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS, env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `npx retrosim ARGS` in the project, offline: the CLI the package installed, never one fetched for the call. */
const retrosim = (args: string[], cwd = app): Ran => run(npm, ['exec', '--offline', '--', 'retrosim', ...args], cwd);
const runner = spawnRunner(retrosim, PROCESS_TIMEOUT_MS);

beforeAll(() => {
  // --ignore-scripts: the build already ran (npm test builds first); no rebuild under the other tests' feet.
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: repoRoot, encoding: 'utf8', env });
  const tarball = join(tmp, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-sim', version: '1.0.0', private: true }, null, 2));
  const inst = run(npm, ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
  if (inst.code !== 0) throw new Error(`npm install of the tarball failed (${inst.code}):\n${inst.stderr}`);
}, 600_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs a page of the repository in a folder of its own in the project. */
function runRepoPage(page: string, folder: string) {
  const dir = join(app, folder);
  mkdirSync(dir);
  return runPage(readFileSync(join(repoRoot, page), 'utf8'), page, dir, runner);
}

describe('the README and the guide in a project that installed the package', () => {
  it("the README's programs run unmodified", () => {
    const results = runRepoPage('README.md', 'readme');
    expect(results.length).toBeGreaterThanOrEqual(1);
    expectPageRuns(results);
    expect(results[0]!.stdout).toMatch(/^true 0x[0-9a-f]{16}\n$/);
  }, 600_000);

  it("the guide's programs and commands run unmodified, in order, and print what the guide shows", () => {
    const results = runRepoPage('docs/guide.md', 'guide');
    expect(results.filter((r) => r.step.kind === 'program').length).toBeGreaterThanOrEqual(8);
    expect(results.filter((r) => r.step.kind === 'command').length).toBeGreaterThanOrEqual(3);
    expectPageRuns(results);
  }, 600_000);

  it("the guide's scenario over two modules: the CLI's and the program's replays are the same bytes, and an edit of either module is refused up front, by the CLI and by the program", () => {
    const dir = join(app, 'guide');
    // The guide's program and command run the same settings from the same folder.
    expect(readFileSync(join(dir, 'program.replay')).equals(readFileSync(join(dir, 'guards.replay'))), 'the program and the CLI record byte-identical replays').toBe(true);
    for (const [file, from, to] of [
      ['rules.mjs', 'guards.mjs', 'guards.mjs'],
      ['guards.mjs', "version: '1.0.0'", "version: '1.0.0' "],
    ] as const) {
      const path = join(dir, file);
      const before = readFileSync(path, 'utf8');
      // One byte more in a comment or a line: the code does the same, the module is another.
      writeFileSync(path, file === 'rules.mjs' ? `${before}// edited\n` : before.replace(from, to));
      try {
        const cli = retrosim(['replay', 'verify', 'guards.replay', '--scenario', './guards.mjs', '--json'], dir);
        expect(cli.code, cli.stdout + cli.stderr).not.toBe(0);
        const err = (JSON.parse(cli.stdout.trim().split('\n').pop()!) as { error?: { kind: string; message: string } }).error;
        expect(err?.kind, cli.stdout).toBe('scenario');
        expect(err!.message).toContain(`${file} changed`);
        const prog = run(process.execPath, ['check-cli-replay.mjs'], dir);
        expect(prog.code).not.toBe(0);
        expect(prog.stderr).toContain(`${file} changed`);
      } finally {
        writeFileSync(path, before);
      }
    }
    const again = retrosim(['replay', 'verify', 'guards.replay', '--scenario', './guards.mjs', '--json'], dir);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 600_000);

  it('npx retrosim run --world rugrats-demo opens the built-in world', () => {
    const r = retrosim(['run', '--world', 'rugrats-demo', '--frames', '60', '--no-replay', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { frames: number; world: { source: string; kind: string }; finalHash: string };
    expect(s.frames).toBe(60);
    expect(s.world).toMatchObject({ source: 'builtin:rugrats-demo', kind: 'rugrats' });
    expect(s.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
  }, 600_000);
});

describe('a default install', () => {
  /** Every package folder under node_modules, scoped ones and nested node_modules included. */
  function packages(dir: string, out: string[] = []): string[] {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) packages(p, out);
      else {
        out.push(p);
        try {
          packages(join(p, 'node_modules'), out);
        } catch {
          // no nested node_modules
        }
      }
    }
    return out;
  }

  /** Every file under `dir` whose name ends with `ext`. */
  function filesEnding(dir: string, ext: string, out: string[] = []): string[] {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) filesEnding(p, ext, out);
      else if (e.name.endsWith(ext)) out.push(p);
    }
    return out;
  }

  it('holds no queue client, no native add-on and no package that runs a script at install', () => {
    const nm = join(app, 'node_modules');
    const names = packages(nm).map((p) => p.slice(nm.length + 1));
    expect(names).toContain('retrosim');
    for (const queue of ['bullmq', 'ioredis', 'msgpackr-extract']) expect(names.some((n) => n === queue || n.endsWith(`/node_modules/${queue}`)), queue).toBe(false);
    expect(filesEnding(nm, '.node')).toEqual([]);
    for (const p of packages(nm)) {
      const pkg = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')) as { scripts?: Record<string, string>; gypfile?: boolean };
      for (const hook of ['preinstall', 'install', 'postinstall']) expect(pkg.scripts?.[hook], `${p}: ${hook}`).toBeUndefined();
      expect(pkg.gypfile, `${p}: gypfile`).toBeUndefined();
      expect(readdirSync(p), `${p}: binding.gyp`).not.toContain('binding.gyp');
    }
    // npm's own record agrees: no package of the tree has an install script.
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.entries(lock.packages).filter(([, v]) => v.hasInstallScript).map(([k]) => k)).toEqual([]);
  });
});
