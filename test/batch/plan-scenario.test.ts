/**
 * Planning loads a batch's scenario modules in a thread of their own, within a time limit: a module whose
 * top level never ends fails the batch within its job's maxSeconds (one line naming the field and the
 * module; the process exits), a module that exits its thread or throws is an error naming it, and a good
 * module's parameters and world kinds are still checked up front. Real processes and files.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planSpec } from '../../src/batch/plan.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { killAll, repoRoot, runCliAsync, writeBatch } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-plan-scenario-'));
afterAll(async () => {
  await killAll();
  rmSync(tmp, { recursive: true, force: true });
});
mkdirSync(tmp, { recursive: true });
copyFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(tmp, 'level.col'));
writeFileSync(join(tmp, 'hang.mjs'), `while (true) {}\nexport default { name: 'never', version: '1', description: 'never loads', systems: [] };\n`);
writeFileSync(join(tmp, 'exits.mjs'), `process.exit(3);\nexport default { name: 'exits', version: '1', description: 'ends its process', systems: [] };\n`);
writeFileSync(join(tmp, 'x.replay'), 'not read: the scenario given to verify it with is loaded first');
writeFileSync(join(tmp, 'throws.mjs'), `throw new Error('boom at the top level');\n`);
writeFileSync(
  join(tmp, 'kinds.mjs'),
  `export default { name: 'kinds', version: '1', description: 'a field-only scenario', worldKinds: ['piney'], params: { n: { type: 'int', default: 1, min: 0, max: 9 } }, systems: [] };\n`,
);

/** The --json error of a batch that fails while planning. */
async function planError(name: string, batch: unknown): Promise<{ code: number; error: { kind: string; message: string } }> {
  // A generous net: the module hangs for ever, only the planning limit ends it.
  const r = await runCliAsync(['batch', writeBatch(tmp, name, batch), '--workers', '1', '--json'], 240_000);
  return { code: r.code, error: (JSON.parse(r.stdout.trim().split('\n').pop() ?? 'null') as { error: { kind: string; message: string } }).error };
}

describe('planning loads scenario modules within a time limit', () => {
  it('a module whose top level never ends fails the batch within its maxSeconds, naming the field and the module; the process exits', async () => {
    const run = await planError('hang-run', { batch: 1, jobs: [{ world: 'level.col', scenario: 'hang.mjs', frames: 10, maxSeconds: 2 }] });
    expect(run.code).toBe(1);
    expect(run.error.kind).toBe('input');
    expect(run.error.message).toMatch(/^.*hang-run\.json: jobs\[0\]\.scenario scenario module .*hang\.mjs did not finish loading within 2 s \(while planning, a module has the time limit of the first job naming it, maxSeconds, and at most 60 s\)$/);
    // A verify entry's scenario too.
    const verify = await planError('hang-verify', { batch: 1, verify: { replays: 'x.replay', scenario: 'hang.mjs', maxSeconds: 1 } });
    expect(verify.code).toBe(1);
    expect(verify.error.message).toMatch(/verify\.scenario scenario module .*hang\.mjs did not finish loading within 1 s/);
  });

  it('a module that exits or throws while loading is an error naming it; the batch process itself goes on to say so', async () => {
    const exits = await planError('exits', { batch: 1, jobs: [{ world: 'level.col', scenario: 'exits.mjs', frames: 10 }] });
    expect(exits.code).toBe(1);
    expect(exits.error.message).toMatch(/jobs\[0\]\.scenario scenario module .*exits\.mjs ended its loading thread \(exit code 3\) before it loaded$/);
    const throws = await planError('throws', { batch: 1, jobs: [{ world: 'level.col', scenario: 'throws.mjs', frames: 10 }] });
    expect(throws.code).toBe(1);
    expect(throws.error.message).toMatch(/jobs\[0\]\.scenario .*boom at the top level/);
  });

  it("a module's parameters and world kinds are still checked up front", async () => {
    const file = join(tmp, 'b.json');
    const plan = (job: Record<string, unknown>) => planSpec(checkBatchFile({ batch: 1, jobs: [{ frames: 10, scenario: 'kinds.mjs', ...job }] }, file, 'b'), file);
    await expect(plan({ world: 'level.col' })).rejects.toThrow(/jobs\[0\]\.scenario kinds runs on piney worlds, not on level\.col \(rugrats\)/);
    await expect(plan({ world: 'piney-default', params: { n: 10 } })).rejects.toThrow(/jobs\[0\]\.params parameter n of scenario kinds must be in 0\.\.9, got 10$/);
    const ok = await plan({ world: 'piney-default', params: { n: 3 } });
    expect(ok.jobs[0]!.payload).toMatchObject({ kind: 'run', scenario: { source: 'kinds.mjs' }, settings: { params: { n: 3 } } });
  });
});
