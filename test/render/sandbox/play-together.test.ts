/**
 * "Play together"'s pure parts: the room link (relay=, room=, players=, frames=) and fresh room names, the
 * room's config from the world on screen and which world a joining page opens, the status rows and the desync
 * banner and report, and a PlayRoom — the page's side of a room — over an in-memory impaired relay: two rooms
 * made as the page makes them (the joiner learns the world from the relay's `joined`, opened asynchronously)
 * confirm the same hashes and write byte-identical replays that verify.
 */
import { describe, expect, test } from 'vitest';
import { readReplay } from '../../../src/replay/format.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { decodeValueBytes } from '../../../src/ecs/value-codec.js';
import { base64ToBytes } from '../../../src/netplay/base64.js';
import type { DesyncReport, NetplayStats } from '../../../src/netplay/session.js';
import { scenarioIdentity } from '../../../src/scenarios/identity.js';
import { PlayRoom } from '../../../src/render/sandbox/play-room.js';
import { buildRoomSimulation, roomConfig, roomWorld, shareNote } from '../../../src/render/sandbox/room-config.js';
import { checkRelayUrl, formatRoomLink, freshRoomName, parseRoomLink } from '../../../src/render/sandbox/room-link.js';
import { desyncReportJson, desyncText, roomStatusRows, seatCss } from '../../../src/render/sandbox/room-report.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { Buttons } from '../../../src/systems/input.js';
import { FakeNet } from '../../netplay/fake-relay.js';
import { opener } from '../helpers.js';

describe('room link', () => {
  test('relay=, room=, players= and frames= are taken out of the query; the rest is the view link', () => {
    const r = parseRoomLink('?world=rugrats-demo&relay=ws%3A%2F%2F127.0.0.1%3A4000&room=abc-1&players=3&frames=1800&agents=10');
    expect(r.room).toEqual({ relay: 'ws://127.0.0.1:4000', room: 'abc-1', players: 3, frames: 1800 });
    expect(r.rest).toBe('?world=rugrats-demo&agents=10');
    expect(r.errors).toEqual([]);
    expect(parseRoomLink('').rest).toBe('');
  });

  test('a bad parameter is one line naming it, and is ignored', () => {
    const r = parseRoomLink('?relay=http://x&room=a%20b&players=5&frames=0');
    expect(r.room).toEqual({});
    expect(r.errors).toEqual([
      'link parameter relay: relay address "http://x" must start with ws:// or wss://: ignored',
      'link parameter room: room name "a b": 1–64 letters, digits, "_", "." or "-": ignored',
      'link parameter players: expected 2..4, got "5": ignored',
      'link parameter frames: expected a frame in 1..5184000, got "0": ignored',
    ]);
    expect(() => checkRelayUrl('not a url')).toThrow('relay address "not a url" is not a URL: give one like ws://127.0.0.1:PORT');
  });

  test('the link a room shows parses back to the same room', () => {
    const link = formatRoomLink('http://127.0.0.1:5173/', 'ws://127.0.0.1:4000', 'room-abc', 1800);
    expect(link).toBe('http://127.0.0.1:5173/?relay=ws%3A%2F%2F127.0.0.1%3A4000&room=room-abc&frames=1800');
    expect(parseRoomLink(new URL(link).search).room).toEqual({ relay: 'ws://127.0.0.1:4000', room: 'room-abc', frames: 1800 });
  });

  test('fresh room names come from the random bytes given, and fit the protocol', () => {
    const a = freshRoomName((b) => b.fill(0));
    const b = freshRoomName((b) => b.map((_, i) => i * 37));
    expect(a).toBe('room-aaaaaaaaaa');
    expect(b).toMatch(/^room-[a-z2-9]{10}$/);
    expect(b).not.toBe(a);
  });
});

