import { describe, expect, it } from 'vitest';
import { verifyReplay } from '../../src/replay/verify.js';
import { stepPlayers } from '../../src/netplay/sim-calls.js';
import { NetplaySession } from '../../src/netplay/session.js';
import { build, bot, Match, testConfig } from './harness.js';

const FRAMES = 240;

function twoPlayers(delay: number, loss: number, seed = 1, frames = FRAMES): Match {
  const m = new Match({ players: 2, delay, jitter: delay > 0 ? 2 : 0, loss, seed });
  m.add('player', { lastFrame: frames }, bot(seed * 7 + 1));
  m.add('player', { lastFrame: frames }, bot(seed * 7 + 2));
  return m;
}

/** The hash of every frame of a plain simulation stepped with the inputs the relay logged. */
function plainHashes(m: Match, frames: number): string[] {
  const sim = build(testConfig(m.net.log.length));
  const out = [sim.hashHex()];
  const inputs = new Uint32Array(m.net.log.length);
  for (let f = 1; f <= frames; f++) {
    m.net.log.forEach((l, p) => (inputs[p] = l[f - 1]!));
    stepPlayers(sim, inputs);
    out.push(sim.hashHex());
  }
  return out;
}

describe('netplay session over an impaired in-memory relay', () => {
  for (const delay of [0, 5, 10]) {
    it(`two players, ${delay} ticks of delay and 5% loss: same confirmed hashes, replays identical and verifying`, () => {
      const m = twoPlayers(delay, 0.05);
      const [a, b] = m.clients as [any, any];
      const ticks = m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= FRAMES && c.session.stats.frame >= FRAMES), FRAMES * 4);
      expect(ticks).toBeLessThan(FRAMES * 4);
      const plain = plainHashes(m, FRAMES);
      for (let f = 1; f <= FRAMES; f++) {
        expect(a.hashes.get(f), `frame ${f}`).toBe(plain[f]);
        expect(b.hashes.get(f), `frame ${f}`).toBe(plain[f]);
      }
      for (const c of m.clients) {
        expect(c.desyncs).toEqual([]);
        expect(c.session.stats.state).toBe('running');
        expect(c.session.stats.frame).toBe(FRAMES);
        // the predicted simulation, rolled back and re-simulated along the way, ends on the confirmed state
        expect(c.session.simulation!.hashHex()).toBe(plain[FRAMES]);
      }
      
      if (delay > 0) expect(a.session.stats.rollbacks + b.session.stats.rollbacks).toBeGreaterThan(0);
      const ra = a.session.replay();
      const rb = b.session.replay();
      expect(Buffer.from(ra).equals(Buffer.from(rb))).toBe(true);
      const v = verifyReplay(ra, build(testConfig(2)));
      expect(v.ok).toBe(true);
      expect(v.frames).toBe(FRAMES);
    });
  }
});

describe('netplay session: confirmed frames equal a plain simulation (property)', () => {
  it('over delays, jitter, loss, players and inputs', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 0.25, noNaN: true }), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 1e6 }), (delay, jitter, loss, players, seed) => {
        const frames = 80;
        const m = new Match({ players, delay, jitter, loss, seed });
        for (let p = 0; p < players; p++) m.add('player', { lastFrame: frames }, bot(seed + p * 101));
        m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= frames && c.session.stats.frame >= frames), frames * 6);
        const plain = plainHashes(m, frames);
        for (const c of m.clients) {
          expect(c.session.simulation!.hashHex()).toBe(plain[frames]);
          expect(c.session.stats.confirmedFrame).toBe(frames);
          expect(c.desyncs).toEqual([]);
          for (let f = 1; f <= frames; f++) expect(c.hashes.get(f)).toBe(plain[f]);
        }
      }),
      { numRuns: 8, seed: 31 },
    );
  });
});

