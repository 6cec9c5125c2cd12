/**
 * The runtime hash covers the runtime's own dependencies as Node loads them: on a copy of the built runtime
 * with copies of its packages, the hash is the repository's (where things are does not count, nor the other
 * packages of the repository's node_modules); one byte changed in seedrandom changes it, and so does a
 * package missing; a package the runtime does not depend on changes nothing; a dependency's own dependency
 * counts, found where Node finds it (a nested copy before the top-level one); a symbolic link inside a
 * package is not followed; a package past the byte limit is refused by its size, unread. And against a real
 * redis-server, a worker whose seedrandom differs by one byte (the runtime's own files unchanged) puts the
 * jobs back as of other code (with a key, its signed notes of them are told by the batch), and a right
 * worker finishes them.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runtimeHash, runtimeHashOf, RUNTIME_HASH_MAX_BYTES } from '../../src/node/runtime-hash.js';
import { cli, killAll, repoRoot, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-runtime-hash-'));
let redis: RedisServer | undefined;

afterAll(async () => {
  await killAll();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

const real = runtimeHashOf(repoRoot);

/** A copy of the built runtime with copies of the packages it loads (and nothing else) in its node_modules. */
function copyTree(name: string): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
  cpSync(join(repoRoot, 'dist', 'src'), join(root, 'dist', 'src'), { recursive: true });
  for (const p of real.packages) cpSync(p.dir!, join(root, 'node_modules', p.name), { recursive: true });
  return root;
}

/** Flips one byte of a comment in `file` (its first letter 'A' becomes 'a'). */
function flipByte(file: string): void {
  const b = readFileSync(file);
  const at = b.indexOf('A library');
  expect(at).toBeGreaterThan(0);
  b[at] = 'a'.charCodeAt(0);
  writeFileSync(file, b);
}

