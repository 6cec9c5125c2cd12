/**
 * A job's payload as a worker reads it back from Redis (outside data): a planned one passes unchanged,
 * one from another runtime version is refused with both versions named, and anything else is refused with
 * a PayloadError, never another exception.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPayload, PayloadError } from '../../src/batch/payload.js';
import { planSpec } from '../../src/batch/plan.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { RUNTIME_VERSION } from '../../src/index.js';
import { repoRoot } from './helpers.js';

const file = join(repoRoot, 'b.json');
const planned = await planSpec(
  checkBatchFile({ batch: 1, jobs: [{ world: 'assets/worlds/llama/demo.trak', agents: 3, seed: 's', fieldSeed: 7, params: {}, measure: ['los'], keepReplay: true }] }, file, 'b'),
  file,
);
const good = JSON.parse(JSON.stringify(planned.jobs[0]!.payload)) as Record<string, unknown>;

describe('job payloads from the queue', () => {
  it('a planned payload passes as it is', () => {
    expect(checkPayload(good)).toEqual(good);
  });

  it('a payload planned by another runtime version is refused, naming both', () => {
    expect(() => checkPayload({ ...good, runtime: 'retrosim 9.9.9' })).toThrow(new PayloadError(`job payload: the batch was planned by retrosim 9.9.9, this worker is ${RUNTIME_VERSION}: run workers of the same version`));
  });

  it('a scenario module is named by its module graph: the old form carrying its bytes is refused, saying so', () => {
    const graph = 'c'.repeat(64);
    expect(checkPayload({ ...good, scenario: { source: 'guards.mjs', graph } })).toMatchObject({ scenario: { source: 'guards.mjs', graph } });
    expect(() => checkPayload({ ...good, scenario: { source: 'guards.mjs', blob: { sha256: 'd'.repeat(64), bytes: 10 } } })).toThrow(
      new PayloadError('job payload: scenario.blob: a scenario module is named by its module graph (scenario.graph), never sent as bytes; a worker runs only modules on its allow-list'),
    );
    expect(() => checkPayload({ ...good, scenario: { source: 'guards.mjs', graph: 'C'.repeat(64) } })).toThrow(new PayloadError('job payload: scenario.graph must be 64 hex digits'));
    expect(() => checkPayload({ ...good, scenario: { source: 'guards.mjs' } })).toThrow(new PayloadError('job payload: scenario.graph must be 64 hex digits'));
  });

  it('junk in any field is a PayloadError (property)', () => {
    const paths: string[][] = [['kind'], ['key'], ['world'], ['world', 'parts'], ['world', 'source'], ['scenario'], ['settings'], ['settings', 'agents'], ['settings', 'params'], ['frames'], ['input'], ['measure'], ['losEvery'], ['keepReplay']];
    let ran = 0;
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 })), (path, junk) => {
        const v = JSON.parse(JSON.stringify(good)) as Record<string, any>;
        let o = v;
        for (const k of path.slice(0, -1)) o = o[k];
        const before = JSON.stringify(o[path[path.length - 1]!]);
        fc.pre(JSON.stringify(junk) !== before);
        ran++;
        o[path[path.length - 1]!] = junk;
        try {
          checkPayload(v);
        } catch (e) {
          expect(e).toBeInstanceOf(PayloadError);
          return;
        }
        // A few junk values are legal ones (another agent count, say): then the payload is still well formed.
        expect(JSON.stringify(checkPayload(v))).toBeTruthy();
      }),
      { numRuns: 300 },
    );
    expect(ran).toBeGreaterThan(250);
  });

  it('any JSON value at all is a payload or a PayloadError (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        try {
          checkPayload(v);
        } catch (e) {
          expect(e).toBeInstanceOf(PayloadError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