describe('netplay session: doctored peers are reported, naming them', () => {
  it('a wrong checksum is a desync naming the player within one check interval (players and referee)', () => {
    const m = new Match({ players: 2, delay: 4, jitter: 1, loss: 0.05, seed: 3 });
    const a = m.add('player', { lastFrame: 200 }, bot(11));
    const b = m.add('player', { lastFrame: 200 }, bot(12));
    const ref = m.add('spectator', { lastFrame: 200 });
    m.net.tamper = (seat, msg) => (seat === 1 && msg.t === 'input' ? { ...msg, c: (msg.c as [number, string][]).map(([f, h]) => (f >= 60 ? [f, '0xdeadbeefdeadbeef'] : [f, h])) } : msg);
    const seenAt: number[] = [];
    a.session.on('desync', () => seenAt.push(a.session.stats.confirmedFrame));
    m.runUntil(() => a.desyncs.length > 0 && ref.desyncs.length > 0, 400);
    for (const c of [a, ref]) {
      expect(c.desyncs).toHaveLength(1);
      const r = c.desyncs[0]!;
      expect(r).toMatchObject({ frame: 60, players: [1], cause: 'checksum', theirs: { 1: '0xdeadbeefdeadbeef' } });
      expect(r.ours).toBe(c.hashes.get(60));
      expect(r.snapshot?.frame).toBe(60);
      const again = build(testConfig(2));
      again.restore(r.snapshot!);
      expect(again.hashHex()).toBe(r.ours);
    }
    // taking the report's snapshot left the confirmed simulation where it was
    m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= 200), 1000);
    for (let f = 1; f <= 200; f++) expect(ref.hashes.get(f)).toBe(b.hashes.get(f));
    expect(a.hashes.get(200)).toBe(b.hashes.get(200));
    expect(seenAt[0]).toBeLessThanOrEqual(60 + 10);
    expect(b.desyncs).toEqual([]);
    // the honest player sent its state of frame 60: the referee finds it equal to its own, so the liar is player 1
    expect(ref.desyncs[0]!.states[0]).toMatchObject({ sections: [], totalDifferences: 0 });
    expect(ref.desyncs[0]!.sections).toEqual([]);
    // player 1 sent no state (it saw no desync), so player 0 cannot name sections
    expect(a.desyncs[0]!.sections).toEqual(['unknown']);
    // one count per wrong check frame (60..200), however often the peer repeats it
    for (let i = 0; i < 30; i++) m.step();
    expect(a.session.stats.desyncs).toBe(15);
  });

  it('a peer whose state really differs: both players and the referee name the hash sections and values that differ', () => {
    const m = new Match({ players: 2, delay: 3, jitter: 1, loss: 0.05, seed: 5 });
    const a = m.add('player', { lastFrame: 120 }, bot(21));
    // player 1's simulation is one agent's position off from the start: a hidden divergence
    const drifted = (config: Parameters<typeof build>[0]) => {
      const sim = build(config);
      const { Position, Agent } = sim.components;
      const e = [...Array(sim.ecs.capacity).keys()].find((i) => sim.ecs.has(i, Agent))!;
      Position.x[e] = Position.x[e]! + 0.5;
      return sim;
    };
    const b = m.add('player', { lastFrame: 120, build: drifted }, bot(22));
    const ref = m.add('spectator', { lastFrame: 120 });
    const detailed: number[] = [];
    for (const c of [a, b, ref]) c.session.on('desyncStates', ({ player }) => detailed.push(player));
    m.runUntil(() => a.session.desyncReport?.states[1] !== undefined && b.session.desyncReport?.states[0] !== undefined && ref.session.desyncReport?.states[1] !== undefined, 600);
    for (const [c, other] of [[a, 1], [b, 0], [ref, 1]] as const) {
      const r = c.session.desyncReport!;
      expect(r).toMatchObject({ frame: 10, cause: 'checksum' });
      expect(r.players).toContain(other);
      const cmp = r.states[other]!;
      expect(cmp.error).toBeUndefined();
      expect(cmp.sections).toContain('Position');
      expect(r.sections).toContain('Position');
      expect(cmp.totalDifferences).toBeGreaterThan(0);
      expect(cmp.differences.some((l) => l.includes('Position.'))).toBe(true);
      // the peer's snapshot is there to diff, and it hashes to what the peer sent
      const again = build(testConfig(2));
      again.restore(cmp.snapshot!);
      expect(again.hashHex()).toBe(cmp.hash);
    }
    expect(detailed.length).toBeGreaterThanOrEqual(3);
  });

  it('a past input altered on resend is a desync naming the player (relay `changed`)', () => {
    const m = new Match({ players: 2, delay: 3, jitter: 0, loss: 0, seed: 4 });
    const a = m.add('player', {}, bot(21));
    m.add('player', {}, bot(22));
    let sentHi = 0;
    let doctored = -1;
    m.net.tamper = (seat, msg) => {
      if (seat !== 1 || msg.t !== 'input') return msg;
      const f = msg.f as number;
      const b = [...(msg.b as number[])];
      if (doctored < 0 && f >= 30 && f <= sentHi) {
        b[0] = b[0]! ^ 1;
        doctored = f;
      }
      sentHi = Math.max(sentHi, f + b.length - 1);
      return { ...msg, b };
    };
    m.runUntil(() => a.desyncs.length > 0, 300);
    expect(doctored).toBeGreaterThanOrEqual(30);
    expect(a.desyncs).toHaveLength(1);
    expect(a.desyncs[0]).toMatchObject({ frame: doctored, players: [1], cause: 'changed' });
    expect(a.session.stats.confirmedFrame).toBeLessThanOrEqual(doctored + 10);
  });

  it('an input that differs from one already received is a desync naming its player', () => {
    const m = twoPlayers(2, 0);
    m.runUntil(() => m.clients[0]!.session.stats.confirmedFrame >= 40, 200);
    const old = m.net.log[1]![29]!;
    m.net.inject(0, JSON.stringify({ t: 'input', p: 1, f: 30, b: [old ^ 4], ack: [0, 0], c: [], at: 30 }));
    m.step();
    expect(m.clients[0]!.desyncs).toHaveLength(1);
    expect(m.clients[0]!.desyncs[0]).toMatchObject({ frame: 30, players: [1], cause: 'input', ours: m.clients[0]!.hashes.get(30) });
  });
});