describe('room config', () => {
  test('a catalog world is shared as it is; a file needs the same bytes on the other side', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 5 });
    const run = { world: s.opened.identity, scenario: scenarioIdentity(s.sim.scenario), settings: s.sim.settings };
    const c = roomConfig(run, 3);
    expect(c.settings.players).toBe(3);
    expect(c.settings.agents).toBe(5);
    expect([c.keyframeInterval, c.checkInterval, c.inputDelay]).toEqual([600, 10, 2]);
    expect(shareNote(c.world)).toBe('');
    expect(roomWorld(c, null)).toEqual({ kind: 'catalog', id: 'rugrats-demo' });
    const sim = buildRoomSimulation(c, await opener('rugrats-demo')());
    expect(sim.players.length).toBe(3);
    expect(() => roomConfig(run, 1)).toThrow('players must be 2..4, got 1');

    const file = { ...c, world: { ...c.world, source: 'file:mine.col' } };
    expect(shareNote(file.world)).toContain('your file mine.col: the others can join only after opening the same file');
    expect(roomWorld(file, s.opened.identity)).toEqual({ kind: 'shown' });
    expect(() => roomWorld(file, { ...s.opened.identity, contentHash: '0x0000000000000000' })).toThrow(/^the room plays mine\.col \(rugrats, \d+ bytes, content hash 0x[0-9a-f]{16}\), which this page does not have: open that file first, then join$/);
    // A room's world that is not the one given is refused as a replay's would be.
    await expect(async () => buildRoomSimulation(c, await opener('rugrats-hand')())).rejects.toThrow(/the replay ran on builtin:/);
  });
});

const stats = (over: Partial<NetplayStats> = {}): NetplayStats => ({ frame: 120, confirmedFrame: 114, rollbacks: 7, maxRollback: 5, framesAhead: 1, pingMs: 161.4, inputDelay: 2, waits: 3, desyncs: 0, player: 1, players: 2, state: 'running', names: [], hidden: [], waitingFor: [], ...over });

describe('room status and desync', () => {
  test('the status rows say where the room is in words and numbers', () => {
    expect(roomStatusRows(stats(), 'playing', 2, 1800)).toEqual([
      ['room', 'playing'],
      ['you', 'player 2 of 2'],
      ['players', '2 present'],
      ['ping', '161 ms'],
      ['input delay', '2 frames'],
      ['rollbacks', '7 (longest 5 frames)'],
      ['frames ahead', '1 (waited 3 frames)'],
      ['frame', '120, confirmed 114 of 1800'],
      ['desyncs', '0'],
    ]);
    expect(roomStatusRows(stats({ state: 'waiting' }), 'playing', 1)[0]).toEqual(['room', 'waiting until all 2 seats are taken']);
    expect(roomStatusRows(stats({ state: 'joining', player: -1 }), 'connecting', 0)).toEqual([['room', 'connecting to the relay']]);
    expect(roomStatusRows(stats({ confirmedFrame: 1800 }), 'playing', 2, 1800)[0]).toEqual(['room', 'finished at frame 1800']);
    expect(roomStatusRows(stats({ state: 'closed', closeReason: 'connection closed: code 1006' }), 'playing', 2)[0]).toEqual(['room', 'closed: connection closed: code 1006']);
    expect(seatCss(0)).toBe('#ff3d00');
    expect(seatCss(1)).toBe('#2962ff');
  });

  test('the banner names the frame and the players and says whether the session goes on; the report carries the snapshot', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    const r: DesyncReport = { frame: 40, players: [1], cause: 'checksum', ours: '0x0123456789abcdef', theirs: { 1: '0xfedcba9876543210' }, sections: ['unknown'], snapshot: s.sim.save(), states: {} };
    expect(desyncText(r, stats())).toBe("Desync at frame 40: player 2's state differs from yours. The session goes on, but the states may no longer agree.");
    expect(desyncText({ ...r, cause: 'changed' }, stats({ state: 'closed', closeReason: 'left the room' }))).toBe('Desync at frame 40: player 2 changed an input the relay had already passed on. The session stopped (left the room).');
    // once the peer's state arrived, the banner names the sections and the report carries both states
    const known: DesyncReport = { ...r, sections: ['Position'], states: { 1: { hash: '0xfedcba9876543210', sections: ['Position'], differences: ['Position.x of entity 3: recorded 1, replayed 2'], totalDifferences: 1, snapshot: s.sim.save() } } };
    expect(desyncText(known, stats())).toBe("Desync at frame 40: player 2's state differs from yours. It differs in Position. The session goes on, but the states may no longer agree.");
    const peer = JSON.parse(desyncReportJson(known, 'room-x')).states['1'];
    expect(peer).toMatchObject({ sections: ['Position'], totalDifferences: 1, snapshot: { encoding: 'value-codec+base64' } });
    const json = JSON.parse(desyncReportJson(r, 'room-x'));
    expect(json).toMatchObject({ room: 'room-x', frame: 40, players: [1], cause: 'checksum', ours: '0x0123456789abcdef', theirs: { 1: '0xfedcba9876543210' } });
    expect(json.snapshot.encoding).toBe('value-codec+base64');
    const back = decodeValueBytes(base64ToBytes(json.snapshot.data, 'report'), 'report') as unknown as ReturnType<typeof s.sim.save>;
    const again = (await SandboxSession.create(opener('rugrats-demo'), { agents: 3 })).sim;
    again.step(Buttons.Up);
    again.restore(back);
    expect(again.hashHex()).toBe(s.sim.hashHex());
  });
});

