import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FormatError } from '../../../src/binary/format-error.js';
import { detectPineyField, parsePineyFieldSpec } from '../../../src/worlds/piney/spec.js';

const specBytes = new Uint8Array(readFileSync(new URL('../../../assets/worlds/piney/default.field.json', import.meta.url)));
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('field spec', () => {
  it('is recognised by its format key, and nothing else is', () => {
    expect(detectPineyField(specBytes)).toBe(true);
    expect(detectPineyField(enc({ format: 'something-else', seed: 1 }))).toBe(false);
    expect(detectPineyField(new Uint8Array([0x00, 0x01, 0x02]))).toBe(false);
    expect(detectPineyField(new TextEncoder().encode('{"format": "retrosim-piney-field"'))).toBe(false);
    expect(detectPineyField(new Uint8Array(100_000).fill(0x20))).toBe(false);
  });
  it('parses the default field: story area 14', () => {
    expect(parsePineyFieldSpec(specBytes)).toMatchObject({ seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 14, protect: false });
  });
  it('refuses bad specs with a FormatError naming the key', () => {
    const ok = { format: 'retrosim-piney-field', seed: 1, type: 10, weather: 0, ground: 1, object: 1 };
    expect(() => parsePineyFieldSpec(enc({ ...ok, type: 11 }))).toThrow(/"type"/);
    expect(() => parsePineyFieldSpec(enc({ ...ok, ground: 3 }))).toThrow(FormatError);
    expect(() => parsePineyFieldSpec(enc({ ...ok, seed: 2 ** 32 }))).toThrow(/"seed"/);
    expect(() => parsePineyFieldSpec(enc({ ...ok, protect: 'yes' }))).toThrow(/"protect"/);
    expect(() => parsePineyFieldSpec(enc([1, 2]))).toThrow(FormatError);
    expect(() => parsePineyFieldSpec(new TextEncoder().encode('{'))).toThrow(FormatError);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        try {
          parsePineyFieldSpec(b);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
    );
  });
});
