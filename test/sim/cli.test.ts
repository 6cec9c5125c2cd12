import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { command as run } from '../../src/cli/commands/run.js';
import { command as replay } from '../../src/cli/commands/replay.js';
import { UsageError } from '../../src/cli/args.js';
import { FormatError } from '../../src/binary/format-error.js';
import { parseFileSource } from '../../src/replay/world-identity.js';

let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'retrosim-kernel-'));
const lastJson = () => JSON.parse(out[out.length - 1]!);

describe('retrosim run / replay', () => {
  const file = join(dir, 'short.replay');

  it('run --json writes a replay and prints the summary', async () => {
    const code = await run.run(['--frames', '130', '--agents', '40', '--keyframes', '50', '--out', file, '--json']);
    expect(code).toBe(0);
    const s = lastJson();
    expect(s.frames).toBe(130);
    expect(s.agents).toBe(40);
    expect(s.scenario.name).toBe('piney-field');
    expect(s.scenario.source).toBe('builtin:piney-field');
    expect(s.world.source).toBe('builtin:piney-default');
    expect(s.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
    expect(s.draws.fieldrand).toBeGreaterThan(0); // the field's set-up and weather draw fieldrand
    expect(s.draws.streams.wander).toBeGreaterThan(0);
    expect(s.replay.path).toBe(file);
    expect(readFileSync(file).length).toBe(s.replay.bytes);
  });

  it('two runs with the same options give the same final hash; another seed does not', async () => {
    await run.run(['--frames', '60', '--agents', '20', '--no-replay', '--json']);
    const a = lastJson().finalHash;
    await run.run(['--frames', '60', '--agents', '20', '--no-replay', '--json']);
    expect(lastJson().finalHash).toBe(a);
    await run.run(['--frames', '60', '--agents', '20', '--no-replay', '--seed', 'x', '--json']);
    expect(lastJson().finalHash).not.toBe(a);
  });

  it('replay info, verify and seek agree with the run', async () => {
    await run.run(['--frames', '130', '--agents', '40', '--keyframes', '50', '--out', file, '--json']);
    const final = lastJson().finalHash;
    expect(await replay.run(['info', file, '--json'])).toBe(0);
    const info = lastJson();
    expect(info.frames).toBe(130);
    expect(info.keyframes.map((k: { frame: number }) => k.frame)).toEqual([0, 50, 100]);
    expect(await replay.run(['verify', file, '--json'])).toBe(0);
    expect(lastJson()).toMatchObject({ ok: true, frames: 130, keyframes: 3, finalHash: final });
    expect(await replay.run(['seek', file, '--frame', '130', '--json'])).toBe(0);
    expect(lastJson()).toEqual({ frame: 130, hash: final, verified: true, expected: final, fromKeyframe: 100, sections: [], skippedKeyframes: [] });
    expect(await replay.run(['seek', file, '--frame', '75', '--json'])).toBe(0);
    const at75 = lastJson().hash;
    await run.run(['--frames', '75', '--agents', '40', '--no-replay', '--json']);
    expect(lastJson().finalHash).toBe(at75);
  });

  it('replay export prints every frame', async () => {
    await run.run(['--frames', '20', '--agents', '5', '--out', file, '--json']);
    expect(await replay.run(['export', file])).toBe(0);
    const j = lastJson();
    expect(j.frameList.length).toBe(20);
    expect(j.frameList[19].hash).toBe(j.finalHash);
  });

  it('a corrupted replay is a FormatError naming the chunk; usage mistakes are UsageErrors', async () => {
    await run.run(['--frames', '20', '--agents', '5', '--out', file, '--json']);
    const bytes = new Uint8Array(readFileSync(file));
    bytes[bytes.length - 30]! ^= 0x40;
    const bad = join(dir, 'bad.replay');
    writeFileSync(bad, bytes);
    await expect(replay.run(['verify', bad])).rejects.toThrow(FormatError);
    await expect(replay.run(['verify', bad])).rejects.toThrow(/replay chunk/);
    await expect(replay.run(['frobnicate', file])).rejects.toThrow(UsageError);
    await expect(replay.run(['seek', file])).rejects.toThrow(/--frame/);
    await expect(run.run(['--frames', 'many'])).rejects.toThrow(UsageError);
  });

  it('run --synctest checks every frame and finds no desync in the default scenario', async () => {
    expect(await run.run(['--frames', '30', '--agents', '10', '--no-replay', '--synctest', '3', '--json'])).toBe(0);
    const s = lastJson();
    expect(s.synctest).toEqual({ depth: 3, checkedFrames: 28, failures: [] });
  });

  it('run --world takes any world file a detector recognises', async () => {
    const spec = join(dir, 'field.json');
    writeFileSync(spec, JSON.stringify({ format: 'retrosim-piney-field', seed: 77, type: 2, weather: 2, ground: 0, object: 0 }));
    expect(await run.run(['--world', spec, '--frames', '40', '--agents', '10', '--out', file, '--json'])).toBe(0);
    const s = lastJson();
    expect(s.world.source).toBe(`file:${spec}`);
    expect(s.settings.fieldSeed).toBe(77);
    expect(await replay.run(['verify', file, '--json'])).toBe(0);
    expect(lastJson().ok).toBe(true);
    writeFileSync(spec, JSON.stringify({ format: 'retrosim-piney-field', seed: 78, type: 2, weather: 2, ground: 0, object: 0 }));
    await expect(replay.run(['verify', file, '--json'])).rejects.toThrow(/content hash/);
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, new Uint8Array([1, 2, 3]));
    await expect(run.run(['--world', junk, '--frames', '1'])).rejects.toThrow(FormatError);
  });

  it('run --world finds a Llama MAP beside its TRAK, and the replay identity covers both files', async () => {
    expect(await run.run(['--world', 'assets/worlds/llama/demo.trak', '--frames', '30', '--agents', '10', '--out', file, '--json'])).toBe(0);
    const s = lastJson();
    const trak = readFileSync('assets/worlds/llama/demo.trak').length;
    const map = readFileSync('assets/worlds/llama/demo.map').length;
    expect(s.world.kind).toBe('llama');
    expect(s.world.byteLength).toBe(trak + map);
    expect(await replay.run(['verify', file, '--json'])).toBe(0);
  });

  it('parses recorded file sources with and without an explicit MAP', () => {
    expect(parseFileSource('file:a/b.col')).toEqual({ path: 'a/b.col' });
    expect(parseFileSource('file:x.trak;map:y.map')).toEqual({ path: 'x.trak', mapPath: 'y.map' });
  });
});