describe('PlayRoom', () => {
  test('two rooms over an impaired relay: the joiner opens the world the relay names, both confirm the same hashes and write the same replay', async () => {
    const net = new FakeNet({ players: 2, delay: 5, jitter: 3, loss: 0.1, seed: 7 });
    const open = opener('rugrats-demo');
    const host = await SandboxSession.create(open, { agents: 4 });
    const config = roomConfig({ world: host.opened.identity, scenario: scenarioIdentity(host.sim.scenario), settings: host.sim.settings }, 2);
    const asked: string[] = [];
    const shown: number[] = [];
    const make = (first: boolean) =>
      new PlayRoom({
        transport: net.connect(),
        room: 'r',
        ...(first ? { config } : {}),
        lastFrame: 300,
        now: () => net.tick * (1000 / 60),
        prepare: async (c) => {
          asked.push(c.world.source);
          return [await open(), await open()];
        },
        ready: (sim) => shown.push(sim.players.length),
      });
    const rooms = [make(true), make(false)];
    const keys = [(f: number) => (f % 90 < 45 ? Buttons.Up : Buttons.Left), (f: number) => (f % 70 < 30 ? Buttons.Right | Buttons.Up : 0)];
    let opening = 0;
    for (let t = 0; t < 5000 && !rooms.every((r) => r.stats.confirmedFrame >= 300); t++) {
      net.step();
      rooms.forEach((r, i) => {
        if (!r.step(keys[i]!(r.stats.frame))) opening++;
      });
      if (rooms.some((r) => r.phase === 'opening')) await new Promise((r) => setTimeout(r, 0));
    }
    expect(asked).toEqual(['builtin:rugrats-demo', 'builtin:rugrats-demo']);
    expect(opening).toBeGreaterThan(0);
    expect(shown).toEqual([2, 2]);
    for (const r of rooms) {
      expect(r.stats.confirmedFrame).toBe(300);
      expect(r.desyncs).toEqual([]);
      expect(r.hashes.length).toBe(300);
    }
    expect(rooms[1]!.hashes).toEqual(rooms[0]!.hashes);
    expect(rooms[0]!.hashOf(150)).toBe(rooms[0]!.hashes[149]);
    expect(rooms[0]!.hashOf(301)).toBeNull();
    expect(rooms.some((r) => r.stats.rollbacks > 0)).toBe(true);
    const a = rooms[0]!.replay();
    expect(Buffer.from(rooms[1]!.replay()).equals(Buffer.from(a))).toBe(true);
    const rp = readReplay(a);
    expect(rp.frames.players).toBe(2);
    const v = verifyReplay(rp, { world: await open() });
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(300);
  });

  test('a peer sending a wrong checksum is a desync naming it: the banner says the frame and that the session goes on, the report has our state', async () => {
    const net = new FakeNet({ players: 2, delay: 2 });
    const open = opener('rugrats-demo');
    const host = await SandboxSession.create(open, { agents: 2 });
    const config = roomConfig({ world: host.opened.identity, scenario: scenarioIdentity(host.sim.scenario), settings: host.sim.settings }, 2);
    net.tamper = (seat, msg) => (seat === 1 && msg.t === 'input' ? { ...msg, c: (msg.c as [number, string][]).map(([f, h]) => (f >= 60 ? [f, '0xdeadbeefdeadbeef'] : [f, h])) } : msg);
    const rooms = [config, undefined].map((c) => new PlayRoom({ transport: net.connect(), room: 'r', ...(c ? { config: c } : {}), prepare: async () => [await open(), await open()] }));
    for (let t = 0; t < 400 && rooms[0]!.desyncs.length === 0; t++) {
      net.step();
      for (const r of rooms) r.step(Buttons.Up);
      if (rooms.some((r) => r.phase === 'opening')) await new Promise((r) => setTimeout(r, 0));
    }
    const d = rooms[0]!.desyncs[0]!;
    expect(d).toMatchObject({ frame: 60, players: [1], cause: 'checksum', theirs: { 1: '0xdeadbeefdeadbeef' } });
    expect(d.ours).toBe(rooms[0]!.hashOf(60));
    expect(desyncText(d, rooms[0]!.stats)).toBe("Desync at frame 60: player 2's state differs from yours. The session goes on, but the states may no longer agree.");
    expect(JSON.parse(desyncReportJson(d, 'r')).snapshot.data.length).toBeGreaterThan(100);
  });

  test('a room whose world this page cannot open closes with that reason', async () => {
    const net = new FakeNet({ players: 2 });
    const open = opener('rugrats-demo');
    const host = await SandboxSession.create(open, { agents: 0 });
    const config = roomConfig({ world: host.opened.identity, scenario: scenarioIdentity(host.sim.scenario), settings: host.sim.settings }, 2);
    const a = new PlayRoom({ transport: net.connect(), room: 'r', config, prepare: async () => [await open(), await open()] });
    const b = new PlayRoom({ transport: net.connect(), room: 'r', prepare: async () => Promise.reject(new Error('the room plays mine.col, which this page does not have')) });
    for (let t = 0; t < 50 && b.stats.state !== 'closed'; t++) {
      net.step();
      a.step(0);
      b.step(0);
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(b.stats.state).toBe('closed');
    expect(b.stats.closeReason).toBe('the room plays mine.col, which this page does not have');
    expect(b.step(0)).toBe(false);
  });
});

describe('RoomControl', () => {
  test('Create and Join refuse with one sentence; a room created shows its link and what the others need', async () => {
    const { RoomControl } = await import('../../../src/render/sandbox/room-control.js');
    const net = new FakeNet({ players: 2 });
    const open = opener('rugrats-demo');
    const s = await SandboxSession.create(open, { agents: 0 });
    let run: ReturnType<typeof scenarioIdentity> | null = null;
    const c = new RoomControl(
      {
        shownRun: () => (run ? { world: { ...s.opened.identity, source: 'file:mine.col' }, scenario: run, settings: s.sim.settings } : null),
        prepare: async () => [await open(), await open()],
        show: () => undefined,
        ended: () => undefined,
        connect: () => net.connect(),
        pageAddress: () => 'http://h/',
        random: (b) => b.fill(1),
      },
      900,
    );
    expect(c.create('ws://r:1', '', 2)).toBe('');
    expect(c.view().note).toBe('Cannot play together: no world is open yet.');
    run = scenarioIdentity(s.sim.scenario);
    expect(c.create('http://r', '', 2)).toBe('');
    expect(c.view().note).toBe('Cannot play together: relay address "http://r" must start with ws:// or wss://.');
    expect(c.join('ws://r:1', ' ')).toBe('');
    expect(c.view().note).toBe('Cannot play together: give the room’s name (or open the link a player shared).');
    expect(c.active).toBe(false);
    expect(c.create('ws://r:1', '', 2)).toBe('room-bbbbbbbbbb');
    const v = c.view();
    expect(v.inRoom).toBe(true);
    expect(v.link).toBe('http://h/?relay=ws%3A%2F%2Fr%3A1&room=room-bbbbbbbbbb&frames=900');
    expect(v.note).toContain('your file mine.col');
    expect(c.join('ws://r:1', 'x')).toBe('');
    expect(c.view().note).toBe('Cannot play together: leave this room first.');
    c.leave();
    expect(c.active).toBe(false);
    expect(c.view().inRoom).toBe(false);
  });
});