describe('netplay session: spectators', () => {
  it('one joining at frame 0 and one joining late (keyframe + inputs) reach the players\' hashes', () => {
    const frames = 260;
    const m = new Match({ players: 2, delay: 3, jitter: 2, loss: 0.05, seed: 5 });
    const a = m.add('player', { lastFrame: frames }, bot(31));
    const b = m.add('player', { lastFrame: frames }, bot(32));
    const early = m.add('spectator', { lastFrame: frames });
    m.runUntil(() => a.session.stats.confirmedFrame >= 150, 600);
    expect(m.net.received.get('keyframe')).toBeGreaterThanOrEqual(2);
    const late = m.add('spectator', { lastFrame: frames });
    m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= frames), 1200);
    for (const c of [early, late]) {
      expect(c.session.stats.confirmedFrame).toBe(frames);
      expect(c.desyncs).toEqual([]);
    }
    for (let f = 1; f <= frames; f++) {
      expect(early.hashes.get(f), `frame ${f}`).toBe(a.hashes.get(f));
      expect(b.hashes.get(f)).toBe(a.hashes.get(f));
    }
    const lateFirst = Math.min(...late.hashes.keys());
    expect(lateFirst).toBe(121);
    for (let f = lateFirst; f <= frames; f++) expect(late.hashes.get(f), `frame ${f}`).toBe(a.hashes.get(f));
    expect(Buffer.from(early.session.replay()).equals(Buffer.from(a.session.replay()))).toBe(true);
    expect(verifyReplay(early.session.replay(), build(testConfig(2))).ok).toBe(true);
    expect(() => late.session.replay()).toThrow(/starts at frame 0/);
  });
});

