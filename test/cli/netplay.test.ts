/**
 * `retrosim netplay join` as real processes through one impaired `retrosim relay` (delay 80 ± 30 ms, 5 % loss),
 * each test in its own room: two wander bots and a referee agree on every frame to the end and write identical
 * session replays that verify; a doctored player is named in a desync by the honest bot and the referee; rogue
 * clients (out-of-range input, a flood) are closed with a reason while the session goes on; bad arguments.
 * Nothing here depends on timing: every wait is on a process exiting or a message arriving.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freePort, killAll, repoRoot, runCliAsync, waitFor, type Proc } from '../batch/helpers.js';
import { connect, join as joinRoom, type TestClient } from '../netplay/relay-client.js';
import { decodeValueBytes } from '../../src/ecs/value-codec.js';
import { diffSnapshots } from '../../src/replay/snapshot-diff.js';

interface Summary {
  frames: number;
  confirmedFrame: number;
  finalHash: string;
  rollbacks: number;
  maxRollback: number;
  desyncs: number;
  player: number;
  waits: number;
  pingMs: number;
}

const dir = mkdtempSync(join(tmpdir(), 'retrosim-netplay-'));
const clients: TestClient[] = [];
let relay: Proc;
let url: string;

beforeAll(async () => {
  // every client of these tests comes from 127.0.0.1: the per-address limits are raised for them
  relay = cli(['relay', '--json', '--delay', '80', '--jitter', '30', '--loss', '0.05', '--max-per-address', '256', '--max-rooms-per-address', '64']);
  const first = await waitFor('the relay\'s first line', () => {
    if (relay.child.exitCode !== null) throw new Error(`relay exited: ${relay.stderr()}`);
    const nl = relay.stdout().indexOf('\n');
    return nl >= 0 ? relay.stdout().slice(0, nl) : null;
  }, 60_000);
  url = (JSON.parse(first) as { url: string }).url;
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** A `netplay join` in `room`; the first player gives the room's config (light: 30 agents). */
/** stderr's lines without the status line a client prints every 5 s (a loaded machine can reach one before the refusal). */
const errorLines = (stderr: string) => stderr.trim().split('\n').filter((l) => !l.startsWith('netplay: '));

function joinProc(room: string, frames: number, extra: string[]): Proc {
  return cli(['netplay', 'join', '--relay', url, '--room', room, '--frames', String(frames), '--json', ...extra]);
}

async function summaryOf(p: Proc, code: number): Promise<Summary> {
  const exit = await p.exited;
  if (exit !== code) throw new Error(`exit ${exit}, expected ${code}; stderr: ${p.stderr()}; stdout: ${p.stdout()}`);
  const s = JSON.parse(p.stdout().trim().split('\n').pop()!) as Summary & { error?: unknown };
  if (s.error !== undefined) throw new Error(`no summary: ${p.stderr()}`);
  return s;
}

/** Waits until the relay logged that `room` opened (so the next player joins it, not creates it). */
async function roomOpen(room: string): Promise<void> {
  await waitFor(`room ${room} to open`, () => relay.stdout().split('\n').some((l) => l.includes('"room-open"') && l.includes(`"room":"${room}"`)), 120_000);
}

