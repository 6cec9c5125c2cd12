import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PNG } from 'pngjs';
import { command } from '../../../src/cli/commands/field.js';
import { UsageError } from '../../../src/cli/args.js';
import { tempDir } from '../../setup/temp-dir.js';

/** Runs the command and returns what it printed. */
async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    const code = await command.run(args);
    return { code, out };
  } finally {
    spy.mockRestore();
  }
}

const AREA14 = ['--seed', '1420855', '--type', '10', '--weather', '0', '--ground', '1', '--object', '1', '--event', '14'];

describe('retrosim field', () => {
  afterEach(() => vi.restoreAllMocks());

  it('--json after the lake prints the reference state of story area 14', async () => {
    const { code, out } = await run([...AREA14, '--stop-after', 'lake', '--json', '--height', '1000,2000;16200,23100']);
    expect(code).toBe(0);
    const j = JSON.parse(out);
    expect(j).toMatchObject({
      stage: 'lake', randcnt: 6583, seed: 3001965418, mapFnv: '0xad6df38f49da519a', entrance: [13, 19], lake: [25, 19], start: null,
      objects: { entrance: 1, key: 0, sub: 0, base: 0, tree: 0, lake: 1 }, covers: 0,
    });
    expect(j.hills).toEqual([[22, 11, 24], [48, 45, 16], [48, 1, 12], [40, 65, 12], [60, 9, 16], [26, 59, 14]]);
    expect(j.heights.map((h: { bits: string }) => h.bits)).toEqual(['0x4222ab40', '0xc3fa0000']);
  });

  it('a whole field: the story start, 107 objects in the reference\'s kinds, and covers', async () => {
    const j = JSON.parse((await run([...AREA14, '--json', '--objects'])).out);
    expect(j.stage).toBe('start');
    expect(j.start).toEqual([20, 20]);
    expect(j.objects).toEqual({ entrance: 1, key: 17, sub: 26, base: 31, tree: 31, lake: 1 });
    expect(j.objectList).toHaveLength(107);
    expect(j.objectList[0]).toMatchObject({ kind: 'entrance', pos: [17400, 24000, 0] });
    expect(j.covers).toBeGreaterThan(1000);
    expect(j.tablesSynthetic).toBe(true);
  });

  it('--spec reads a field spec, and --png writes a picture', async () => {
    const dir = tempDir('piney-');
    const png = join(dir, 'f.png');
    const spec = new URL('../../../assets/worlds/piney/default.field.json', import.meta.url).pathname;
    const { code, out } = await run(['--spec', spec, '--stop-after', 'hills', '--png', png]);
    expect(code).toBe(0);
    expect(out).toMatch(/randcnt 6570/);
    const img = PNG.sync.read(readFileSync(png));
    expect([img.width, img.height]).toEqual([480, 480]);
  });

  it('usage errors: missing options, out-of-range type, unknown step', async () => {
    await expect(run(['--seed', '1'])).rejects.toThrow(UsageError);
    await expect(run([...AREA14.slice(0, 2), '--type', '11', '--weather', '0', '--ground', '0', '--object', '0'])).rejects.toThrow(UsageError);
    await expect(run([...AREA14, '--stop-after', 'lunch'])).rejects.toThrow(/stop-after/);
    await expect(run([...AREA14, '--height', '1;2'])).rejects.toThrow(UsageError);
  });
});
