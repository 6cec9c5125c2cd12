/**
 * The batch key is not readable by scenario code, against a real redis-server and real processes: a scenario
 * module (the guards example with a probe at its top level) looks for the key wherever a module can on the
 * thread it runs on: its `process.env`, `workerData`, `argv` and `execArgv`, every string it can reach from
 * `globalThis`, and a heap snapshot of its own thread (everything in its JavaScript heap). It runs on the
 * job thread of a worker started with `--key-file` while a wrapper also exported RETROSIM_BATCH_KEY, of a
 * worker given the key in RETROSIM_BATCH_KEY alone, and of a local batch run with RETROSIM_BATCH_KEY
 * exported; and on the main thread of a keyed coordinator (which imports the batch's modules to check their
 * parameters), whose key came from a file. It finds the key in none of those. What the docs say still holds
 * is checked too: `/proc/self/environ` keeps the environment the process started with (the key, when it came
 * that way), and a key file the user can read is readable by the user's code.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, killAll, repoRoot, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-key-reach-'));
let redis: RedisServer;
const KEY = `reach-${'e4a17b'.repeat(6)}`;
const keyFile = join(tmp, 'batch.key');
writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });

/** At its top level, the probe writes what it found (and a heap snapshot of its thread) into PROBE_DIR. */
const PROBE = `// A scenario module that looks for the batch key wherever it can, then is the guards example.
import { isMainThread, threadId, workerData } from 'node:worker_threads';
import { getHeapSnapshot } from 'node:v8';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
export { default } from './guards.mjs';

const dir = process.env.PROBE_DIR;
if (dir) {
  const where = (isMainThread ? 'main-' : 'thread-') + process.pid + '-' + threadId;
  const strings = [];
  const seen = new Set();
  const stack = [globalThis];
  while (stack.length && seen.size < 200000) {
    const o = stack.pop();
    if (seen.has(o)) continue;
    seen.add(o);
    let keys = [];
    try { keys = Reflect.ownKeys(o); } catch {}
    try { const p = Object.getPrototypeOf(o); if (p) stack.push(p); } catch {}
    for (const k of keys) {
      // Data properties only: a getter called on the wrong object may throw, or reject later.
      let d;
      try { d = Object.getOwnPropertyDescriptor(o, k); } catch { continue; }
      if (!d || !('value' in d)) continue;
      const v = d.value;
      if (typeof k === 'string') strings.push(k);
      if (typeof v === 'string') strings.push(v);
      else if ((typeof v === 'object' || typeof v === 'function') && v !== null) stack.push(v);
    }
  }
  // The heap as it is before the probe reads what is still open to it (below), which it then holds.
  const heap = [];
  for await (const c of getHeapSnapshot()) heap.push(typeof c === 'string' ? Buffer.from(c) : c);
  let environ = '';
  try { environ = readFileSync('/proc/self/environ', 'latin1'); } catch {}
  const cmdline = readFileSync('/proc/self/cmdline', 'utf8').split('\\0');
  const i = cmdline.indexOf('--key-file');
  let keyFile = '';
  if (i >= 0) { try { keyFile = readFileSync(cmdline[i + 1], 'utf8'); } catch (e) { keyFile = 'unreadable ' + e.code; } }
  writeFileSync(join(dir, where + '.heap'), Buffer.concat(heap));
  writeFileSync(join(dir, where + '.json'), JSON.stringify({
    where,
    env: JSON.stringify(process.env),
    workerData: String(JSON.stringify(workerData)),
    argv: process.argv.join(' '),
    execArgv: process.execArgv.join(' '),
    strings: strings.join('\\n'),
    objects: seen.size,
    environ,
    keyFile,
  }));
}
`;

interface Report {
  where: string;
  env: string;
  workerData: string;
  argv: string;
  execArgv: string;
  strings: string;
  objects: number;
  environ: string;
  keyFile: string;
  heap: Buffer;
}

/** A batch folder with the level, the guards example and the probe; the probe writes into `<dir>/probe`. */
function folder(name: string): { file: string; probe: string; out: string } {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'probe'), { recursive: true });
  cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
  cpSync(join(repoRoot, 'examples/guards/guards.mjs'), join(dir, 'guards.mjs'));
  writeFileSync(join(dir, 'probe.mjs'), PROBE);
  const file = writeBatch(dir, 'r', { batch: 1, name: 'r', retries: 0, jobs: [{ world: 'level.col', scenario: 'probe.mjs', agents: 0, params: { guards: 2 }, frames: 30 }] });
  return { file, probe: join(dir, 'probe'), out: join(dir, 'out', 'r.jsonl') };
}

function reports(dir: string, kind: 'main' | 'thread'): Report[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.json'))
    .map((f) => ({ ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Omit<Report, 'heap'>), heap: readFileSync(join(dir, f.replace(/\.json$/, '.heap'))) }));
}