describe.concurrent('retrosim netplay join through an impaired relay', () => {
  it('two wander bots and a referee end on the same frame and hash, with rollbacks and no desync; the replays are identical and verify', async () => {
    const a = joinProc('done-when', 1800, ['--bot', 'wander', '--seed', '3', '--agents', '30', '--out', join(dir, 'a.replay')]);
    await roomOpen('done-when');
    const b = joinProc('done-when', 1800, ['--bot', 'wander', '--seed', '3', '--out', join(dir, 'b.replay')]);
    const spectator = joinProc('done-when', 1800, ['--spectate']);
    const [sa, sb, ss] = await Promise.all([summaryOf(a, 0), summaryOf(b, 0), summaryOf(spectator, 0)]);
    expect(sa.confirmedFrame).toBe(1800);
    expect(sb.confirmedFrame).toBe(1800);
    expect(ss.confirmedFrame).toBe(1800);
    expect(sb.finalHash).toBe(sa.finalHash);
    expect(ss.finalHash).toBe(sa.finalHash);
    expect([sa.player, sb.player, ss.player]).toEqual([0, 1, -1]);
    expect(sa.rollbacks + sb.rollbacks).toBeGreaterThan(0);
    expect(sa.desyncs + sb.desyncs + ss.desyncs).toBe(0);
    const ra = readFileSync(join(dir, 'a.replay'));
    expect(Buffer.compare(ra, readFileSync(join(dir, 'b.replay')))).toBe(0);
    const v = await runCliAsync(['replay', 'verify', join(dir, 'a.replay'), '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, frames: 1800, finalHash: sa.finalHash });
  }, 600_000);

  it('bots with --name say who is who as the page does: seats counted from 1, with the names, the same lines on both sides', async () => {
    const room = 'named';
    const cmd = (name: string) => cli(['netplay', 'join', '--relay', url, '--room', room, '--frames', '120', '--agents', '5', '--name', name]);
    const a = cmd('Ada');
    await roomOpen(room);
    const b = cmd('Grace ✓');
    expect(await a.exited, a.stderr()).toBe(0);
    expect(await b.exited, b.stderr()).toBe(0);
    expect(a.stderr()).toContain('netplay: seats: player 1 (Ada, you), player 2: free\n');
    expect(a.stderr()).toContain('netplay: seats: player 1 (Ada, you), player 2 (Grace ✓)\n');
    expect(b.stderr()).toContain('netplay: seats: player 1 (Ada), player 2 (Grace ✓, you)\n');
    expect(a.stdout()).toMatch(/^room {8}named as player 1 \(Ada\) of 2$/m);
    expect(b.stdout()).toMatch(/^room {8}named as player 2 \(Grace ✓\) of 2$/m);
    // a name that could act on a terminal is refused before anything connects
    const bad = await runCliAsync(['netplay', 'join', '--relay', url, '--room', room, '--name', 'x\u001b[2J']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('retrosim: --name: expected a name without control or bidirectional characters, got "x\\u001b[2J"\n');
  }, 300_000);

  for (const mode of ['input', 'checksum'] as const) {
    it(`a player that doctors ${mode === 'input' ? 'a past input on resend' : 'a checksum'} is named in a desync by the honest bot and the referee`, async () => {
      const room = `doctored-${mode}`;
      const F = mode === 'input' ? 123 : 120;
      const honest = joinProc(room, 600, ['--bot', 'wander', '--agents', '30', '--out', join(dir, `${room}.replay`)]);
      await roomOpen(room);
      const liar = spawnNode(['test/netplay/doctored-client.mjs', url, room, mode, String(F), '600']);
      const referee = joinProc(room, 600, ['--spectate']);
      const [sh, sr] = await Promise.all([summaryOf(honest, 1), summaryOf(referee, 1)]);
      for (const [s, p] of [[sh, honest], [sr, referee]] as const) {
        expect(s.desyncs).toBeGreaterThan(0);
        const m = /DESYNC at frame (\d+): player (\d+) \((\w+)/.exec(p.stderr());
        expect(m, p.stderr()).not.toBeNull();
        // seats counted from 1, as the page says them: the doctored seat 1 is player 2
        expect(Number(m![2])).toBe(2);
        // within one checksum interval (10 frames) of the doctored frame
        expect(Number(m![1])).toBeGreaterThanOrEqual(F);
        expect(Number(m![1])).toBeLessThan(F + 10);
        expect(m![3]).toBe(mode === 'input' ? 'the' : 'checksum');
      }
      const report = JSON.parse(readFileSync(join(dir, `${room}.replay.desync.json`), 'utf8')) as { frame: number; players: number[]; cause: string; snapshot: string };
      expect(report.players).toEqual([1]);
      expect(report.frame).toBeGreaterThanOrEqual(F);
      expect(report.frame).toBeLessThan(F + 10);
      expect(report.cause).toBe(mode === 'input' ? 'changed' : 'checksum');
      expect(readFileSync(report.snapshot).length).toBeGreaterThan(0);
      const v = await runCliAsync(['replay', 'verify', join(dir, `${room}.replay`), '--json']);
      expect(v.code, v.stderr).toBe(0);
      liar.child.kill('SIGKILL');
    }, 300_000);
  }

  it('a player whose simulation really differs: the honest bot\'s report names the hash sections and values, with both states', async () => {
    const room = 'drifted';
    const honest = joinProc(room, 300, ['--bot', 'wander', '--agents', '30', '--out', join(dir, `${room}.replay`)]);
    await roomOpen(room);
    const liar = spawnNode(['test/netplay/doctored-client.mjs', url, room, 'state', '1', '300']);
    const sh = await summaryOf(honest, 1);
    expect(sh.desyncs).toBeGreaterThan(0);
    expect(honest.stderr()).toMatch(/DESYNC at frame 10: player 2 \(checksum/);
    expect(honest.stderr()).toMatch(/player 2's state of frame 10 differs in [^\n]*Position[^\n]*Position\.x of entity/);
    type Peer = { sections: string[]; differences: string[]; totalDifferences: number; snapshot: string };
    const report = JSON.parse(readFileSync(join(dir, `${room}.replay.desync.json`), 'utf8')) as { frame: number; sections: string[]; snapshot: string; states: Record<string, Peer> };
    expect(report.frame).toBe(10);
    expect(report.sections).toContain('Position');
    expect(report.states['1']!.sections).toContain('Position');
    expect(report.states['1']!.totalDifferences).toBeGreaterThan(0);
    // both states, as files a replay keyframe's decoder reads
    const ours = decodeValueBytes(readFileSync(report.snapshot), 'snapshot') as { frame: number };
    const theirs = decodeValueBytes(readFileSync(report.states['1']!.snapshot), 'snapshot') as { frame: number };
    expect([ours.frame, theirs.frame]).toEqual([10, 10]);
    expect(diffSnapshots(ours, theirs).total).toBe(report.states['1']!.totalDifferences);
    liar.child.kill('SIGKILL');
  }, 300_000);

  it('rogue clients (an out-of-range input, a flood) are closed with a reason; the bots and the referee go on to the same hash', async () => {
    const room = 'rogues';
    const a = joinProc(room, 420, ['--bot', 'wander', '--players', '3', '--agents', '30']);
    await roomOpen(room);
    // seat 1: a raw client that, once the session starts, sends a button word out of range
    const rogue = await joinRoom(url, room, 'player');
    clients.push(rogue);
    expect((await rogue.next('joined')).player).toBe(1);
    const b = joinProc(room, 420, ['--bot', 'wander']);
    const referee = joinProc(room, 420, ['--spectate']);
    await rogue.next('start');
    rogue.sendRaw('{"t":"input","f":1,"b":[99],"ack":[0,0,0],"c":[],"at":1}');
    expect((await rogue.next('error')).reason).toBe('input.b[0]: expected an integer in 0..63, got 99');
    expect((await rogue.waitClosed()).code).toBe(1008);
    // a spectator that floods pings
    const flood = await joinRoom(url, room, 'spectator');
    clients.push(flood);
    for (let i = 0; i < 400 && flood.closed === null; i++) flood.sendRaw(`{"t":"ping","id":${i}}`);
    expect((await flood.next('error')).reason).toMatch(/^rate: more than 240 messages/);
    await flood.waitClosed();
    const [sa, sb, sr] = await Promise.all([summaryOf(a, 0), summaryOf(b, 0), summaryOf(referee, 0)]);
    expect(sa.confirmedFrame).toBe(420);
    expect(sb.finalHash).toBe(sa.finalHash);
    expect(sr.finalHash).toBe(sa.finalHash);
    expect(sa.desyncs + sb.desyncs + sr.desyncs).toBe(0);
  }, 300_000);

  it('refuses bad arguments (exit 2); a relay refusal, a room world it cannot build and an unreachable relay are one line and exit 1, no hang', async () => {
    const cases: [string[], RegExp][] = [
      [['--room', 'x'], /needs --relay URL/],
      [['--relay', 'ws://127.0.0.1:1'], /needs --room NAME/],
      [['--relay', 'ws://127.0.0.1:1', '--room', 'x', '--bot', 'foo'], /--bot "foo": expected wander or idle/],
      [['--relay', 'ws://127.0.0.1:1', '--room', 'x', '--frames', '0'], /--frames/],
      [['--relay', 'http://x', '--room', 'x'], /expected ws:\/\/HOST:PORT/],
      [['--relay', 'ws://127.0.0.1:1', '--room', 'a b'], /--room "a b"/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCliAsync(['netplay', 'join', ...args])));
    runs.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
    // the relay refuses: spectating a room that does not exist
    const none = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'no-such-room', '--spectate', '--frames', '60'], 120_000);
    expect(none.code, none.stderr).toBe(1);
    expect(errorLines(none.stderr)).toHaveLength(1);
    expect(none.stderr).toMatch(/relay refused: join: .*no-such-room/);
    // a room on a world file that is not a shipped world's: a joiner without that file cannot build it and says so
    const creator = joinProc('file-world', 60, ['--world', 'assets/worlds/colbin/demo-v1.colbin', '--agents', '5']);
    await roomOpen('file-world');
    const joiner = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'file-world', '--frames', '60', '--world', 'assets/worlds/colbin/demo-v1.colbin'], 120_000);
    expect(joiner.code, joiner.stderr).toBe(0); // the same bytes, given
    expect(await creator.exited).toBe(0);
    const creator2 = joinProc('file-world-2', 60, ['--world', 'assets/worlds/colbin/demo-v1.colbin', '--agents', '5']);
    await roomOpen('file-world-2');
    const lost = await runCliAsync(['netplay', 'join', '--relay', url, '--room', 'file-world-2', '--frames', '60'], 120_000);
    expect(lost.code, lost.stderr).toBe(1);
    expect(lost.stderr).toMatch(/the room plays the world file:assets\/worlds\/colbin\/demo-v1\.colbin .*which is not built in: give --world FILE with the same bytes/);
    creator2.child.kill('SIGKILL');
    const port = await freePort();
    const r = await runCliAsync(['netplay', 'join', '--relay', `ws://127.0.0.1:${port}`, '--room', 'x', '--frames', '60', '--agents', '5'], 120_000);
    expect(r.code, r.stderr).toBe(1);
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`cannot reach the relay at ws://127.0.0.1:${port}`);
  }, 300_000);
});

/** `node ARGS...` in the repository, collected like `cli`. */
function spawnNode(args: string[]): Proc {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return { child, stdout: () => out, stderr: () => err, exited };
}
