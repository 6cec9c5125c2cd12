/**
 * The package as a user gets it: `npm pack`, installed with `npm install --prefer-offline` into an empty folder,
 * then used there: the CLI, plain JavaScript importing 'retrosim', the examples, and strict TypeScript
 * against the declarations; the docs and examples ship, so the README's and the docs' relative links work
 * in node_modules/retrosim. (test/package/snippets.test.ts runs the README's and the guide's programs.)
 *
 * The runtime dependencies are packed from node_modules and installed beside the tarball (the exact versions
 * package.json pins, as a registry install would fetch them); their own dependencies come from npm's cache,
 * or from the registry when the cache lacks their metadata (a new machine's cache after `npm ci` holds
 * tarballs, not the metadata that resolving a version range needs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'retrosim-pack-'));
const app = join(tmp, 'app');
let packed: { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] };

function run(cmd: string, args: string[], cwd = app): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // --ignore-scripts: the build already ran (npm test builds first); no rebuild under the other tests' feet.
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: repoRoot, encoding: 'utf8' });
  packed = (JSON.parse(out) as (typeof packed)[])[0]!;
  process.stdout.write(`retrosim tarball: ${packed.filename}, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files\n`);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const deps = Object.keys(pkg.dependencies).map((name) => {
    const depOut = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: join(repoRoot, 'node_modules', name), encoding: 'utf8' });
    const dep = (JSON.parse(depOut) as { filename: string; version: string }[])[0]!;
    expect(dep.version).toBe(pkg.dependencies[name]);
    return join(tmp, dep.filename);
  });
  const inst = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(tmp, packed.filename), ...deps]);
  if (inst.code !== 0) throw new Error(`npm install --prefer-offline failed (${inst.code}):\n${inst.stderr}`);
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The installed packages under a node_modules folder (nested ones too), by folder. */
function packagesIn(modules: string): string[] {
  const out: string[] = [];
  if (!existsSync(modules)) return out;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => join(modules, name, n)) : [join(modules, name)];
    for (const d of dirs) {
      if (!existsSync(join(d, 'package.json'))) continue;
      out.push(d);
      out.push(...packagesIn(join(d, 'node_modules')));
    }
  }
  return out;
}