describe('netplay session: lossy spectators and time sync', () => {
  it('spectators survive heavy loss and inputs that overtake their catch-up', () => {
    const frames = 200;
    const m = new Match({ players: 2, delay: 1, jitter: 3, loss: 0.25, seed: 8 });
    const a = m.add('player', { lastFrame: frames }, bot(41));
    m.add('player', { lastFrame: frames }, bot(42));
    const early = m.add('spectator', { lastFrame: frames });
    m.runUntil(() => a.session.stats.confirmedFrame >= 70, 600);
    const late = m.add('spectator', { lastFrame: frames });
    m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= frames), 2000);
    for (const c of [early, late]) {
      expect(c.session.stats).toMatchObject({ confirmedFrame: frames, state: 'running', desyncs: 0 });
      expect(c.hashes.get(frames)).toBe(a.hashes.get(frames));
    }
  });

  it('a player ahead of a slower peer waits now and then (time sync)', () => {
    const frames = 300;
    const m = new Match({ players: 2, delay: 2, jitter: 0, loss: 0, seed: 6 });
    const a = m.add('player', { lastFrame: frames }, bot(51));
    const b = m.add('player', { lastFrame: frames }, bot(52));
    let maxAhead = 0;
    let t = 0;
    while (a.session.stats.confirmedFrame < frames && t++ < 3000) {
      m.net.step();
      a.session.setLocalInput(a.hand!());
      a.session.tick();
      maxAhead = Math.max(maxAhead, a.session.stats.framesAhead);
      if (t % 4 !== 0) {
        b.session.setLocalInput(b.hand!());
        b.session.tick();
      }
    }
    expect(maxAhead).toBeGreaterThanOrEqual(2);
    expect(a.session.stats.waits).toBeGreaterThan(b.session.stats.waits);
    expect(a.hashes.get(frames)).toBeDefined();
    expect(a.desyncs).toEqual([]);
  });
});