/** What a module can reach on its own thread holds no trace of the key. */
function findsNothing(r: Report): void {
  for (const part of ['env', 'workerData', 'argv', 'execArgv', 'strings'] as const) expect(r[part], `${r.where}: ${part}`).not.toContain(KEY);
  expect(r.env, r.where).not.toContain('RETROSIM_BATCH_KEY');
  expect(r.objects, r.where).toBeGreaterThan(500); // it did walk the thread's objects
  expect(r.heap.length, r.where).toBeGreaterThan(1_000_000); // a whole heap snapshot
  expect(r.heap.includes(KEY), `${r.where}: the heap snapshot`).toBe(false);
  // The snapshot holds the strings of the heap: the probe's own source is in it.
  expect(r.heap.includes('looks for the batch key wherever it can'), r.where).toBe(true);
}

async function ended(p: Proc): Promise<number> {
  const code = await p.exited;
  await waitFor('the output read to its end', () => p.child.stdout!.readableEnded && p.child.stderr!.readableEnded);
  return code;
}

const outputs: Proc[] = [];
function run(args: string[], env: NodeJS.ProcessEnv): Proc {
  const p = cli(args, env);
  outputs.push(p);
  return p;
}

/** A keyed batch (key from its file) on `queue` with one worker started with `workerArgs` and `workerEnv`. */
async function onQueue(queue: string, workerArgs: string[], workerEnv: NodeJS.ProcessEnv): Promise<{ probe: string }> {
  const { file, probe, out } = folder(queue);
  const env = { PROBE_DIR: probe };
  const w = run(['worker', '--redis', redis.url, '--queue', queue, '--name', queue, '--allow-scenario', join(tmp, queue, 'probe.mjs'), ...workerArgs], { ...env, ...workerEnv });
  const b = run(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json', '--key-file', keyFile], env);
  expect(await ended(b), b.stderr()).toBe(0);
  expect(JSON.parse(b.stdout().trim()) as Record<string, unknown>).toMatchObject({ done: 1, failed: 0 });
  w.child.kill('SIGTERM');
  expect(await ended(w)).toBe(0);
  return { probe };
}

beforeAll(async () => {
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  await killAll();
  await redis?.stop();
  for (const p of outputs) expect(p.stdout() + p.stderr()).not.toContain(KEY);
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('the batch key and scenario code', { timeout: 600_000 }, () => {
  it('a worker started with --key-file (RETROSIM_BATCH_KEY exported too): nothing on the job thread; the coordinator\'s main thread neither', async () => {
    const { probe } = await onQueue('both', ['--key-file', keyFile], { RETROSIM_BATCH_KEY: KEY });
    // Two threads import the module: the coordinator's planning thread and the worker's job thread. The main
    // threads, which hold the key, import none.
    const threads = reports(probe, 'thread');
    expect(threads).toHaveLength(2);
    expect(reports(probe, 'main')).toHaveLength(0);
    for (const t of threads) {
      findsNothing(t);
      // Still true, as the docs say: the key file by its path (both processes were given it).
      expect(t.keyFile).toBe(`${KEY}\n`);
    }
    // ...and the environment the worker's process started with.
    expect(threads.some((t) => t.environ.includes(`RETROSIM_BATCH_KEY=${KEY}`))).toBe(true);
  });

  it('a worker given the key in RETROSIM_BATCH_KEY alone: nothing on the job thread but the start environment', async () => {
    const { probe } = await onQueue('env', [], { RETROSIM_BATCH_KEY: KEY });
    const threads = reports(probe, 'thread');
    expect(threads).toHaveLength(2); // the coordinator's planning thread, the worker's job thread
    for (const t of threads) findsNothing(t);
    // The worker's job thread: its process's start environment holds the key, and no key file was named to it
    // (the coordinator's planning thread is in a process given --key-file).
    expect(threads.filter((t) => t.environ.includes(`RETROSIM_BATCH_KEY=${KEY}`) && t.keyFile === '')).toHaveLength(1);
  });

  it('a local batch run with RETROSIM_BATCH_KEY exported (it needs no key): neither its threads nor its main thread see it', async () => {
    const { file, probe, out } = folder('local');
    const b = run(['batch', file, '--workers', '1', '--out', out, '--json'], { PROBE_DIR: probe, RETROSIM_BATCH_KEY: KEY });
    expect(await ended(b), b.stderr()).toBe(0);
    const all = [...reports(probe, 'main'), ...reports(probe, 'thread')];
    // The planning thread and the job thread; the main thread imports no module.
    expect(all.map((r) => r.where.split('-')[0]).sort()).toEqual(['thread', 'thread']);
    for (const r of all) findsNothing(r);
  });
});
