/**
 * A scenario's identity is its module graph, the same from a program and from the CLI: a scenario split
 * over two modules (and importing a package), recorded by the CLI and by a program that imports it, gives
 * byte-identical replays; each verifies the other's; an edit of either module, or another version of the
 * package, is refused up front naming what changed (never a divergence frames later).
 *
 * Real processes in a temporary project whose node_modules/retrosim is this checkout (built: npm test
 * builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReplay } from '../../src/index.js';
import { ReplayWriter } from '../../src/replay/format.js';
import { graphListingHash } from '../../src/scenarios/graph-listing.js';
import type { ReplayHeader } from '../../src/index.js';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';

const RULES = `// The rules of tag, kept apart from the scenario.
export const STEP = 3;
export function chase(px, tx) { return px < tx ? STEP : px > tx ? -STEP : 0; }
`;

const TAG = `import { defineComponent, defineScenario, defineSystem, DEFAULT_SYSTEMS } from 'retrosim';
import { chase } from './rules.mjs';
import { LEVEL } from 'tag-levels';

export const It = defineComponent('It', { chases: 'u32' });

const chaser = defineSystem({
  name: 'chaser',
  priority: 49,
  create(host) {
    const it = host.ecs.store(It);
    return {
      run(ctx) {
        for (let e = 1; e <= host.ecs.maxId; e++) if (host.ecs.has(e, it)) it.chases[e] += chase(ctx.frame % 7, LEVEL);
      },
    };
  },
});

export default defineScenario({
  name: 'tag',
  version: '1.0.0',
  description: 'one agent is it',
  components: [It],
  systems: [...DEFAULT_SYSTEMS, chaser],
  setup(sim) {
    sim.ecs.add(1, sim.ecs.store(It));
  },
});
`;

const PROGRAM = `import { readFileSync, writeFileSync } from 'node:fs';
import { ReplayRecorder, createSimulation, demoButtons, openWorld, readReplay, verifyReplay } from 'retrosim';
import tag from './tag.mjs';

const [mode, file] = process.argv.slice(2);
const world = await openWorld('rugrats-demo');
if (mode === 'record') {
  const sim = createSimulation(world.world, { scenario: tag, agents: 3 });
  const rec = new ReplayRecorder(sim, world.identity, { keyframeInterval: 30 });
  for (let f = 1; f <= 90; f++) rec.step(demoButtons(f));
  writeFileSync(file, rec.finish());
  console.log(JSON.stringify({ recorded: sim.hashHex() }));
} else {
  try {
    const v = verifyReplay(readReplay(readFileSync(file)), { world, scenario: tag });
    console.log(JSON.stringify({ ok: v.ok, finalHash: v.finalHash }));
  } catch (e) {
    console.log(JSON.stringify({ error: e.message, name: e.name }));
  }
}
`;

let dir = '';

function node(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const cli = (args: string[]) => node([join(repoRoot, 'bin/retrosim.js'), ...args]);
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;

function writePackage(version: string): void {
  mkdirSync(join(dir, 'node_modules/tag-levels'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/tag-levels/package.json'), JSON.stringify({ name: 'tag-levels', version, type: 'module', exports: './index.js' }));
  writeFileSync(join(dir, 'node_modules/tag-levels/index.js'), 'export const LEVEL = 4;\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-identity-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules/retrosim'), 'dir');
  writePackage('1.0.0');
  writeFileSync(join(dir, 'rules.mjs'), RULES);
  writeFileSync(join(dir, 'tag.mjs'), TAG);
  writeFileSync(join(dir, 'program.mjs'), PROGRAM);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('scenario identity over the module graph, one from a program and from the CLI', () => {
  it('the CLI and a program importing the module record byte-identical replays, and each verifies the other\'s', () => {
    const a = cli(['run', '--world', 'rugrats-demo', '--scenario', 'tag.mjs', '--agents', '3', '--frames', '90', '--out', 'cli.replay', '--keyframes', '30', '--json']);
    expect(a.code, a.stderr).toBe(0);
    const b = node(['program.mjs', 'record', 'program.replay']);
    expect(b.code, b.stderr).toBe(0);
    const fromCli = readFileSync(join(dir, 'cli.replay'));
    const fromProgram = readFileSync(join(dir, 'program.replay'));
    expect(Buffer.compare(fromCli, fromProgram)).toBe(0);

    const sc = readReplay(fromCli).header.scenario;
    expect(sc.source).toBe('file:tag.mjs');
    expect(sc.modules!.map((m) => m.path)).toEqual(['rules.mjs', 'tag.mjs']);
    // The package by its content: name, version and the SHA-256 of the files the graph loads from it.
    expect(sc.packages).toHaveLength(1);
    expect(sc.packages![0]).toMatch(/^tag-levels@1\.0\.0#[0-9a-f]{64}$/);
    expect(sc.modules!.every((m) => /^[0-9a-f]{64}$/.test(m.hash))).toBe(true);

    const v1 = cli(['replay', 'verify', 'program.replay', '--scenario', 'tag.mjs', '--json']);
    expect(v1.code, v1.stderr + v1.stdout).toBe(0);
    expect(lastJson(v1.stdout)['ok']).toBe(true);
    const v2 = node(['program.mjs', 'verify', 'cli.replay']);
    expect(lastJson(v2.stdout)).toEqual({ ok: true, finalHash: lastJson(b.stdout)['recorded'] });
  });

  for (const [file, edit] of [
    ['rules.mjs', RULES.replace('STEP = 3', 'STEP = 4')],
    ['tag.mjs', TAG.replace("'one agent is it'", "'one agent is it, edited'")],
  ] as const) {
    it(`an edit of ${file} is refused up front, by the CLI and by a program, naming ${file}`, () => {
      const before = readFileSync(join(dir, file), 'utf8');
      writeFileSync(join(dir, file), edit);
      try {
        const v = cli(['replay', 'verify', 'cli.replay', '--scenario', 'tag.mjs', '--json']);
        expect(v.code).not.toBe(0);
        // An error, not a verify result (a divergence is one, with "ok": false): refused before any frame ran.
        const err = lastJson(v.stdout) as { ok?: boolean; error: { kind: string; message: string; file: string | null } };
        expect(err.ok).toBeUndefined();
        expect(err.error.kind).toBe('scenario');
        expect(err.error.file).toBe('tag.mjs');
        expect(err.error.message).toContain(`${file} changed`);
        const p = lastJson(node(['program.mjs', 'verify', 'cli.replay']).stdout);
        expect(p['ok']).toBeUndefined();
        expect(String(p['error'])).toContain(`${file} changed`);
      } finally {
        writeFileSync(join(dir, file), before);
      }
      expect(cli(['replay', 'verify', 'cli.replay', '--scenario', 'tag.mjs', '--json']).code).toBe(0);
    });
  }

  it('another version of a package the scenario imports is refused up front, naming both versions', () => {
    writePackage('1.1.0');
    try {
      const v = cli(['replay', 'verify', 'cli.replay', '--scenario', 'tag.mjs', '--json']);
      expect(v.code).not.toBe(0);
      expect(v.stdout).toMatch(/package tag-levels@1\.0\.0 \(content [0-9a-f]{12}…\) is now tag-levels@1\.1\.0 \(content [0-9a-f]{12}…\)/);
    } finally {
      writePackage('1.0.0');
    }
  });

  it('a package patched in place (same version, other bytes) is another package: refused up front', () => {
    const file = join(dir, 'node_modules/tag-levels/index.js');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('LEVEL = 4', 'LEVEL = 5'));
    try {
      const v = cli(['replay', 'verify', 'cli.replay', '--scenario', 'tag.mjs', '--json']);
      expect(v.code).toBe(1);
      const err = lastJson(v.stdout) as { error: { kind: string; message: string } };
      expect(err.error.kind).toBe('scenario');
      expect(err.error.message).toMatch(/package tag-levels@1\.0\.0 \(content [0-9a-f]{12}…\) is now tag-levels@1\.0\.0 \(content [0-9a-f]{12}…\)/);
    } finally {
      writeFileSync(file, before);
    }
    expect(cli(['replay', 'verify', 'cli.replay', '--scenario', 'tag.mjs', '--json']).code).toBe(0);
  });

  it('a module the graph cannot follow is refused when the program records, naming the module', () => {
    writeFileSync(join(dir, 'dyn.mjs'), "import { defineScenario, DEFAULT_SYSTEMS } from 'retrosim';\nconst name = './rules.mjs';\nawait import(name);\nexport default defineScenario({ name: 'dyn', version: '1', description: '', systems: DEFAULT_SYSTEMS });\n");
    writeFileSync(
      join(dir, 'dyn-program.mjs'),
      "import { ReplayRecorder, createSimulation, openWorld } from 'retrosim';\nimport dyn from './dyn.mjs';\nconst w = await openWorld('rugrats-demo');\ntry { new ReplayRecorder(createSimulation(w.world, { scenario: dyn, agents: 1 }), w.identity); console.log('recorded'); } catch (e) { console.log(JSON.stringify({ name: e.name, message: e.message })); }\n",
    );
    const r = lastJson(node(['dyn-program.mjs']).stdout);
    expect(r['name']).toBe('ScenarioError');
    expect(String(r['message'])).toContain('dyn.mjs cannot be identified');
    expect(String(r['message'])).toContain('import()');
  });
});

describe('the header keeps the module list', () => {
  const real = () => new Uint8Array(readFileSync(join(dir, 'cli.replay')));
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  /** The real replay with its HEAD chunk (at byte 12) replaced by one written for `header`. */
  function withHeader(bytes: Uint8Array, header: ReplayHeader): Uint8Array {
    const oldEnd = 20 + view(bytes).getUint32(16, true) + 4;
    const w = new ReplayWriter();
    w.header(header);
    const fresh = w.end(0, 0, 0);
    const head = fresh.subarray(12, fresh.length - 24); // less the END chunk: 8 + 12 + 4 bytes
    const out = new Uint8Array(12 + head.length + bytes.length - oldEnd);
    out.set(fresh.subarray(0, 12), 0); // the magic, the version and the flags the header calls for
    out.set(head, 12);
    out.set(bytes.subarray(oldEnd), 12 + head.length);
    return out;
  }
  const hex = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff })).map(([a, b]) => `0x${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`);

  const sha = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
  const uniquePaths = <T extends { path: string }>(a: T[]) => a.filter((m, i) => a.findIndex((x) => x.path === m.path) === i);

  it('any graph-1 list of modules and packages (replays recorded before graph 2) reads back as written', () => {
    const bytes = real();
    const h0 = readReplay(bytes).header;
    fc.assert(
      fc.property(fc.array(fc.record({ path: fc.string({ minLength: 1, maxLength: 40 }), hash: hex }), { minLength: 1, maxLength: 20 }).map(uniquePaths), fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }), (modules, packages) => {
        const got = readReplay(withHeader(bytes, { ...h0, scenario: { ...h0.scenario, modules, packages } })).header.scenario;
        expect(got.modules).toEqual(modules);
        expect(got.packages).toEqual(packages);
      }),
      { numRuns: 60 },
    );
  });

  const pkg = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.stringMatching(/^[0-9]\.[0-9]\.[0-9]$/), sha).map(([n, v, h]) => `${n}@${v}#${h}`);
  const graph2 = fc.tuple(fc.array(fc.record({ path: fc.string({ minLength: 1, maxLength: 40 }), hash: sha }), { minLength: 1, maxLength: 12 }).map(uniquePaths), fc.array(pkg, { maxLength: 4 }));

  it('a graph-2 list reads back as written when it hashes to the scenario hash (property)', () => {
    const bytes = real();
    const h0 = readReplay(bytes).header;
    fc.assert(
      fc.property(graph2, ([modules, packages]) => {
        const contentHash = `0x${graphListingHash(modules, packages).slice(0, 16)}`;
        const got = readReplay(withHeader(bytes, { ...h0, scenario: { ...h0.scenario, contentHash, modules, packages } })).header.scenario;
        expect(got.contentHash).toBe(contentHash);
        expect(got.modules).toEqual(modules);
        expect(got.packages).toEqual(packages);
      }),
      { numRuns: 60 },
    );
  });

  it('a graph-2 list changed in any way (a module, its hash, a package) is a format error naming the header (property)', () => {
    const bytes = real();
    const h0 = readReplay(bytes).header;
    const good = { ...h0, scenario: { ...h0.scenario } };
    const file = withHeader(bytes, good);
    expect(readReplay(file).header.scenario.contentHash).toBe(h0.scenario.contentHash);
    // Written by hand: the writer itself refuses a list that does not hash to the content hash.
    const tampered = (modules: { path: string; hash: string }[], packages: string[]): Uint8Array => {
      const listed = `0x${graphListingHash(modules, packages).slice(0, 16)}`;
      const h = { ...h0, scenario: { ...h0.scenario, contentHash: listed, modules, packages } };
      const out = withHeader(bytes, h);
      // Put the recorded hash back, as a forger who edits the list in place would leave it.
      const at = Buffer.from(out).indexOf(Buffer.from(listed.slice(2, 10), 'hex').reverse());
      expect(at).toBeGreaterThan(0);
      const rec = h0.scenario.contentHash;
      const v = view(out);
      v.setUint32(at, parseInt(rec.slice(2, 10), 16), true);
      v.setUint32(at + 4, parseInt(rec.slice(10, 18), 16), true);
      const len = v.getUint32(16, true);
      v.setUint32(20 + len, crc32(out.subarray(12, 20 + len)), true);
      return out;
    };
    fc.assert(
      fc.property(graph2, ([modules, packages]) => {
        const listed = `0x${graphListingHash(modules, packages).slice(0, 16)}`;
        fc.pre(listed !== h0.scenario.contentHash);
        expect(() => readReplay(tampered(modules, packages))).toThrow(/replay chunk HEAD #0 \(header\).*module list hashes to 0x[0-9a-f]{16}, not the recorded graph hash/);
      }),
      { numRuns: 40 },
    );
    // One real edit: the recorded module list with one byte of one hash changed.
    const m = h0.scenario.modules!.map((x, i) => (i === 0 ? { ...x, hash: (x.hash[0] === '0' ? '1' : '0') + x.hash.slice(1) } : x));
    expect(() => readReplay(tampered(m, h0.scenario.packages!))).toThrow(/not the recorded graph hash/);
  });

  it('a header whose payload holds bytes after its fields is refused', () => {
    const bytes = real();
    // Grow the HEAD chunk by 4 bytes before its CRC, with a right CRC: only the check of where the fields
    // end can refuse it.
    const len = view(bytes).getUint32(16, true);
    const end = 20 + len;
    const out = new Uint8Array(bytes.length + 4);
    out.set(bytes.subarray(0, end), 0);
    out.set(bytes.subarray(end + 4), end + 8);
    view(out).setUint32(16, len + 4, true);
    view(out).setUint32(end + 4, crc32(out.subarray(12, end + 4)), true);
    expect(() => readReplay(out)).toThrow(/header's fields take/);
  });

  it('a module count over the limit is refused', () => {
    const bytes = real();
    const h0 = readReplay(bytes).header;
    const many = Array.from({ length: 1001 }, (_, i) => ({ path: `m${i}.mjs`, hash: '0x0000000000000001' }));
    // (a graph-1 list: a graph-2 list that long could not hash to the scenario's hash)
    expect(() => withHeader(bytes, { ...h0, scenario: { ...h0.scenario, modules: many } })).toThrow(/more than 1000 modules/);
  });
});

function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
