/**
 * Bytes in any Uint8Array subclass read as the same bytes in a plain one: Node's Buffer (what readFileSync
 * gives) and a subclass of one's own. A replay read from a Buffer seeks and verifies (its keyframes' byte
 * arrays were Buffers, which the snapshot's checks of a plain Uint8Array refused), and every shipped world
 * loads from a Buffer with the same identity and answers.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulation, demoButtons, loadScenarioFile, loadWorldBytes, openWorld, readReplay, ReplayRecorder, seekReplay, verifyReplay, worldIdentity } from '../../src/index.js';
import { repoRoot } from '../cli/run-cli.js';

class MyBytes extends Uint8Array {}

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-byte-subclasses-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const asSubclass = (b: Uint8Array): MyBytes => {
  const m = new MyBytes(b.length);
  m.set(b);
  return m;
};

describe('Uint8Array subclasses', () => {
  it('a replay with byte-array state read from a Buffer (and from a subclass) seeks and verifies', async () => {
    const world = await openWorld('rugrats-demo');
    const { scenario } = await loadScenarioFile(join(repoRoot, 'examples/guards/guards.mjs'));
    const sim = createSimulation(world.world, { scenario, agents: 0, params: { guards: 4 } });
    const rec = new ReplayRecorder(sim, world.identity, { keyframeInterval: 20 });
    for (let f = 1; f <= 50; f++) rec.step(demoButtons(f));
    const file = join(tmp, 'guards.replay');
    writeFileSync(file, rec.finish());
    const buffer = readFileSync(file);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    for (const bytes of [buffer, asSubclass(buffer)]) {
      const rp = readReplay(bytes);
      expect(rp.keyframes.length).toBe(3);
      for (const f of [0, 20, 33, 50]) expect(seekReplay(rp, { world, scenario }, f).verified).toBe(true);
      expect(verifyReplay(rp, { world, scenario }).ok).toBe(true);
      expect(seekReplay(bytes, { world, scenario }, 45).verified).toBe(true);
    }
  });

  it('every shipped world loads from a Buffer and a subclass with the same identity and ground heights', () => {
    const worlds = ['rugrats/demo.col', 'rugrats/hand.col', 'colbin/demo.colbin', 'colbin/demo-v1.colbin', 'colbin/demo-exporter-grid.colbin', 'gta/town.col', 'gta/bench-4k.col'];
    for (const rel of worlds) {
      const buffer = readFileSync(join(repoRoot, 'assets/worlds', rel));
      const plain = new Uint8Array(buffer);
      const a = loadWorldBytes(plain, rel);
      for (const bytes of [buffer, asSubclass(buffer)]) {
        const b = loadWorldBytes(bytes, rel);
        expect(worldIdentity(b, bytes, `file:${rel}`)).toEqual(worldIdentity(a, plain, `file:${rel}`));
        expect(b.bounds).toEqual(a.bounds);
        for (let i = 0; i <= 8; i++) {
          const p = a.sampleOpen(i / 8, (8 - i) / 8);
          if (!p) continue;
          expect({ ...b.ground(p) }).toEqual({ ...a.ground(p) });
          const [x, y, z] = p;
          const up = a.up.axis === 1 ? 1 : 0;
          expect(b.segmentFraction(x, y + up, z, x + 50, y + up, z - 30)).toBe(a.segmentFraction(x, y + up, z, x + 50, y + up, z - 30));
          expect(Number.isNaN(a.segmentFraction(x, y + up, z, x + 50, y + up, z - 30))).toBe(false);
        }
      }
    }
  });
});
