/**
 * A netplay room on a scenario module of one's own (`netplay join --scenario FILE`): the room's config
 * carries the module's graph; a joiner and a spectator with their own copy play to the same final hash; a
 * joiner without the module, or with one that differs by a byte, is refused by the relay at join with one
 * line naming what to give or the two graphs (nothing of a different module runs); and a module's parameters (--set) are
 * the room's. Real relay and `netplay join` processes on loopback.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, killAll, runCliAsync, waitFor, type Proc } from '../batch/helpers.js';

const TAG = (marker: string) => `import { writeFileSync } from 'node:fs';
import { DEFAULT_SYSTEMS, defineComponent, defineScenario, defineSystem, Position } from 'retrosim';
writeFileSync(${JSON.stringify(marker)}, 'imported');
export const Tagged = defineComponent('Tagged', { times: 'u32' });
const tag = defineSystem({
  name: 'tag',
  priority: 60,
  create(host) {
    const t = host.ecs.store(Tagged);
    const pos = host.ecs.store(Position);
    const reach = host.params.reach * host.world.scale;
    return (ctx) => {
      const [a, b] = ctx.players ?? [];
      if (a === undefined || b === undefined) return;
      const dx = pos.x[a] - pos.x[b], dy = pos.y[a] - pos.y[b], dz = pos.z[a] - pos.z[b];
      if (dx * dx + dy * dy + dz * dz < reach * reach) t.times[a]++;
    };
  },
});
export default defineScenario({
  name: 'tag', version: '1.0.0', description: 'two players; one is it', players: 2, components: [Tagged],
  params: { reach: { type: 'number', default: 2, min: 0, max: 50 } },
  systems: [...DEFAULT_SYSTEMS, tag],
  place(sim) { sim.spawnPlayers(); const t = sim.ecs.store(Tagged); for (const p of sim.players) sim.ecs.add(p, t); sim.spawnWanderers(sim.settings.agents); },
});
`;

let dir = '';
let relay: Proc;
let url = '';
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as Record<string, any>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-netplay-scenario-'));
  for (const who of ['a', 'b', 'c', 'd']) mkdirSync(join(dir, who));
  writeFileSync(join(dir, 'a', 'tag.mjs'), TAG(join(dir, 'a', 'ran')));
  // b and c: byte-identical copies elsewhere (the marker path is inside the text, so it is the same text)
  copyFileSync(join(dir, 'a', 'tag.mjs'), join(dir, 'b', 'tag.mjs'));
  copyFileSync(join(dir, 'a', 'tag.mjs'), join(dir, 'c', 'tag.mjs'));
  // d: one byte different, with a marker of its own
  writeFileSync(join(dir, 'd', 'tag.mjs'), TAG(join(dir, 'd', 'ran')).replace("'two players; one is it'", "'two players; one is It'"));
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

const roomOpen = (room: string) => waitFor(`room ${room} to open`, () => relay.stdout().split('\n').some((l) => l.includes('"room-open"') && l.includes(`"room":"${room}"`)), 120_000);
const join_ = (room: string, extra: string[]) => cli(['netplay', 'join', '--relay', url, '--room', room, '--frames', '120', '--json', ...extra]);

describe('netplay join --scenario', () => {
  it('a room on a scenario module: a joiner and a spectator with their own copies end on one hash; --set is the room\'s', async () => {
    const a = join_('tag', ['--scenario', join(dir, 'a', 'tag.mjs'), '--set', 'reach=5', '--world', 'rugrats-demo', '--agents', '3', '--out', join(dir, 'a', 'room.replay')]);
    await roomOpen('tag');
    const b = join_('tag', ['--scenario', join(dir, 'b', 'tag.mjs')]);
    const s = join_('tag', ['--spectate', '--scenario', join(dir, 'c', 'tag.mjs')]);
    const [ca, cb, cs] = await Promise.all([a.exited, b.exited, s.exited]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(cs, s.stderr()).toBe(0);
    const h = lastJson(a.stdout())['finalHash'];
    expect(lastJson(b.stdout())['finalHash']).toBe(h);
    expect(lastJson(s.stdout())['finalHash']).toBe(h);
    // The session's replay names the module and its parameters, and verifies with the module given.
    const v = await runCliAsync(['replay', 'verify', join(dir, 'a', 'room.replay'), '--scenario', join(dir, 'b', 'tag.mjs'), '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(lastJson(v.stdout)['ok']).toBe(true);
    const info = lastJson((await runCliAsync(['replay', 'info', join(dir, 'a', 'room.replay'), '--json'])).stdout);
    expect(info['settings']['params']).toEqual({ reach: 5 });
  });

  it('a joiner without the module, or with another, is refused at join with one line; a spectator\'s other module never runs', async () => {
    // A room each (the relay refuses before seating, but a room each keeps the cases apart).
    const a = join_('tag-2', ['--scenario', join(dir, 'a', 'tag.mjs'), '--world', 'rugrats-demo', '--agents', '2']);
    const a3 = join_('tag-3', ['--scenario', join(dir, 'a', 'tag.mjs'), '--world', 'rugrats-demo', '--agents', '2']);
    await roomOpen('tag-2');
    await roomOpen('tag-3');
    const none = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'tag-2', '--frames', '120', '--spectate']);
    expect(none.code).toBe(1);
    // the relay refuses it at join: the room's scenario is a module, and this spectator brings none
    expect(none.stderr).toMatch(/relay refused: join\.scenario: the room plays scenario "tag" 1\.0\.0 from the module .*tag\.mjs \(module graph 0x[0-9a-f]{16}\); this client brings none: give that module with --scenario FILE/);
    expect(none.stderr.trim().split('\n').filter((l) => !l.startsWith('netplay: '))).toHaveLength(1);
    const other = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'tag-3', '--frames', '120', '--scenario', join(dir, 'd', 'tag.mjs')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/relay refused: join\.scenario: the room plays scenario "tag" 1\.0\.0 from the module .*tag\.mjs with module graph (0x[0-9a-f]{16}); this client's module graph is (?!\1)0x[0-9a-f]{16}/);
    // A player imports its own module first (the room it offers, should it be the first); a spectator offers
    // nothing, so its module is compared with the room's before any of it runs.
    rmSync(join(dir, 'd', 'ran'), { force: true });
    const watcher = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'tag-2', '--frames', '120', '--spectate', '--scenario', join(dir, 'd', 'tag.mjs')]);
    expect(watcher.code).toBe(1);
    expect(watcher.stderr).toMatch(/relay refused: join\.scenario: .*this client's module graph is 0x[0-9a-f]{16}/);
    expect(() => readFileSync(join(dir, 'd', 'ran'))).toThrow();
    a.child.kill('SIGKILL');
    a3.child.kill('SIGKILL');
  });

  it('a room with more seats than the scenario allows is refused before it opens, naming its `players`', async () => {
    writeFileSync(join(dir, 'solo.mjs'), `import { DEFAULT_SYSTEMS, defineScenario } from 'retrosim';\nexport default defineScenario({ name: 'solo', version: '1', description: 'one player', systems: DEFAULT_SYSTEMS });\n`);
    const r = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'solo', '--frames', '60', '--scenario', join(dir, 'solo.mjs'), '--players', '2']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/scenario solo has at most 1 player \(its `players`\), the settings ask for 2/);
  });
});