describe('netplay session: bounded trust in the relay', () => {
  const hostile: [string, string, RegExp][] = [
    ['not JSON', 'oops{', /not JSON/],
    ['an array', '[1,2]', /expected an object, got an array/],
    ['an unknown type', '{"t":"boom"}', /unknown message type "boom"/],
    ['an unknown field', '{"t":"changed","p":1,"f":3,"x":1}', /unknown field "x"/],
    ['a seat out of range', '{"t":"input","p":3,"f":1,"b":[0],"ack":[0,0],"c":[],"at":0}', /seat 3/],
    ['buttons outside the mask', '{"t":"input","p":1,"f":1,"b":[999],"ack":[0,0],"c":[],"at":0}', /input\.b\[0\].*got 999/],
    ['a frame beyond the window', '{"t":"input","p":1,"f":1000000,"b":[1],"ack":[0,0],"c":[],"at":0}', /beyond the window/],
    ['a checksum off the interval', '{"t":"input","p":1,"f":1,"b":[0],"ack":[0,0],"c":[[15,"0x0000000000000000"]],"at":0}', /not a multiple of 10/],
    ['a catch-up sent to a player', '{"t":"catchup","keyframe":null,"from":1,"inputs":[[],[]]}', /catchup to a player/],
    ['joined twice', JSON.stringify({ t: 'joined', room: 'test', role: 'player', player: 0, players: 2, config: testConfig(2) }), /joined twice/],
    ['our own seat left', '{"t":"left","p":0,"from":5,"f0":5,"b":[]}', /seat 0 left/],
    ['a relay error', '{"t":"error","reason":"rate"}', /relay refused: rate/],
  ];
  for (const [what, text, reason] of hostile) {
    it(`${what} closes the session with a reason; the other player goes on`, () => {
      const m = twoPlayers(2, 0);
      m.runUntil(() => m.clients[0]!.session.stats.confirmedFrame >= 20, 200);
      m.net.inject(0, text);
      expect(() => m.step()).not.toThrow();
      const s = m.clients[0]!.session.stats;
      expect(s.state).toBe('closed');
      expect(s.closeReason).toMatch(reason);
      const other = m.clients[1]!.session;
      const before = other.stats.confirmedFrame;
      m.runUntil(() => other.stats.confirmedFrame >= before + 30, 200);
      expect(other.stats.state).toBe('running');
      expect(other.stats.confirmedFrame).toBeGreaterThanOrEqual(before + 30);
    });
  }

  it("a relay's refusal followed at once by the close, before any tick, is reported as the refusal", () => {
    let deliver: (text: string) => void = () => undefined;
    let closed: (reason: string) => void = () => undefined;
    const session = new NetplaySession({
      transport: { send: () => undefined, onMessage: (cb) => (deliver = cb), onClose: (cb) => (closed = cb), close: () => undefined },
      build,
      role: 'spectator',
      room: 'no-such-room',
    });
    deliver('{"t":"error","reason":"join: no room \\"no-such-room\\""}');
    closed('1008');
    expect(session.stats).toMatchObject({ state: 'closed', closeReason: 'relay refused: join: no room "no-such-room"' });
    // Without a refusal waiting, the close is the reason.
    const other = new NetplaySession({
      transport: { send: () => undefined, onMessage: () => undefined, onClose: (cb) => (closed = cb), close: () => undefined },
      build,
      role: 'spectator',
      room: 'r',
    });
    closed('1006');
    expect(other.stats.closeReason).toBe('connection closed: 1006');
  });

  it('a flood of messages between ticks closes the session instead of growing without bound', () => {
    const m = twoPlayers(0, 0);
    m.runUntil(() => m.clients[0]!.session.stats.confirmedFrame >= 5, 50);
    for (let i = 0; i < 5000; i++) m.net.inject(0, '{"t":"pong","id":1}');
    m.step();
    expect(m.clients[0]!.session.stats).toMatchObject({ state: 'closed', closeReason: expect.stringMatching(/more than 4096/) });
    expect(m.clients[0]!.session.retained().inbox).toBe(0);
  });

  it('a player that leaves is idle from then on and the other goes on', () => {
    const m = twoPlayers(3, 0.05, 9, 100000);
    const [a, b] = m.clients as [any, any];
    const left: unknown[] = [];
    a.session.on('left', (e: unknown) => left.push(e));
    m.runUntil(() => a.session.stats.confirmedFrame >= 50, 300);
    b.session.close('bye');
    m.runUntil(() => a.session.stats.confirmedFrame >= 150, 600);
    expect(left).toHaveLength(1);
    expect(a.session.stats.confirmedFrame).toBeGreaterThanOrEqual(150);
    const frames = a.session.stats.confirmedFrame;
    const from = (left[0] as { from: number }).from;
    for (let f = from; f <= frames; f++) m.net.log[1]![f - 1] = 0;
    const plain = plainHashes(m, frames);
    for (let f = 1; f <= frames; f++) expect(a.hashes.get(f)).toBe(plain[f]);
  });
});

describe('netplay session: memory', () => {
  it('what a session keeps does not grow with the frames played', () => {
    const m = twoPlayers(4, 0.05, 2, 100000);
    m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= 300), 1500);
    const at300 = m.clients.map((c) => c.session.retained());
    const inFlight300 = m.net.inFlight;
    m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= 1200), 5000);
    const at1200 = m.clients.map((c) => c.session.retained());
    for (let i = 0; i < 2; i++) {
      expect(at1200[i]!.inputs).toBe(at300[i]!.inputs);
      expect(at1200[i]!.slots).toBe(at300[i]!.slots);
      expect(at1200[i]!.confirmedHashes).toBeLessThanOrEqual(256);
      expect(at1200[i]!.checksums).toBeLessThanOrEqual(8 * 3);
      expect(at1200[i]!.pings).toBeLessThanOrEqual(4);
    }
    expect(m.net.inFlight).toBeLessThanOrEqual(inFlight300 + 10);
  });
});