/** The bytes of every file under a folder (symlinks not followed). */
function bytesIn(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += bytesIn(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

describe('the npm package', () => {
  it('holds the built code, declarations, assets, bin, docs, examples, README, LICENSE and CHANGELOG, and nothing a user does not need', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/retrosim.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/core.d.ts', 'dist/src/render/index.d.ts', 'dist/src/worlds/gta/index.d.ts', 'assets/worlds/piney/default.field.json', 'assets/piney/field-tables.json', 'docs/guide.md', 'docs/api.md', 'docs/formats/replay.md', 'docs/images/world-rugrats.png', 'examples/guide/guards.mjs', 'examples/guards/guards.mjs', 'examples/typed/main.ts']) {
      expect(paths, p).toContain(p);
    }
    // docs/api/ is TypeDoc's output and examples/typed/out/ a compiled example: built locally, never shipped.
    const stray = paths.filter((p) => /^(test|\.ci|bench|scripts|out|docs\/api|examples\/typed\/out|sandbox|web-dist|node_modules|dist\/bench|dist\/scripts|dist\/test)\//.test(p) || /\.(js|ts)\.map$/.test(p) || p.startsWith('dist/src/render/sandbox/'));
    expect(stray).toEqual([]);
    expect(paths.some((p) => p.startsWith('test/'))).toBe(false);
    expect(packed.entryCount).toBe(paths.length);
    // Nothing of the package runs at install.
    const shipped = JSON.parse(readFileSync(join(app, 'node_modules', 'retrosim', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(shipped.scripts?.[hook], hook).toBeUndefined();
  });

  it('every relative link of the installed README and docs leads to a file of the package; the repository is named', () => {
    const root = join(app, 'node_modules', 'retrosim');
    const pages = ['README.md', ...packed.files.map((f) => f.path).filter((p) => p.startsWith('docs/') && p.endsWith('.md'))];
    expect(pages.length).toBeGreaterThan(10);
    const links: { page: string; target: string }[] = [];
    for (const page of pages) {
      // Inline links and images, [text](target) and ![alt](target), outside code spans and fenced blocks.
      const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // an anchor on the page, or a URL
        links.push({ page, target: posix.join(posix.dirname(page), target) });
      }
    }
    expect(links.length).toBeGreaterThan(30);
    expect(links.some((l) => l.target.startsWith('docs/images/'))).toBe(true);
    const missing = links.filter((l) => l.target.startsWith('..') || !existsSync(join(root, l.target))).map((l) => `${l.page} -> ${l.target}`);
    expect(missing).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(shipped['repository']).toEqual({ type: 'git', url: 'git+https://github.com/retrosim/retrosim.git' });
    expect(shipped['homepage']).toBe('https://github.com/retrosim/retrosim#readme');
    expect(shipped['bugs']).toEqual({ url: 'https://github.com/retrosim/retrosim/issues' });
  });

  it('npx retrosim --help and npx retrosim run --frames 60 work in the installed folder', () => {
    const help = run(npm, ['exec', '--offline', '--', 'retrosim', '--help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('commands:');
    expect(help.stdout).toContain('replay');
    const r = run(npm, ['exec', '--offline', '--', 'retrosim', 'run', '--frames', '60', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { frames: number; finalHash: string; replay: { path: string } };
    expect(s.frames).toBe(60);
    expect(s.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
    expect(existsSync(join(app, s.replay.path))).toBe(true);
    expect(run(npm, ['exec', '--offline', '--', 'retrosim', 'replay', 'verify', s.replay.path]).code).toBe(0);
    // The benchmarks stay in the repository: the command says so instead of crashing.
    const b = run(npm, ['exec', '--offline', '--', 'retrosim', 'bench', '--list']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('not part of the installed package');
  });

  it("the README's install figures are what an install measures: packages, and megabytes within 5 %", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const m = /A default install is about ([\d.]+) MB in (\d+) packages \(retrosim itself, about ([\d.]+) MB .*?an optional dependency of (\d+) more packages and about ([\d.]+) MB/.exec(readme);
    expect(m, 'the README states the figures').not.toBeNull();
    const [total, count, own, queueCount, queueMb] = m!.slice(1).map(Number) as [number, number, number, number, number];
    const near = (measured: number, stated: number, what: string) => expect(Math.abs(measured - stated) / stated, `${what}: measured ${measured.toFixed(2)} MB, the README says ${stated}`).toBeLessThan(0.05);
    const modules = join(app, 'node_modules');
    expect(packagesIn(modules).length).toBe(count);
    near(bytesIn(modules) / 1e6, total, 'the default install');
    near(bytesIn(join(modules, 'retrosim')) / 1e6, own, 'retrosim itself');
    // The queue client, in a copy of the project (the other tests use the default install).
    const q = join(tmp, 'with-queue');
    cpSync(app, q, { recursive: true });
    const devDeps = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    const inst = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `bullmq@${devDeps['bullmq']}`, `ioredis@${devDeps['ioredis']}`], q);
    expect(inst.code, inst.stderr).toBe(0);
    expect(packagesIn(join(q, 'node_modules')).length - count).toBe(queueCount);
    near((bytesIn(join(q, 'node_modules')) - bytesIn(modules)) / 1e6, queueMb, 'the queue client');
  });

  it('a default install holds no queue client and no native add-on; the queue commands name what to install', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    for (const name of ['bullmq', 'ioredis', 'msgpackr', 'msgpackr-extract', 'cron-parser', 'luxon']) expect(installed, name).not.toContain(name);
    expect(installed.some((n) => n.startsWith('@msgpackr-extract'))).toBe(false);
    for (const args of [['worker', '--redis', 'redis://127.0.0.1:1'], ['batch', 'status', '--redis', 'redis://127.0.0.1:1']]) {
      const r = run(npm, ['exec', '--offline', '--', 'retrosim', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/needs the batch queue's client, an optional dependency that is not installed: npm install bullmq@[\d.]+ ioredis@[\d.]+/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("a plain .mjs script imports from 'retrosim' and its subpaths and runs (without pixi.js installed)", () => {
    expect(existsSync(join(app, 'node_modules/pixi.js'))).toBe(false);
    writeFileSync(
      join(app, 'plain.mjs'),
      `import { createSimulation, loadWorld, losBatch, newLosOutput, FieldRand, CcRand, RandomStreams, Buttons, FormatError } from 'retrosim';
import * as core from 'retrosim/core';
import { parseCol, RugratsWorld } from 'retrosim/worlds/rugrats';
import { parseColFile } from 'retrosim/worlds/gta';
import pkg from 'retrosim/package.json' with { type: 'json' };
const world = await loadWorld('node_modules/retrosim/assets/worlds/rugrats/demo.col');
const sim = createSimulation(world, { agents: 20 });
for (let f = 0; f < 30; f++) sim.step(Buttons.Up);
const seg = new Float64Array([1500, -600, 1500, 9000, -600, 9000]);
const out = newLosOutput(1);
losBatch(world, seg, out);
const fr = new FieldRand(1420855);
let bad = null;
try { await loadWorld(new Uint8Array([1, 2, 3])); } catch (e) { bad = e instanceof FormatError; }
console.log(JSON.stringify({ version: pkg.version, kind: world.kind, frame: sim.frame, hash: sim.hashHex(), visible: out.visible[0], draw: fr.rand(100),
  cc: new CcRand().next !== undefined, streams: typeof new RandomStreams('x').get('a').next(), core: typeof core.loadWorldBytes, rugrats: typeof parseCol + typeof RugratsWorld, gta: typeof parseColFile, bad }));
`,
    );
    const r = run(process.execPath, ['plain.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(o).toMatchObject({ version: '0.2.0', kind: 'rugrats', frame: 30, core: 'function', rugrats: 'functionfunction', gta: 'function', bad: true, streams: 'number' });
    expect(o['hash']).toMatch(/^0x[0-9a-f]{16}$/);
  });

  it('the examples run in the installed folder', () => {
    mkdirSync(join(app, 'examples'), { recursive: true });
    for (const f of ['guards/guards.mjs', 'guards/run-guards.mjs', 'gta-queries/gta-queries.mjs']) {
      mkdirSync(join(app, 'examples', f.split('/')[0]!), { recursive: true });
      copyFileSync(join(repoRoot, 'examples', f), join(app, 'examples', f));
    }
    const g = run(process.execPath, ['examples/guards/run-guards.mjs', 'g.replay']);
    expect(g.stderr).toBe('');
    const lines = g.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]!['alarms']).toBeGreaterThan(0);
    expect(lines[1]!['verified']).toBe(true);
    expect(lines[2]!['seekHash']).toBe(lines[2]!['recordedHash']);
    const q = run(process.execPath, ['examples/gta-queries/gta-queries.mjs']);
    expect(q.code).toBe(0);
    expect(q.stdout.split('\n').filter(Boolean).length).toBe(9);
    const cli = run(npm, ['exec', '--offline', '--', 'retrosim', 'run', '--scenario', 'examples/guards/guards.mjs', '--world', 'node_modules/retrosim/assets/worlds/rugrats/demo.col', '--frames', '300', '--agents', '0', '--out', 'cli.replay', '--json']);
    expect(cli.stderr).toBe('');
    expect((JSON.parse(cli.stdout) as { signals: { alarm?: number } }).signals.alarm).toBeGreaterThan(0);
    expect(run(npm, ['exec', '--offline', '--', 'retrosim', 'replay', 'verify', 'cli.replay', '--scenario', 'examples/guards/guards.mjs']).code).toBe(0);
    // The package's own example run where it was installed: the entry is the user's module all the same, so
    // the replay lists it and verifies (it once listed only the package, a header the reader refuses).
    const inPlace = 'node_modules/retrosim/examples/guards/guards.mjs';
    const placed = run(npm, ['exec', '--offline', '--', 'retrosim', 'run', '--scenario', inPlace, '--world', 'rugrats-demo', '--set', 'guards=6', '--frames', '300', '--out', 'in-place.replay', '--json']);
    expect(placed.stderr).toBe('');
    expect(placed.code).toBe(0);
    const verified = run(npm, ['exec', '--offline', '--', 'retrosim', 'replay', 'verify', 'in-place.replay', '--scenario', inPlace]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    const info = run(npm, ['exec', '--offline', '--', 'retrosim', 'replay', 'info', 'in-place.replay', '--json']);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('guards.mjs');
  });

  it('a TypeScript program on the public types passes tsc --noEmit with strict, and compiles and runs', () => {
    copyFileSync(join(repoRoot, 'examples/typed/main.ts'), join(app, 'main.ts'));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, skipLibCheck: false, types: ['node'], typeRoots: [join(repoRoot, 'node_modules/@types')], outDir: 'out' },
        include: ['main.ts'],
      }),
    );
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const check = run(process.execPath, [tsc, '--noEmit', '-p', '.']);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.code).toBe(0);
    // And a type error is caught (the check above can fail).
    writeFileSync(join(app, 'wrong.ts'), "import { createSimulation } from 'retrosim';\ncreateSimulation('not a world');\n");
    const wrong = run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', '--typeRoots', join(repoRoot, 'node_modules/@types'), 'wrong.ts']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain('TS2345');
    expect(run(process.execPath, [tsc, '-p', '.']).code).toBe(0);
    const r = run(process.execPath, ['out/main.js']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ world: 'llama', verified: true, synctestFailures: 0 });
  });
});
