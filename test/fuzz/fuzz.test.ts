/**
 * CI fuzzing: 2,000 cases per format (200 for the three targets that restore, seek or verify every case,
 * each several milliseconds): a sample that reaches every mutation kind, within CI's time budget. The deep
 * runs (100,000 and 1,000,000 cases per target) are `npm run fuzz`'s, recorded in docs/reliability.md; each target in a worker thread with a per-case time limit and a heap limit
 * (see scripts/fuzz/). `npm test` builds first, so the compiled harness in dist/ is current.
 * Longer runs: `npm run fuzz -- --cases 1000000`.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/scripts/fuzz/', import.meta.url));
const CASES = 2_000;
/** Targets whose every case re-simulates: fewer cases, so that CI's fuzz budget stays what it was. */
const HEAVY: Record<string, number> = { 'snapshot-restore': 200, 'seek-after-tamper': 200, 'verify-after-tamper': 200 };

describe('fuzzing every parser', async () => {
  if (!existsSync(dist + 'run-in-worker.js')) throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
  const { runFuzzInWorker } = (await import(dist + 'run-in-worker.js')) as typeof import('../../scripts/fuzz/run-in-worker.js');
  const { TARGETS } = (await import(dist + 'targets.js')) as typeof import('../../scripts/fuzz/targets.js');

  for (const name of Object.keys(TARGETS)) {
    const cases = HEAVY[name] ?? CASES;
    it(`${name}: ${cases} cases end in a parsed world or a FormatError`, async () => {
      const report = await runFuzzInWorker({ target: name, cases, seed: 20261129, caseTimeoutMs: 5000 });
      expect(report.failures.slice(0, 5)).toEqual([]);
      expect(report.cases).toBe(cases);
      // The corpus must parse, or the mutations test nothing but the first check.
      expect(report.parsed).toBeGreaterThan(0);
      expect(report.formatErrors).toBeGreaterThan(0);
      // JSON formats also get structure-aware cases (valid JSON, one value changed).
      const target = await TARGETS[name]!();
      if (target.json) expect(Object.keys(report.byMutation).filter((k) => k.startsWith('json-')).length).toBeGreaterThan(0);
      // Replay targets with a structure-aware mutator (keyframe snapshots, frame records, headers) use it.
      if (target.mutateStructure) expect(Object.keys(report.byMutation).filter((k) => k.startsWith('structure-')).length).toBeGreaterThan(0);
    });
  }
});
