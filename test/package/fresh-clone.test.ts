/**
 * The package from a fresh clone, as a newcomer makes it: `git clone`, then `npm pack` (whose `prepack`
 * builds dist/ first: a clone has none), installed into an empty project, where a scenario of a kind the
 * guide does not show runs through everything a user does with one: a race on the shipped Llama level
 * (checkpoint cells, lap times in a component, a system that eases off when it sees another racer ahead,
 * over three modules: test/package/race/) run from the CLI, its replay verified, sought from a Buffer by a
 * program, swept in a batch, and verified in a batch.
 *
 * The clone is of this repository's HEAD (its committed files). Its node_modules is the checkout's (the same
 * lockfile, so the same packages `npm ci` would install); the installed project gets the runtime
 * dependencies packed from there, as pack.test.ts does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'retrosim-fresh-clone-'));
const clone = join(tmp, 'clone');
const app = join(tmp, 'app');
let packed: { filename: string; files: { path: string }[] };

function run(cmd: string, args: string[], cwd = app): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const retrosim = (args: string[]) => run(process.execPath, [join(app, 'node_modules', 'retrosim', 'bin', 'retrosim.js'), ...args]);
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as Record<string, any>;
const LEVEL = 'node_modules/retrosim/assets/worlds/llama/demo.trak';

beforeAll(() => {
  execFileSync('git', ['clone', '--quiet', repoRoot, clone]);
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
  // No --ignore-scripts: the pack builds, as it does for anyone who packs a clone.
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', tmp], { cwd: clone, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  packed = (JSON.parse(out.slice(out.indexOf('['))) as (typeof packed)[])[0]!;
  mkdirSync(join(app, 'race'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'racer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const deps = Object.keys(pkg.dependencies).map((name) => {
    const depOut = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: join(repoRoot, 'node_modules', name), encoding: 'utf8' });
    return join(tmp, (JSON.parse(depOut) as { filename: string }[])[0]!.filename);
  });
  const inst = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(tmp, packed.filename), ...deps]);
  if (inst.code !== 0) throw new Error(`npm install --prefer-offline failed (${inst.code}):\n${inst.stderr}`);
  for (const f of readdirSync(join(repoRoot, 'test', 'package', 'race'))) copyFileSync(join(repoRoot, 'test', 'package', 'race', f), join(app, 'race', f));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a fresh clone, packed and installed', () => {
  it('the tarball holds the built code (prepack built it) and the installed CLI runs', () => {
    const built = packed.files.filter((f) => f.path.startsWith('dist/src/') && f.path.endsWith('.js'));
    expect(built.length).toBeGreaterThan(100);
    for (const p of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/node/scenario-hooks.js']) expect(packed.files.map((f) => f.path)).toContain(p);
    const help = retrosim(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('retrosim');
  });

  it('the build made the WebAssembly kernels from their AssemblyScript sources, and the installed CLI runs them', () => {
    const files = packed.files.map((f) => f.path);
    for (const k of ['worlds/piney/cast-kernel-bytes', 'worlds/gta/walk-kernel-bytes', 'worlds/rugrats/walk-kernel-bytes', 'systems/los/pair-walk-kernel-bytes']) {
      for (const ext of ['js', 'd.ts', 'wasm']) expect(files).toContain(`dist/src/${k}.${ext}`);
    }
    // The bytes the module carries are the .wasm beside it, a WebAssembly module.
    const dir = join(app, 'node_modules', 'retrosim', 'dist', 'src', 'worlds', 'piney');
    const wasm = readFileSync(join(dir, 'cast-kernel-bytes.wasm'));
    expect([...wasm.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]);
    expect(readFileSync(join(dir, 'cast-kernel-bytes.js'), 'utf8')).toContain(`'${wasm.toString('base64')}'`);
    const sums = (['off', 'on'] as const).map((mode) => {
      const r = retrosim(['los', '--world', 'piney-default', '--agents', '500', '--frames', '3', '--wasm', mode, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = lastJson(r.stdout);
      expect(out['wasm']).toBe(mode === 'on');
      return out['checksum'] as string;
    });
    expect(sums[1]).toBe(sums[0]);
    // The GTA town's walk and the Rugrats walk too.
    for (const world of ['gta-town', 'rugrats-demo']) {
      const sums = (['off', 'on'] as const).map((mode) => {
        const r = retrosim(['los', '--world', world, '--agents', '300', '--frames', '3', '--wasm', mode, '--json']);
        expect(r.code, r.stderr).toBe(0);
        const out = lastJson(r.stdout);
        expect(out['wasm'], `${world} --wasm ${mode}`).toBe(mode === 'on');
        return out['checksum'] as string;
      });
      expect(sums[1], world).toBe(sums[0]);
    }
  });

  it('a race on the Llama level: run, verify, seek from a Buffer, a batch sweep and a batch verify', () => {
    const r = retrosim(['run', '--scenario', 'race/race.mjs', '--world', LEVEL, '--agents', '0', '--frames', '1500', '--keyframes', '300', '--out', 'race.replay', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = lastJson(r.stdout);
    expect(s['scenario']).toMatchObject({ name: 'race', version: '1.0.0', source: 'file:race/race.mjs' });
    expect(s['signals']['lap']).toBeGreaterThan(0);

    const v = retrosim(['replay', 'verify', 'race.replay', '--scenario', 'race/race.mjs', '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(lastJson(v.stdout)).toMatchObject({ ok: true, frames: 1500, finalHash: s['finalHash'] });

    writeFileSync(
      join(app, 'seek.mjs'),
      `import { readFileSync } from 'node:fs';
import { loadScenarioFile, openWorld, readReplay, seekReplay } from 'retrosim';
const world = await openWorld(${JSON.stringify(LEVEL)});
const { scenario } = await loadScenarioFile('race/race.mjs');
const bytes = readFileSync('race.replay'); // a Buffer, as read
const rp = readReplay(bytes);
const out = [700, 1234].map((f) => seekReplay(rp, { world, scenario }, f));
console.log(JSON.stringify({ buffer: Buffer.isBuffer(bytes), verified: out.map((o) => o.verified) }));
`,
    );
    const k = run(process.execPath, ['seek.mjs']);
    expect(k.code, k.stderr).toBe(0);
    expect(lastJson(k.stdout)).toEqual({ buffer: true, verified: [true, true] });

    writeFileSync(join(app, 'sweep.json'), JSON.stringify({ batch: 1, name: 'sweep', sweep: { world: LEVEL, scenario: 'race/race.mjs', agents: 0, frames: 600, seed: ['a', 'b'], params: { racers: [2, 5] }, measure: ['events'], keepReplay: true } }));
    const b = retrosim(['batch', 'sweep.json', '--workers', '2', '--out', 'sweep.jsonl', '--json']);
    expect(b.code, b.stderr).toBe(0);
    const lines = readFileSync(join(app, 'sweep.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l['status']).toBe('done');

    writeFileSync(join(app, 'check.json'), JSON.stringify({ batch: 1, name: 'check', verify: [{ replays: 'race.replay', scenario: 'race/race.mjs' }, { replays: 'replays', scenario: 'race/race.mjs' }] }));
    const c = retrosim(['batch', 'check.json', '--workers', '2', '--out', 'check.jsonl', '--json']);
    expect(c.code, c.stderr + c.stdout).toBe(0);
    const checked = readFileSync(join(app, 'check.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(checked).toHaveLength(5);
    for (const l of checked) expect(l['result']['ok']).toBe(true);
  });
});
