import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/binary/format-error.js';
import { parseJsonBytes } from '../../../src/worlds/piney/json-bytes.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('parseJsonBytes', () => {
  it('parses UTF-8 JSON up to the limit exactly', () => {
    const text = '{"a":[1,"é"]}';
    expect(parseJsonBytes(bytes(text), 'test format', bytes(text).length, 'limits.x')).toEqual({ a: [1, 'é'] });
  });

  it('refuses one byte over the limit, naming the limit', () => {
    const b = bytes('[1,2]');
    expect(() => parseJsonBytes(b, 'test format', b.length - 1, 'limits.x')).toThrow(FormatError);
    expect(() => parseJsonBytes(b, 'test format', b.length - 1, 'limits.x')).toThrow(/5 bytes is over the 4-byte limit \(limits\.x\)/);
  });

  it('refuses bytes that are not UTF-8 or not JSON with a FormatError naming the format', () => {
    expect(() => parseJsonBytes(new Uint8Array([0x22, 0xff, 0x22]), 'test format', 100, 'limits.x')).toThrow(/test format.*not UTF-8/);
    expect(() => parseJsonBytes(bytes('{"a":'), 'test format', 100, 'limits.x')).toThrow(/test format.*not JSON/);
  });
});