describe('the runtime hash', { timeout: 600_000 }, () => {
  it('covers the packages the runtime loads, found as Node finds them, and no others', () => {
    expect(real.packages.map((p) => p.name)).toEqual(['acorn', 'bitecs', 'mitt', 'pngjs', 'seedrandom', 'ws']);
    for (const p of real.packages) {
      expect(p.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(p.files).toBeGreaterThan(0);
    }
    // This process's runtime (run from the sources: the package's dist/src) is the same runtime.
    expect(runtimeHash()).toBe(real.hash);

    const root = copyTree('tree');
    const hash = () => runtimeHashOf(root).hash;
    // Elsewhere, without the repository's other packages: the same hash.
    expect(hash()).toBe(real.hash);

    // One byte of a dependency.
    const seed = join(root, 'node_modules', 'seedrandom', 'index.js');
    const original = readFileSync(seed);
    flipByte(seed);
    const patched = hash();
    expect(patched).not.toBe(real.hash);
    writeFileSync(seed, original);
    expect(hash()).toBe(real.hash);

    // A package nothing depends on.
    mkdirSync(join(root, 'node_modules', 'unrelated'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'unrelated', 'package.json'), '{"name":"unrelated","version":"1.0.0"}');
    writeFileSync(join(root, 'node_modules', 'unrelated', 'index.js'), 'module.exports = 1;\n');
    expect(hash()).toBe(real.hash);
    appendFileSync(join(root, 'node_modules', 'unrelated', 'index.js'), '// changed\n');
    expect(hash()).toBe(real.hash);

    // A symbolic link inside a package is not followed: what it points at does not count.
    writeFileSync(join(tmp, 'outside.js'), 'module.exports = 1;\n');
    symlinkSync(join(tmp, 'outside.js'), join(root, 'node_modules', 'seedrandom', 'outside.js'));
    symlinkSync(tmp, join(root, 'node_modules', 'seedrandom', 'outside-dir'));
    expect(hash()).toBe(real.hash);
    appendFileSync(join(tmp, 'outside.js'), '// changed\n');
    expect(hash()).toBe(real.hash);

    // A dependency's own dependency: mitt now depends on tiny (its package.json changed, so the hash did).
    const mittPkg = join(root, 'node_modules', 'mitt', 'package.json');
    const mittOriginal = readFileSync(mittPkg, 'utf8');
    writeFileSync(mittPkg, JSON.stringify({ ...(JSON.parse(mittOriginal) as object), dependencies: { tiny: '1.0.0' } }));
    const withMissing = runtimeHashOf(root);
    expect(withMissing.packages.find((p) => p.name === 'tiny')).toMatchObject({ version: 'missing', dir: null });
    const tiny = (dir: string, text: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"name":"tiny","version":"1.0.0"}');
      writeFileSync(join(dir, 'index.js'), text);
    };
    tiny(join(root, 'node_modules', 'tiny'), 'module.exports = 1;\n');
    const withTiny = runtimeHashOf(root);
    expect(withTiny.hash).not.toBe(withMissing.hash);
    expect(withTiny.packages.find((p) => p.name === 'tiny')).toMatchObject({ version: '1.0.0', dir: realpathSync(join(root, 'node_modules', 'tiny')), files: 2 });
    appendFileSync(join(root, 'node_modules', 'tiny', 'index.js'), '// patched\n');
    const tinyPatched = hash();
    expect(tinyPatched).not.toBe(withTiny.hash);
    // A copy nested in mitt's own node_modules is the one Node loads for mitt: the top-level one no longer counts.
    tiny(join(root, 'node_modules', 'mitt', 'node_modules', 'tiny'), 'module.exports = 2;\n');
    const nested = runtimeHashOf(root);
    expect(nested.hash).not.toBe(tinyPatched);
    expect(nested.packages.filter((p) => p.name === 'tiny').map((p) => p.dir)).toEqual([realpathSync(join(root, 'node_modules', 'mitt', 'node_modules', 'tiny'))]);
    appendFileSync(join(root, 'node_modules', 'tiny', 'index.js'), '// not loaded\n');
    expect(hash()).toBe(nested.hash);
    rmSync(join(root, 'node_modules', 'mitt', 'node_modules'), { recursive: true });
    rmSync(join(root, 'node_modules', 'tiny'), { recursive: true });
    writeFileSync(mittPkg, mittOriginal);
    expect(hash()).toBe(real.hash);

    // A dependency missing.
    rmSync(join(root, 'node_modules', 'pngjs'), { recursive: true });
    const missing = runtimeHashOf(root);
    expect(missing.hash).not.toBe(real.hash);
    expect(missing.packages.find((p) => p.name === 'pngjs')).toMatchObject({ version: 'missing' });
    cpSync(real.packages.find((p) => p.name === 'pngjs')!.dir!, join(root, 'node_modules', 'pngjs'), { recursive: true });
    expect(hash()).toBe(real.hash);

    // Past the byte limit: refused by its size, naming the package, without reading it (a sparse file).
    const huge = join(root, 'node_modules', 'bitecs', 'huge.js');
    writeFileSync(huge, '');
    truncateSync(huge, RUNTIME_HASH_MAX_BYTES + 1);
    expect(() => runtimeHashOf(root)).toThrow(new RegExp(`^the runtime hash reads at most ${RUNTIME_HASH_MAX_BYTES} bytes; package bitecs \\(`));
    rmSync(huge);
    expect(hash()).toBe(real.hash);
  });

  it('costs tens of milliseconds, once per process', () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      runtimeHashOf(repoRoot);
      times.push(performance.now() - t);
    }
    const t = performance.now();
    for (let i = 0; i < 1000; i++) runtimeHash();
    const cachedMs = performance.now() - t;
    console.log(`runtime hash figures: ${JSON.stringify({ files: real.files, bytes: real.bytes, builtFiles: real.builtFiles, packages: real.packages.length, ms: times.map((x) => Math.round(x)), cachedMsPer1000: Math.round(cachedMs * 1000) / 1000 })}`);
    // A generous net, not a speed check: the cached value is returned without hashing again.
    expect(cachedMs).toBeLessThan(Math.max(...times) * 10);
  });

  it('a worker whose seedrandom differs by one byte puts the jobs back as of other code; a right worker finishes them', async () => {
    redis = await startRedis();
    // The built runtime copied, with a node_modules of its own: links to the repository's packages, but a
    // patched copy of seedrandom.
    const root = join(tmp, 'patched');
    mkdirSync(join(root, 'dist'), { recursive: true });
    cpSync(join(repoRoot, 'dist', 'src'), join(root, 'dist', 'src'), { recursive: true });
    cpSync(join(repoRoot, 'bin'), join(root, 'bin'), { recursive: true });
    cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(repoRoot, 'assets'), join(root, 'assets'));
    const modules = realpathSync(join(repoRoot, 'node_modules'));
    mkdirSync(join(root, 'node_modules'));
    for (const name of readdirSync(modules)) {
      if (name === 'seedrandom') cpSync(join(modules, name), join(root, 'node_modules', name), { recursive: true });
      else symlinkSync(join(modules, name), join(root, 'node_modules', name));
    }
    flipByte(join(root, 'node_modules', 'seedrandom', 'index.js'));
    expect(runtimeHashOf(root).hash).not.toBe(real.hash);

    const dir = join(tmp, 'batch');
    mkdirSync(dir, { recursive: true });
    cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
    const file = writeBatch(dir, 'h', { batch: 1, name: 'h', retries: 0, sweep: { world: 'level.col', agents: [2, 3], frames: 60 } });
    // With a key: the patched worker's notes of what it put back are signed for the queue and the run, and told.
    const keyFile = join(tmp, 'batch.key');
    writeFileSync(keyFile, `runtime-${'3d5f'.repeat(8)}`, { mode: 0o600 });
    const b = cli(['batch', file, '--redis', redis.url, '--queue', 'h', '--out', join(dir, 'out', 'h.jsonl'), '--json', '--key-file', keyFile]);
    const child = spawn(process.execPath, [join(root, 'bin', 'retrosim.js'), 'worker', '--redis', redis.url, '--queue', 'h', '--name', 'patched', '--json', '--key-file', keyFile], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.resume();
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const events = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    const refused = await waitFor('both jobs refused by the patched worker (or the batch ended)', () => {
      const r = events().filter((e) => e['event'] === 'refused');
      return r.length >= 2 || b.child.exitCode !== null ? r : undefined;
    });
    expect(refused.map((e) => e['reason'])).toEqual(['runtime', 'runtime']);
    const ready = events().find((e) => e['event'] === 'ready')!;
    expect(ready['runtimeHash']).toBe(runtimeHashOf(root).hash);
    expect(refused[0]!['batchRuntimeHash']).toBe(real.hash);
    // The batch tells the (signed) refusal before a right worker comes.
    await waitFor('the batch telling the refusal', () => /job \d+: refused by worker patched: runtime differs/.test(b.stderr()));
    const right: Proc = cli(['worker', '--redis', redis.url, '--queue', 'h', '--name', 'right', '--key-file', keyFile]);
    expect(await b.exited).toBe(0);
    const summary = JSON.parse(b.stdout().trim()) as Record<string, number>;
    expect(summary).toMatchObject({ done: 2, failed: 0, key: true });
    expect(summary['refusedByWorkers']).toBeGreaterThanOrEqual(1);
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    expect(events().find((e) => e['event'] === 'stopped')).toMatchObject({ done: 0, refused: 2 });
    right.child.kill('SIGTERM');
    expect(await right.exited).toBe(0);
  });
});
