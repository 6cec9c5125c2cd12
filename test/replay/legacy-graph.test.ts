/**
 * Replays recorded before module graph 2 (retrosim 0.2.0) still verify: their header lists each local
 * module with the FNV-1a 64 of its bytes and a scenario hash over the files' bytes (graph 1), flags 0. The
 * runtime computes that graph-1 hash for the module given with --scenario and compares it before importing.
 *
 * GRAPH1_HASH below is what retrosim 0.2.0 recorded for the exact files this test writes (a golden value
 * from the old runtime, like a recorded state hash). The replay is made by recording with this runtime and
 * writing its header back as 0.2.0 wrote it; for these files that was checked to give the byte-identical
 * file 0.2.0 records.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReplay } from '../../src/index.js';
import { moduleGraph } from '../../src/node/module-graph.js';
import { FLAG_GRAPH2, ReplayWriter } from '../../src/replay/format.js';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';
import { spawnSync } from 'node:child_process';

/** retrosim 0.2.0's scenario hash for the files below. */
const GRAPH1_HASH = '0x92a3c5fc60d570ba';

const MAIN = `import { defineScenario, DEFAULT_SYSTEMS } from 'retrosim';
import { STEP } from './lib/rules.mjs';
import { LEVEL } from 'lvl';
export default defineScenario({ name: 'legacy', version: '1.0.0', description: \`step \${STEP} level \${LEVEL}\`, systems: DEFAULT_SYSTEMS });
`;

let dir = '';
const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/retrosim.js'), ...args], { cwd: dir, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-legacy-graph-'));
  mkdirSync(join(dir, 'lib'));
  mkdirSync(join(dir, 'node_modules', 'lvl'), { recursive: true });
  writeFileSync(join(dir, 'main.mjs'), MAIN);
  writeFileSync(join(dir, 'lib', 'rules.mjs'), 'export const STEP = 3;\n');
  writeFileSync(join(dir, 'node_modules', 'lvl', 'package.json'), '{"name":"lvl","version":"2.0.1","type":"module","exports":"./index.js"}\n');
  writeFileSync(join(dir, 'node_modules', 'lvl', 'index.js'), 'export const LEVEL = 4;\n');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('replays of module graph 1 (recorded before graph 2)', () => {
  it('the graph-1 hash of a module is the one retrosim 0.2.0 recorded', () => {
    const g = moduleGraph(join(dir, 'main.mjs'));
    expect(g.legacyHash).toBe(GRAPH1_HASH);
    expect(g.legacyModules.map((m) => m.path)).toEqual(['lib/rules.mjs', 'main.mjs']);
    expect(g.legacyPackages).toEqual(['lvl@2.0.1']);
    expect(g.contentHash).not.toBe(GRAPH1_HASH);
  });

  it('verifies with --scenario, flags 0; a module edited since is refused before it runs, naming the file', () => {
    expect(cli(['run', '--scenario', 'main.mjs', '--world', 'rugrats-demo', '--agents', '3', '--frames', '30', '--keyframes', '10', '--out', 'new.replay']).code).toBe(0);
    const bytes = new Uint8Array(readFileSync(join(dir, 'new.replay')));
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(10, true)).toBe(FLAG_GRAPH2);
    const rp = readReplay(bytes);
    const g = moduleGraph(join(dir, 'main.mjs'));
    const w = new ReplayWriter();
    w.header({ ...rp.header, runtime: 'retrosim 0.2.0', scenario: { ...rp.header.scenario, contentHash: GRAPH1_HASH, modules: g.legacyModules, packages: g.legacyPackages } });
    const fresh = w.end(0, 0, 0);
    const head = fresh.subarray(12, fresh.length - 24);
    const oldEnd = 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true) + 4;
    const old = new Uint8Array(12 + head.length + bytes.length - oldEnd);
    old.set(fresh.subarray(0, 12), 0);
    old.set(head, 12);
    old.set(bytes.subarray(oldEnd), 12 + head.length);
    expect(new DataView(old.buffer).getUint16(10, true)).toBe(0);
    writeFileSync(join(dir, 'old.replay'), old);
    const ok = cli(['replay', 'verify', 'old.replay', '--scenario', 'main.mjs', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, frames: 30 });
    writeFileSync(join(dir, 'lib', 'rules.mjs'), 'export const STEP = 4;\n');
    const bad = cli(['replay', 'verify', 'old.replay', '--scenario', 'main.mjs', '--json']);
    expect(bad.code).toBe(1);
    const e = (JSON.parse(bad.stdout) as { error: { kind: string; message: string } }).error;
    expect(e.kind).toBe('scenario');
    expect(e.message).toContain(`module graph ${GRAPH1_HASH}`);
    expect(e.message).toMatch(/lib\/rules\.mjs changed \(recorded 0x[0-9a-f]{16}, now 0x[0-9a-f]{16}\)/);
    expect(e.message).not.toContain('package');
  });
});
