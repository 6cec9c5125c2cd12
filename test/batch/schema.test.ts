/**
 * The batch file's checks and its sweeps multiplied out: errors name the file and the field's path, the
 * cross product has the size and order the docs give, and nothing absurd is expanded before it is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchFileError, checkBatchFile, MEASURES } from '../../src/batch/schema.js';
import { resolveLimits } from '../../src/limits.js';

const check = (v: unknown) => checkBatchFile(v, 'b.json', 'b');
const err = (v: unknown): string => {
  try {
    check(v);
  } catch (e) {
    expect(e).toBeInstanceOf(BatchFileError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('batch file schema', () => {
  it('multiplies a sweep out in the documented order, the seed innermost', () => {
    const s = check({ batch: 1, sweep: { world: ['a.col', 'b.col'], agents: [1, 2], params: { g: [true, false] }, seed: ['x', 'y'] } });
    expect(s.name).toBe('b');
    expect(s.runs.map((r) => `${r.world}/${r.agents}/${String(r.params['g'])}/${r.seed}`)).toEqual([
      'a.col/1/true/x', 'a.col/1/true/y', 'a.col/1/false/x', 'a.col/1/false/y',
      'a.col/2/true/x', 'a.col/2/true/y', 'a.col/2/false/x', 'a.col/2/false/y',
      'b.col/1/true/x', 'b.col/1/true/y', 'b.col/1/false/x', 'b.col/1/false/y',
      'b.col/2/true/x', 'b.col/2/true/y', 'b.col/2/false/x', 'b.col/2/false/y',
    ]);
  });

  it('a sweep of any axes has the product of their sizes as jobs, each combination once (property)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), (w, a, n, f) => {
        ran++;
        const worlds = Array.from({ length: w }, (_, i) => `w${i}.col`);
        const agents = Array.from({ length: a }, (_, i) => i * 3);
        const s = check({ batch: 1, defaults: { frames: 10 }, sweep: { world: worlds, agents, seed: { from: 5, count: n }, frames: Array.from({ length: f }, (_, i) => 100 + i) } });
        expect(s.runs.length).toBe(w * a * n * f);
        const combos = new Set(s.runs.map((r) => `${r.world}|${r.agents}|${r.seed}|${r.frames}`));
        expect(combos.size).toBe(s.runs.length);
        // The last axis in the order (seed) changes fastest.
        expect(s.runs.slice(0, n).map((r) => r.seed)).toEqual(Array.from({ length: n }, (_, i) => String(5 + i)));
      }),
      { numRuns: 60 },
    );
    expect(ran).toBe(60);
  });

  it('ranges: from/count, from/to/step; seeds become strings', () => {
    const s = check({ batch: 1, sweep: { world: 'x', agents: { from: 10, to: 40, step: 10 }, seed: { from: 1, count: 2 } } });
    expect(s.runs.map((r) => [r.agents, r.seed])).toEqual([[10, '1'], [10, '2'], [20, '1'], [20, '2'], [30, '1'], [30, '2'], [40, '1'], [40, '2']]);
  });

  it('defaults apply under sweeps and jobs, parameters merged by name', () => {
    const s = check({ batch: 1, defaults: { frames: 90, params: { a: 1, b: 2 }, measure: ['los'] }, jobs: [{ world: 'w', params: { b: 3 } }] });
    expect(s.runs[0]).toMatchObject({ world: 'w', frames: 90, params: { a: 1, b: 3 }, measure: ['hash', 'los'], input: 'demo', keepReplay: false, losEvery: 60 });
  });

  it('measures come in one fixed order, with the hash always', () => {
    const s = check({ batch: 1, jobs: [{ world: 'w', measure: ['fps', 'los', 'draws'] }] });
    expect(s.runs[0]!.measure).toEqual(['hash', 'draws', 'los', 'fps']);
    expect(MEASURES[0]).toBe('hash');
  });

  it('errors name the file and the path of the bad field', () => {
    expect(err({ batch: 2 })).toBe('b.json: batch must be 1 (the batch file format), got 2');
    expect(err({ batch: 1, sweep: { world: 'w', agents: [1, 'two'] } })).toContain('b.json: sweep.agents[1] must be an integer');
    expect(err({ batch: 1, sweep: [{ world: 'w' }, { world: 'w', frames: 0 }] })).toContain('sweep[1].frames must be an integer in 1..');
    expect(err({ batch: 1, jobs: [{ world: 'w' }, { world: 'w', agents: [1, 2] }] })).toContain('jobs[1].agents is a list: only a "sweep" may vary a field');
    expect(err({ batch: 1, jobs: [{ world: 'w', wrold: 1 }] })).toContain('jobs[0].wrold is not a field here');
    expect(err({ batch: 1, jobs: [{ agents: 3 }] })).toContain('jobs[0] has no "world"');
    expect(err({ batch: 1, verify: [{ replays: 3 }] })).toContain('verify[0].replays must be a path');
    expect(err({ batch: 1, jobs: [{ world: 'w', measure: ['los', 'speed'] }] })).toContain('jobs[0].measure[1] is not a measure');
    expect(err({ batch: 1, jobs: [{ world: 'w', params: { 'no-dash': 1 } }] })).toContain('jobs[0].params.no-dash is not a parameter name');
    expect(err({ batch: 1, sweep: { world: 'w', seed: { from: 1 } } })).toContain('sweep.seed is a range: give "from" and "count"');
    expect(err({ batch: 1, sweep: { world: 'w', agents: [] } })).toContain('sweep.agents is an empty list');
    expect(err({ batch: 1, jobs: [{ world: 'w', capacity: 8, agents: 7 }] })).toContain('jobs[0].agents is 7, more than capacity 8');
    expect(err({ batch: 1 })).toContain('describes no job');
    expect(err([1])).toContain('must be a JSON object');
  });

  it('a sweep over the job limit is refused before it is multiplied out', () => {
    const limits = resolveLimits({ batch: { jobs: 1000 } });
    let e: unknown;
    try {
      checkBatchFile({ batch: 1, sweep: { world: 'w', agents: { from: 0, count: 100_000 }, seed: { from: 0, count: 100_000 } } }, 'b.json', 'b', limits);
    } catch (x) {
      e = x;
    }
    expect((e as Error).message).toContain('multiplies out to more than 1000 jobs (limits.batch.jobs is 1000)');
    expect(() => checkBatchFile({ batch: 1, sweep: { world: 'w', agents: { from: 0, count: 1000 } } }, 'b.json', 'b', limits)).not.toThrow();
  });
});
