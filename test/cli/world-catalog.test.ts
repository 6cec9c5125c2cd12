/**
 * One catalog of shipped worlds (src/worlds/builtin.ts), and every id in it means the same world in all four
 * places a world is named: `openWorld`, `retrosim run --world`, a batch file's "world", and a netplay room
 * (a joiner builds the room's world from its id alone). And a replay names its world by content: the same
 * bytes opened from another path or folder verify without --world, and a program and the CLI record the
 * same header however the path was spelled.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, killAll, repoRoot, runCliAsync, waitFor, type Proc } from '../batch/helpers.js';
import { openWorld, readReplay } from '../../src/index.js';
import { BUILTIN_WORLD_CATALOG } from '../../src/worlds/builtin.js';
import { PROCESS_TIMEOUT_MS } from './run-cli.js';

const ids = BUILTIN_WORLD_CATALOG.map((e) => e.id);
let dir = '';
let relay: Proc;
let url = '';

function cliIn(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/retrosim.js'), ...args], { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as Record<string, any>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-world-catalog-'));
  relay = cli(['relay', '--json']);
  const first = await waitFor("the relay's first line", () => {
    if (relay.child.exitCode !== null) throw new Error(`relay exited: ${relay.stderr()}`);
    const nl = relay.stdout().indexOf('\n');
    return nl >= 0 ? relay.stdout().slice(0, nl) : null;
  }, 60_000);
  url = (JSON.parse(first) as { url: string }).url;
});
afterAll(async () => {
  await killAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('every shipped world id, everywhere a world is named', () => {
  it('the catalog holds the worlds the sandbox lists', () => {
    for (const id of ['piney-default', 'piney-storm', 'piney-snow', 'piney-traveller', 'rugrats-demo', 'rugrats-hand', 'llama-demo', 'colbin-demo', 'gta-town']) expect(ids).toContain(id);
  });

  it('openWorld, run --world and a batch file open each id as the same world (same content hash)', async () => {
    const fromApi = new Map<string, string>();
    for (const id of ids) {
      const w = await openWorld(id);
      expect(w.identity.source).toBe(`builtin:${id}`);
      fromApi.set(id, w.identity.contentHash);
      const r = cliIn(dir, ['run', '--world', id, '--agents', '3', '--frames', '3', '--no-replay', '--json']);
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
      expect(lastJson(r.stdout)['world']).toMatchObject({ source: `builtin:${id}`, contentHash: w.identity.contentHash });
    }
    writeFileSync(join(dir, 'all.json'), JSON.stringify({ batch: 1, name: 'all', sweep: { world: ids, agents: 2, frames: 3 } }));
    const b = await runCliAsync(['batch', join(dir, 'all.json'), '--workers', '2', '--out', join(dir, 'all.jsonl'), '--json']);
    expect(b.code, b.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'all.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l['result']['world']['source'])).toEqual(ids.map((id) => `builtin:${id}`));
    for (const l of lines) expect(l['result']['world']['contentHash']).toBe(fromApi.get(l['result']['world']['source'].slice(8)));
  });

  for (const id of ['gta-town', 'piney-storm', 'llama-demo']) {
    it(`a netplay room on ${id}: a joiner builds the world from its id alone, and both end on one hash`, async () => {
      const room = `catalog-${id}`;
      const a = cli(['netplay', 'join', '--relay', url, '--room', room, '--world', id, '--agents', '4', '--frames', '90', '--bot', 'wander', '--json']);
      await waitFor(`room ${room} to open`, () => relay.stdout().split('\n').some((l) => l.includes('"room-open"') && l.includes(`"room":"${room}"`)), 120_000);
      const b = cli(['netplay', 'join', '--relay', url, '--room', room, '--frames', '90', '--bot', 'wander', '--json']);
      const [ca, cb] = await Promise.all([a.exited, b.exited]);
      expect(ca, a.stderr()).toBe(0);
      expect(cb, b.stderr()).toBe(0);
      expect(lastJson(a.stdout())['finalHash']).toBe(lastJson(b.stdout())['finalHash']);
    });
  }
});

describe('a replay names its world by content', () => {
  it('the same bytes from another folder, or beside the replay, verify without --world', () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    mkdirSync(join(a, 'levels'), { recursive: true });
    mkdirSync(b, { recursive: true });
    // Not a shipped world's bytes (those are recorded by their id).
    copyFileSync(join(repoRoot, 'assets/worlds/colbin/demo-v1.colbin'), join(a, 'levels', 'yard.colbin'));
    const r = cliIn(a, ['run', '--world', './levels/yard.colbin', '--agents', '3', '--frames', '40', '--out', 'yard.replay', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(readReplay(readFileSync(join(a, 'yard.replay'))).header.world.source).toBe('file:levels/yard.colbin');
    // From the folder it was recorded in, from another folder by the replay's path, and moved beside the world.
    expect(lastJson(cliIn(a, ['replay', 'verify', 'yard.replay', '--json']).stdout)['ok']).toBe(true);
    expect(lastJson(cliIn(b, ['replay', 'verify', join(a, 'yard.replay'), '--json']).stdout)['ok']).toBe(true);
    copyFileSync(join(a, 'yard.replay'), join(b, 'yard.replay'));
    copyFileSync(join(a, 'levels', 'yard.colbin'), join(b, 'yard.colbin'));
    expect(lastJson(cliIn(repoRoot, ['replay', 'verify', join(b, 'yard.replay'), '--json']).stdout)['ok']).toBe(true);
    // Other bytes under the recorded name are not taken for it.
    writeFileSync(join(b, 'yard.colbin'), readFileSync(join(repoRoot, 'assets/worlds/colbin/demo.colbin')));
    const no = cliIn(repoRoot, ['replay', 'verify', join(b, 'yard.replay'), '--json']);
    expect(no.code).toBe(2);
    expect(lastJson(no.stdout)['error']['message']).toMatch(/found nowhere it was looked for: .*yard\.colbin \(other bytes: colbin, \d+ bytes, content hash 0x[0-9a-f]{16}\)/);
  });

  it('a program and the CLI record the same header however the path is spelled; a shipped world\'s bytes by their id', () => {
    const a = join(dir, 'prog');
    mkdirSync(join(a, 'levels'), { recursive: true });
    copyFileSync(join(repoRoot, 'assets/worlds/colbin/demo-v1.colbin'), join(a, 'levels', 'yard.colbin'));
    copyFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(a, 'levels', 'copy-of-demo.col'));
    mkdirSync(join(a, 'node_modules'), { recursive: true });
    writeFileSync(
      join(a, 'rec.mjs'),
      `import { writeFileSync } from 'node:fs';
import { ReplayRecorder, createSimulation, demoButtons, openWorld } from ${JSON.stringify(join(repoRoot, 'dist/src/index.js'))};
for (const [path, out] of [['./levels/yard.colbin', 'p1.replay'], ['levels//yard.colbin', 'p2.replay'], ['./levels/copy-of-demo.col', 'p3.replay']]) {
  const w = await openWorld(path);
  const sim = createSimulation(w.world, { agents: 3 });
  const rec = new ReplayRecorder(sim, w.identity);
  for (let f = 1; f <= 20; f++) rec.step(demoButtons(f));
  writeFileSync(out, rec.finish());
}
`,
    );
    const p = spawnSync(process.execPath, ['rec.mjs'], { cwd: a, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
    expect(p.status, p.stderr).toBe(0);
    expect(cliIn(a, ['run', '--world', 'levels/yard.colbin', '--agents', '3', '--frames', '20', '--out', 'c1.replay']).code).toBe(0);
    const bytes = (f: string) => readFileSync(join(a, f));
    expect(Buffer.compare(bytes('p1.replay'), bytes('c1.replay'))).toBe(0);
    expect(Buffer.compare(bytes('p2.replay'), bytes('c1.replay'))).toBe(0);
    expect(readReplay(bytes('p3.replay')).header.world.source).toBe('builtin:rugrats-demo');
  });
});
