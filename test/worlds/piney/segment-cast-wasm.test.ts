/**
 * The field's segment cast in WebAssembly (WasmFieldCaster, behind PineyWorld.segmentFractions with `wasm: 'on'`)
 * against the JavaScript cast, its oracle: the same answer, bit for bit, for every segment of random batches on
 * random fields, adversarial segments included (±0, ends on cell borders and corners, zero length, vertical,
 * along an axis, huge and non-finite coordinates), and batches cut anywhere (the kernel takes them in chunks).
 * The mode itself: off / on / auto, refused values, the load option, the rule of auto.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadPineyWorld, type PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { CELL_UNITS, FIELD_SIZE } from '../../../src/worlds/piney/field-state.js';
import { WASM_CHUNK } from '../../../src/worlds/piney/segment-cast-wasm.js';
import { jsEngine, jsEngineOf, wasmAutoChoice } from '../../../src/worlds/wasm-mode.js';
import { loadWorldBytes } from '../../../src/worlds/load.js';
import { defaultPineyTables, packageRoot } from '../../../src/node/assets.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const tables = defaultPineyTables();
const fields = new Map<string, { js: PineyWorld; wasm: PineyWorld }>();
function pair(seed: number, type: number, weather: number, ground: number, object: number): { js: PineyWorld; wasm: PineyWorld } {
  const key = `${seed}/${type}/${weather}/${ground}/${object}`;
  let w = fields.get(key);
  if (!w) {
    const p = { seed, fieldType: type, weather, ground, object, event: 0, protect: false };
    w = { js: loadPineyWorld(p, key, tables, undefined, 'off'), wasm: loadPineyWorld(p, key, tables, undefined, 'on') };
    fields.set(key, w);
  }
  return w;
}
const fieldArb = fc.constantFrom(
  { seed: 1420855, type: 10, weather: 0, ground: 1, object: 1 },
  { seed: 1, type: 0, weather: 0, ground: 0, object: 0 },
  { seed: 77, type: 2, weather: 3, ground: 2, object: 2 },
  { seed: 31337, type: 5, weather: 9, ground: 0, object: 1 },
  { seed: 99, type: 9, weather: 7, ground: 2, object: 1 },
);

const across = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -2000, max: FIELD_SIZE + 2000, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -4, max: 84 }).map((c) => c * CELL_UNITS) },
  { weight: 1, arbitrary: fc.integer({ min: -4, max: 84 }).chain((c) => fc.constantFrom(1e-9, -1e-9, 1e-12, -1e-12).map((e) => c * CELL_UNITS + e)) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, FIELD_SIZE, FIELD_SIZE - 1e-9, 1e15, -1e15, 2 ** 41, 1e300, -1e300, 5e-324, NaN, Infinity, -Infinity) },
);
const up = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -200, max: 1500, noNaN: true }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }).map((k) => k * 100) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e6, -1e6, NaN, Infinity, -Infinity) },
);
type Seg = readonly [number, number, number, number, number, number];
const segment: fc.Arbitrary<Seg> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(across, across, up, across, across, up) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(across, across, up, fc.double({ min: -2500, max: 2500, noNaN: true }), fc.double({ min: -2500, max: 2500, noNaN: true }), fc.double({ min: -300, max: 300, noNaN: true }))
      .map(([x, y, z, a, b, c]) => [x, y, z, x + a, y + b, z + c] as const),
  },
  { weight: 1, arbitrary: fc.tuple(across, across, up).map(([x, y, z]) => [x, y, z, x, y, z] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, across).map(([x, y, z, x2]) => [x, y, z, x2, y, z] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, up).map(([x, y, z, z2]) => [x, y, z, x, y, z2] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, fc.constantFrom(0, -0)).map(([x, y, z, zero]) => [x, y, z, zero, y, z + 1] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, fc.double({ min: -1e6, max: 1e6, noNaN: true })).map(([x, y, z, d]) => [x, y, z, x + d, y - d / 3, z] as const) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1e12, -3e12, 2 ** 41, 1e15, -1e15), fc.double({ min: -3000, max: 3000, noNaN: true }), up, fc.double({ min: -3000, max: 3000, noNaN: true }), up, fc.boolean())
      .map(([far, y, z, d, z2, reach]) => [reach ? 0 : far, y, z, reach ? far : far + d, y + d, z2] as const),
  },
);

const bits = new Float64Array(2);
const words = new Uint32Array(bits.buffer);
function sameBits(a: number, b: number): boolean {
  bits[0] = a;
  bits[1] = b;
  return words[0] === words[2] && words[1] === words[3];
}

describe('the field cast in WebAssembly equals the JavaScript cast', () => {
  it('on random fields and random batches, bit for bit, cut anywhere', () => {
    let cases = 0;
    let hits = 0;
    fc.assert(
      fc.property(fieldArb, fc.array(segment, { minLength: 20, maxLength: 60 }), fc.option(fc.tuple(fc.nat(), fc.nat())), (f, segs, cut) => {
        const { js, wasm } = pair(f.seed, f.type, f.weather, f.ground, f.object);
        const batch = new Float64Array(segs.length * 6);
        segs.forEach((s, i) => batch.set(s, i * 6));
        // The whole batch, or a range of it (fill shows that nothing outside the range is written).
        const start = cut ? cut[0] % (segs.length + 1) : 0;
        const end = cut ? start + (cut[1] % (segs.length - start + 1)) : segs.length;
        const want = new Float64Array(segs.length).fill(7);
        const got = new Float64Array(segs.length).fill(7);
        js.segmentFractions(batch, start, end, want);
        wasm.segmentFractions(batch, start, end, got);
        for (let i = 0; i < segs.length; i++) {
          if (!sameBits(want[i]!, got[i]!)) return false;
          if (i >= start && i < end) {
            cases++;
            if (want[i]! >= 0) hits++;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
    expect(cases).toBeGreaterThan(3000);
    expect(hits).toBeGreaterThan(300);
  });

  it('on eye-to-eye segments between standing spots, in batches longer than the kernel takes at once', () => {
    const { js, wasm } = pair(1420855, 10, 0, 1, 1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: WASM_CHUNK - 3, max: 3 * WASM_CHUNK + 5 }), (seed, n) => {
        let s = seed;
        const next = () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return s / 4294967296;
        };
        const batch = new Float64Array(n * 6);
        for (let i = 0; i < n; i++) {
          const x = next() * FIELD_SIZE, y = next() * FIELD_SIZE;
          const x2 = x + (next() - 0.5) * 4000, y2 = y + (next() - 0.5) * 4000;
          batch.set([x, y, js.heightAt(x, y) + 90, x2, y2, js.heightAt(x2, y2) + 90], i * 6);
        }
        const want = new Float64Array(n), got = new Float64Array(n);
        js.segmentFractions(batch, 0, n, want);
        wasm.segmentFractions(batch, 0, n, got);
        let hits = 0;
        for (let i = 0; i < n; i++) {
          if (!sameBits(want[i]!, got[i]!)) return false;
          if (want[i]! >= 0) hits++;
        }
        return hits > 0 && hits < n;
      }),
      { numRuns: 6 },
    );
  });

  it('answers one segment as the single cast does, and refuses a bad range as the JavaScript does', () => {
    const { js, wasm } = pair(77, 2, 3, 2, 2);
    fc.assert(
      fc.property(segment, (s) => {
        const out = new Float64Array(1);
        wasm.segmentFractions(new Float64Array(s), 0, 1, out);
        return sameBits(out[0]!, js.segmentFraction(s[0], s[1], s[2], s[3], s[4], s[5]));
      }),
      { numRuns: 2000 },
    );
    const six = new Float64Array(12);
    expect(() => wasm.segmentFractions(six, 0, 3, new Float64Array(3))).toThrow(/segment range 0\.\.3 is not within the batch's 2 segments/);
    expect(() => wasm.segmentFractions(six, 0, 2, new Float64Array(1))).toThrow(/output arrays hold 1 answers, 2 needed/);
  });
});

describe('the wasm mode', () => {
  it('off, on and auto (on V8 here), by the constructor, setWasm and the load option; other values refused', () => {
    const p = { seed: 1, fieldType: 0, weather: 0, ground: 0, object: 0, event: 0, protect: false };
    const w = loadPineyWorld(p, 'f', tables, undefined, 'off');
    expect(w.wasmKernels).toBe(false);
    expect(w.setWasm('on')).toBe(true);
    expect(w.wasmKernels).toBe(true);
    expect(w.setWasm('off')).toBe(false);
    expect(jsEngine()).toBe('v8');
    expect(w.setWasm('auto')).toBe(true);
    expect(() => w.setWasm('fast' as never)).toThrow(/PineyWorld\.setWasm: wasm mode must be one of off, on, auto \(got "fast"\)/);
    expect(loadPineyWorld(p, 'f', tables).wasmKernels).toBe(true);
    const bytes = readFileSync(join(packageRoot(), 'assets/worlds/piney/default.field.json'));
    expect((loadWorldBytes(bytes, 'f', { pineyTables: tables, wasm: 'off' }) as PineyWorld).wasmKernels).toBe(false);
    expect((loadWorldBytes(bytes, 'f', { pineyTables: tables, wasm: 'on' }) as PineyWorld).wasmKernels).toBe(true);
    expect((loadWorldBytes(bytes, 'f', { pineyTables: tables }) as PineyWorld).wasmKernels).toBe(true);
  });

  it('the engine, from the host: Node, Bun, Chromium (headless too), Firefox, Safari', () => {
    expect(jsEngineOf({ node: '20.20.2', v8: '11.3' }, '')).toBe('v8');
    expect(jsEngineOf({ node: '24.3.0', v8: '13.6', bun: '1.4.5' }, 'Bun/1.4.5')).toBe('jsc');
    expect(jsEngineOf(undefined, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36')).toBe('v8');
    expect(jsEngineOf(undefined, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36')).toBe('v8');
    expect(jsEngineOf(undefined, 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe('spidermonkey');
    expect(jsEngineOf(undefined, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('jsc');
    expect(jsEngineOf(undefined, '')).toBe('other');
  });

  it('auto runs the kernels on V8 and SpiderMonkey, and only where they compile', () => {
    expect(wasmAutoChoice(true, 'v8')).toBe(true);
    expect(wasmAutoChoice(false, 'v8')).toBe(false);
    expect(wasmAutoChoice(true, 'spidermonkey')).toBe(true);
    expect(wasmAutoChoice(false, 'spidermonkey')).toBe(false);
    expect(wasmAutoChoice(true, 'jsc')).toBe(false);
    expect(wasmAutoChoice(true, 'other')).toBe(false);
  });
});
