/**
 * The fuzz harness's own mutators: reproducible from the seed (a reported case can be rebuilt), bounded in
 * length, and the JSON mutator keeps documents valid JSON while changing them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FuzzRng, mutate, MUTATIONS } from '../../scripts/fuzz/mutate.js';
import { JSON_MUTATIONS, mutateJson } from '../../scripts/fuzz/mutate-json.js';
import { fuzzTarget, makeCase, type FuzzTarget } from '../../scripts/fuzz/engine.js';

const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 300 });

describe('byte mutations', () => {
  it('are a function of the seed, never modify their input, and stay within the length bound (property)', () => {
    fc.assert(
      fc.property(bytesArb, bytesArb, fc.nat(), (base, other, seed) => {
        const copy = base.slice();
        const a = mutate(base, other, new FuzzRng(seed), 512);
        const b = mutate(base, other, new FuzzRng(seed), 512);
        expect(a.kind).toBe(b.kind);
        expect(Array.from(a.bytes)).toEqual(Array.from(b.bytes));
        expect(Array.from(base)).toEqual(Array.from(copy));
        expect(a.bytes.length).toBeLessThanOrEqual(Math.max(512, base.length));
      }),
    );
  });

  it('every kind is drawn, and each changes some input', () => {
    const base = Uint8Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff);
    const changed = new Set<string>();
    const seen = new Set<string>();
    for (let s = 0; s < 3000; s++) {
      const m = mutate(base, base, new FuzzRng(s));
      seen.add(m.kind);
      if (m.bytes.length !== base.length || m.bytes.some((v, i) => v !== base[i])) changed.add(m.kind);
    }
    expect([...seen].sort()).toEqual([...MUTATIONS].sort());
    expect([...changed].sort()).toEqual([...MUTATIONS].sort());
  });
});

describe('JSON mutations', () => {
  const json = fc.jsonValue({ maxDepth: 4 }).map((v) => new TextEncoder().encode(JSON.stringify(v)));

  it('turn JSON into JSON (with raw numbers such as 1e999 allowed), reproducibly (property)', () => {
    fc.assert(
      fc.property(json, fc.nat(), (doc, seed) => {
        const a = mutateJson(doc, new FuzzRng(seed));
        const b = mutateJson(doc, new FuzzRng(seed));
        expect(a).not.toBeNull();
        expect(Array.from(a!.bytes)).toEqual(Array.from(b!.bytes));
        expect(() => JSON.parse(new TextDecoder().decode(a!.bytes))).not.toThrow();
      }),
    );
  });

  it('give null for bytes that are not JSON, and draw every kind', () => {
    expect(mutateJson(new TextEncoder().encode('{"a": '), new FuzzRng(1))).toBeNull();
    const doc = new TextEncoder().encode(JSON.stringify({ a: [1, 2, { b: 'x' }], c: 3.5, d: null }));
    const seen = new Set<string>();
    let changed = 0;
    for (let s = 0; s < 500; s++) {
      const m = mutateJson(doc, new FuzzRng(s))!;
      seen.add(m.kind);
      if (new TextDecoder().decode(m.bytes) !== new TextDecoder().decode(doc)) changed++;
    }
    expect([...seen].sort()).toEqual([...JSON_MUTATIONS].sort());
    expect(changed).toBeGreaterThan(400);
  });
});

describe('cases', () => {
  it('corpus first, then a reproducible mutation per (seed, index); JSON targets get structure-aware cases', () => {
    const corpus = [new TextEncoder().encode('{"x":[1,2,3],"y":"z"}')];
    const target: FuzzTarget = { name: 't', corpus: () => corpus, parse: () => null, json: true };
    expect(makeCase(target, corpus, 7, 0)).toEqual({ bytes: corpus[0], kind: 'corpus' });
    const kinds = new Set<string>();
    for (let i = 1; i < 400; i++) {
      const a = makeCase(target, corpus, 7, i);
      expect(Array.from(makeCase(target, corpus, 7, i).bytes)).toEqual(Array.from(a.bytes));
      kinds.add(a.kind);
    }
    expect([...kinds].some((k) => k.startsWith('json-'))).toBe(true);
    expect([...kinds].some((k) => (MUTATIONS as readonly string[]).includes(k))).toBe(true);
  });
});

describe('slices', () => {
  it('a run made in slices (--first) sees exactly the cases of the whole run, corpus included', () => {
    const corpus = [new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), new Uint8Array([9, 9, 9])];
    const seen: string[] = [];
    // The parser records every input it is given and refuses those starting with an odd byte.
    const target: FuzzTarget = {
      name: 't',
      corpus: () => corpus,
      parse: (b) => {
        seen.push(Array.from(b).join(','));
        if ((b[0] ?? 0) % 2 === 1) throw new Error('odd');
        return null;
      },
    };
    const whole = fuzzTarget(target, 60, 5);
    const wholeSeen = seen.splice(0);
    const a = fuzzTarget(target, 25, 5, undefined, 0);
    const b = fuzzTarget(target, 35, 5, undefined, 25);
    expect(seen).toEqual(wholeSeen);
    expect([a.first, b.first]).toEqual([0, 25]);
    expect(a.cases + b.cases).toBe(whole.cases);
    expect(a.parsed + b.parsed).toBe(whole.parsed);
    expect(a.failures.length + b.failures.length).toBe(whole.failures.length);
    expect(whole.failures.length).toBeGreaterThan(0);
    expect(whole.parsed).toBeGreaterThan(0);
  });
});
