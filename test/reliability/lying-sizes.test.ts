/**
 * Files that lie about their size: a file under /proc reports 0 bytes and reads on for hundreds of
 * gigabytes (/proc/self/pagemap), and a FIFO reports 0 and blocks until a writer comes. Each input the
 * runtime reads (a world, a world's partner file, GTA placements, a replay, a batch file, a scenario
 * module, a results file) is read with a running count against its limit, or refused as not a regular
 * file: a clear one-line error in bounded time and memory, never a hang or an out-of-memory crash.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonTooDeepAt } from '../../src/binary/json-depth.js';
import { BoundedReadError, readBounded } from '../../src/node/bounded-read.js';
import { killAll, repoRoot, runCliAsync } from '../batch/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-lying-'));
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const ENDLESS = '/proc/self/pagemap';
/** Linux has the endless file (CI runs there): these tests are required on it, and fail if it does not behave. */
const ON_LINUX = process.platform === 'linux';
/** The endless file is there, reports 0 bytes and reads on past a few MiB (as on Linux). */
const endlessWorks = (() => {
  try {
    if (statSync(ENDLESS).size !== 0) return false;
    const fd = openSync(ENDLESS, 'r');
    const b = Buffer.alloc(1 << 20);
    let n = 0;
    for (let i = 0; i < 8; i++) n += readSync(fd, b, 0, b.length, null);
    closeSync(fd);
    return n === 8 << 20;
  } catch {
    return false;
  }
})();

/** A link at `name` in the temporary folder to the endless file. */
function endless(name: string): string {
  const p = join(dir, name);
  symlinkSync(ENDLESS, p);
  return p;
}

/** Runs the CLI with --json; a process still running after two minutes is killed (and fails the test). */
async function refused(args: string[]): Promise<{ code: number; kind: string; message: string }> {
  const r = await runCliAsync([...args, '--json'], 120_000);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  const err = (JSON.parse(r.stdout.trim().split('\n').pop()!) as { error: { kind: string; message: string } }).error;
  return { code: r.code, ...err };
}

