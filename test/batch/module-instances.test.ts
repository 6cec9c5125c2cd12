/**
 * Results depend only on their inputs: each batch job's scenario module is a fresh instance, so module-level
 * state of one job never reaches the next. The same three jobs give the same results on one thread and on
 * three (a module-level counter used to give 1, 2, 3 signals on one thread and 1, 1, 1 on three); what a
 * job adds to the global object is put back; a job that leaves a timer running fails and its thread is
 * replaced.
 *
 * Real `retrosim batch` processes on local threads.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from './helpers.js';

let dir = '';

const COUNTER = `import { defineScenario, defineSystem, DEFAULT_SYSTEMS } from 'retrosim';
let made = 0; // module-level state: how many simulations this module instance has made
globalThis.__jobsSeen = (globalThis.__jobsSeen ?? 0) + 1; // state on the global object
const shout = defineSystem({
  name: 'shout',
  priority: 90,
  create() {
    made++;
    const times = made + globalThis.__jobsSeen - 1;
    return { run(ctx) { if (ctx.frame === 1) for (let i = 0; i < times; i++) ctx.events.emit('signal', { frame: ctx.frame, name: 'made', entity: 0, data: i }); } };
  },
});
export default defineScenario({ name: 'counter', version: '1.0.0', description: 'signals once per simulation its module made', systems: [...DEFAULT_SYSTEMS, shout] });
`;

const TIMER = `import { defineScenario, DEFAULT_SYSTEMS } from 'retrosim';
setInterval(() => {}, 1000);
export default defineScenario({ name: 'ticker', version: '1.0.0', description: 'leaves a timer running', systems: DEFAULT_SYSTEMS });
`;

function batch(name: string, scenario: string, jobs: number): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ batch: 1, name, sweep: { world: 'rugrats-demo', scenario, agents: 2, frames: 5, seed: Array.from({ length: jobs }, (_, i) => `s${i}`), measure: ['events'] } }));
  return file;
}

async function signals(file: string, workers: number): Promise<number[]> {
  const out = join(dir, `${workers}-${Math.random().toString(36).slice(2)}.jsonl`);
  const r = await runCliAsync(['batch', file, '--workers', String(workers), '--out', out, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { result: { events: { signal: number } } }).result.events.signal);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-module-instances-'));
  writeFileSync(join(dir, 'counter.mjs'), COUNTER);
  writeFileSync(join(dir, 'ticker.mjs'), TIMER);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('each job gets a fresh module instance', () => {
  it('the same jobs give the same results on one thread and on three: one signal each', async () => {
    const file = batch('counter', 'counter.mjs', 3);
    expect(await signals(file, 1)).toEqual([1, 1, 1]);
    expect(await signals(file, 3)).toEqual([1, 1, 1]);
  });

  it('a job that leaves a timer pending fails, saying why; the next job runs on a fresh thread', async () => {
    const file = batch('ticker', 'ticker.mjs', 2);
    const out = join(dir, 'ticker.jsonl');
    const r = await runCliAsync(['batch', file, '--workers', '1', '--out', out, '--json']);
    expect(r.code).toBe(1);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { error?: string });
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.error).toMatch(/the job left 1 timer pending .*this thread is replaced/);
  });
});