describe.skipIf(!ON_LINUX)('files that report 0 bytes and read without end', () => {
  it(`${ENDLESS} reports 0 bytes and reads on past 8 MiB`, () => expect(endlessWorks).toBe(true));

  it('a batch file: refused past limits.batch.fileBytes', async () => {
    const r = await refused(['batch', endless('endless.json')]);
    expect(r.code).toBe(1);
    expect(r.message).toMatch(/endless\.json: .*over the 1048576-byte limit of a batch file.*read past the size it reports/);
  }, 180_000);

  it('a scenario module: refused past limits.scenarioBytes', async () => {
    const r = await refused(['run', '--world', 'assets/worlds/rugrats/demo.col', '--scenario', endless('endless.mjs'), '--frames', '1', '--no-replay']);
    expect(r.code).toBe(1);
    expect(r.kind).toBe('scenario');
    expect(r.message).toMatch(/reads past the limit of 4194304 bytes \(limits\.scenarioBytes\)/);
  }, 180_000);

  it('a world file and a replay: refused past limits.fileBytes', async () => {
    const w = await refused(['run', '--world', endless('endless.col'), '--frames', '1', '--no-replay']);
    expect(w.code).toBe(2);
    expect(w.message).toMatch(/endless\.col: reads past the 268435456-byte limit/);
    const rp = await refused(['replay', 'verify', endless('endless.replay')]);
    expect(rp.code).toBe(2);
    expect(rp.message).toMatch(/endless\.replay: reads past the 268435456-byte limit/);
  }, 300_000);

  it("a world's partner file (a Llama MAP) and GTA placements found beside a world", async () => {
    copyFileSync(join(repoRoot, 'assets/worlds/llama/demo.trak'), join(dir, 'track.trak'));
    endless('track.map');
    const m = await refused(['world', 'info', join(dir, 'track.trak')]);
    expect(m.code).toBe(1);
    expect(m.message).toMatch(/track\.map reads past the limit of 268435456 bytes/);
    copyFileSync(join(repoRoot, 'assets/worlds/gta/town.col'), join(dir, 'town.col'));
    endless('town.placements.json');
    const g = await refused(['world', 'info', join(dir, 'town.col')]);
    expect(g.code).toBe(1);
    expect(g.kind).toBe('format');
    expect(g.message).toMatch(/town\.placements\.json reads past the limit/);
  }, 300_000);

  it('a world in a batch (its folder allowed) and a results file for batch report', async () => {
    const b = join(dir, 'b');
    mkdirSync(b);
    symlinkSync(ENDLESS, join(b, 'w.col'));
    const file = join(b, 'w.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify({ batch: 1, jobs: [{ world: 'w.col', frames: 5 }] }));
    const r = await refused(['batch', file, '--allow-dir', '/proc', '--out', join(dir, 'out', 'w.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.message).toMatch(/jobs\[0\]\.world .*reads past the limit of 268435456 bytes/);
    const rep = await refused(['batch', 'report', endless('endless.jsonl')]);
    expect(rep.code).toBe(1);
    expect(rep.message).toMatch(/endless\.jsonl: .*over the limit of 268435456 bytes/);
  }, 300_000);
});

describe('a FIFO is refused without waiting for a writer', () => {
  it("as a world's partner file (a Llama MAP beside its TRAK)", async () => {
    copyFileSync(join(repoRoot, 'assets/worlds/llama/demo.trak'), join(dir, 'fifo.trak'));
    execFileSync('mkfifo', [join(dir, 'fifo.map')]);
    const r = await refused(['world', 'info', join(dir, 'fifo.trak')]);
    expect(r.code).toBe(1);
    expect(r.message).toMatch(/fifo\.map is not a regular file/);
  }, 180_000);
});

describe('the bounded reader and the JSON depth scan', () => {
  const err = (f: () => unknown): BoundedReadError => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(BoundedReadError);
      return e as BoundedReadError;
    }
    throw new Error('expected a BoundedReadError');
  };

  it('reads a file of exactly the limit, refuses one byte more, an empty file is empty, a folder is not a regular file', async () => {
    const { writeFileSync } = await import('node:fs');
    const p = join(dir, 'exact.bin');
    const bytes = Buffer.alloc(100_000, 7);
    writeFileSync(p, bytes);
    const read = readBounded(p, 100_000);
    expect(Buffer.from(read).equals(bytes)).toBe(true);
    // Its own memory, exactly sized (a caller may transfer it to a worker thread); a small file too.
    expect([read.byteOffset, read.buffer.byteLength]).toEqual([0, 100_000]);
    writeFileSync(join(dir, 'small.bin'), 'abc');
    const small = readBounded(join(dir, 'small.bin'), 10);
    expect([small.byteOffset, small.buffer.byteLength, small.length]).toEqual([0, 3, 3]);
    expect(err(() => readBounded(p, 99_999))).toMatchObject({ code: 'EFBIG', size: 100_000 });
    writeFileSync(join(dir, 'empty.bin'), '');
    expect(readBounded(join(dir, 'empty.bin'), 10).length).toBe(0);
    expect(err(() => readBounded(dir, 10)).code).toBe('ENOTREG');
    expect(err(() => readBounded(join(dir, 'missing.bin'), 10)).code).toBe('ENOENT');
    expect(err(() => readBounded('/dev/zero', 10)).code).toBe('ENOTREG');
  });

  it.skipIf(!ON_LINUX)('an endless file is cut at the limit, whatever the limit (a few bytes over, never an odd read refused)', () => {
    for (const max of [0, 1, 7, 65_535, 65_536, 3 << 20]) {
      const e = err(() => readBounded(ENDLESS, max));
      expect(e.code).toBe('EFBIG');
      expect(e.size!).toBeGreaterThan(max);
      expect(e.size!).toBeLessThanOrEqual(max + (1 << 20) + (1 << 16));
    }
  });

  it('depth counts [ and { outside strings only', () => {
    // Brackets inside strings, an escaped quote among them, do not count: the real depth here is 2.
    const text = '["[[[[", {"a": "{{\\"{{"}]';
    expect(jsonTooDeepAt(text, 2)).toBe(-1);
    expect(jsonTooDeepAt(text, 1)).toBe(text.indexOf('{'));
    expect(jsonTooDeepAt('{"a":{"b":[1]}}', 3)).toBe(-1);
    expect(jsonTooDeepAt('{"a":{"b":[1]}}', 2)).toBe(10);
    expect(jsonTooDeepAt(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 64)).toBe(64);
  });
});
