/**
 * The netplay relay in process (src/node/relay-server.ts) with real `ws` clients: rooms, seats and start, input
 * forwarding stamped with the player, catchup for late spectators, `changed` and `left`, each refusal closing
 * only the offending client, the seeded impairment, and the room limit.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type Relay, type RelayEvent, type RelayOptions } from '../../src/node/relay-server.js';
import { JOIN_TIMEOUT_MS, MAX_KEYFRAME_LENGTH, MAX_LEFT_INPUTS, MAX_SPECTATORS, MAX_STATES_PER_CLIENT, type RelayMessage } from '../../src/netplay/protocol.js';
import { waitFor } from '../batch/helpers.js';
import { connect, input, join, joinMessage, testConfig, type TestClient } from '../netplay/relay-client.js';

const relays: Relay[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const r of relays.splice(0)) await r.close();
});

async function relay(o: RelayOptions = {}): Promise<Relay> {
  const r = await startRelay(o);
  relays.push(r);
  return r;
}

/** A started room of `n` players, each having seen `start`. */
async function room(url: string, name: string, n: number, config = testConfig(n)): Promise<TestClient[]> {
  const players: TestClient[] = [];
  for (let i = 0; i < n; i++) {
    const c = await join(url, name, 'player', i === 0 ? config : undefined);
    clients.push(c);
    players.push(c);
  }
  for (const p of players) await p.next('start');
  return players;
}

type Forward = Extract<RelayMessage, { t: 'input' }>;
const forwards = (c: TestClient, p: number): Forward[] => c.of('input').filter((m) => m.p === p);

describe('the netplay relay', () => {
  it('gives seats in join order, starts a full room and forwards inputs stamped with the player', async () => {
    const { url } = await relay();
    const a = await join(url, 'duo', 'player', testConfig(2));
    clients.push(a);
    expect(a.of('joined')[0]).toMatchObject({ room: 'duo', role: 'player', player: 0, players: 2, config: testConfig(2) });
    expect(a.of('start')).toEqual([]);
    const b = await join(url, 'duo', 'player', testConfig(3)); // a later player's config is ignored
    clients.push(b);
    expect(b.of('joined')[0]).toMatchObject({ player: 1, players: 2, config: testConfig(2) });
    await a.next('start');
    await b.next('start');
    a.send(input(1, [1, 2, 3], 2));
    b.send(input(1, [5], 2));
    expect(await b.next('input')).toEqual({ t: 'input', p: 0, f: 1, b: [1, 2, 3], ack: [0, 0], c: [], at: 1 });
    expect(await a.next('input')).toEqual({ t: 'input', p: 1, f: 1, b: [5], ack: [0, 0], c: [], at: 1 });
  });

  it('tells every client who holds each seat, by name, as players sit down and leave before the start; forwards away with the seat', async () => {
    const r = await relay();
    const a = await connect(r.url);
    clients.push(a);
    a.send(joinMessage('names', 'player', testConfig(3), { name: 'Ada' }));
    expect(await a.next('seats')).toEqual({ t: 'seats', names: ['Ada', null, null] });
    const b = await connect(r.url);
    clients.push(b);
    b.send(joinMessage('names', 'player', undefined, { name: 'Grace ✓' }));
    const both = { t: 'seats', names: ['Ada', 'Grace ✓', null] };
    expect(await b.next('seats')).toEqual(both);
    expect(await a.next('seats', (m) => m.names[1] !== null)).toEqual(both);
    // a seat freed before the start is named free again
    b.close();
    expect(await a.next('seats', (m) => m.names[1] === null, 2)).toEqual({ t: 'seats', names: ['Ada', null, null] });
    const c = await connect(r.url);
    const d = await connect(r.url);
    clients.push(c, d);
    c.send(joinMessage('names', 'player'));
    await c.next('seats');
    d.send(joinMessage('names', 'player', undefined, { name: 'Linus' }));
    expect(await d.next('seats')).toEqual({ t: 'seats', names: ['Ada', '', 'Linus'] });
    const s = await join(r.url, 'names', 'spectator');
    clients.push(s);
    expect(await s.next('seats')).toEqual({ t: 'seats', names: ['Ada', '', 'Linus'] });
    for (const p of [a, c, d]) await p.next('start');
    c.send({ t: 'away', hidden: true });
    for (const x of [a, d, s]) expect(await x.next('away')).toEqual({ t: 'away', p: 1, hidden: true });
    expect(c.of('away')).toEqual([]);
    // a spectator is no player: its away is refused
    s.send({ t: 'away', hidden: true });
    expect((await s.waitClosed()).reason).toBe('away: spectators send no away');
    // a name with a control character is refused at join, naming the field
    const e = await connect(r.url);
    clients.push(e);
    e.sendRaw(JSON.stringify({ ...joinMessage('names2', 'player', testConfig(2)), name: 'x\u001b]0;owned\u0007' }));
    expect((await e.waitClosed()).reason).toBe('join.name: expected a name without control or bidirectional characters, got "x\\u001b]0;owned\\u0007"');
  });

  it('a player leaving before the start frees its seat for the next one', async () => {
    const r = await relay();
    const url = r.url;
    const a = await join(url, 'trio', 'player', testConfig(3));
    const b = await join(url, 'trio', 'player');
    clients.push(a, b);
    expect(b.of('joined')[0]!.player).toBe(1);
    b.close();
    await waitFor('the relay to see player 1 go', () => r.stats().clients === 1);
    const c = await join(url, 'trio', 'player');
    clients.push(c);
    const d = await join(url, 'trio', 'player');
    clients.push(d);
    expect([c.of('joined')[0]!.player, d.of('joined')[0]!.player]).toEqual([1, 2]);
    for (const p of [a, c, d]) await p.next('start');
    expect(a.of('left')).toEqual([]);
  });

  it('a spectator joining late gets the start and a catchup with every logged input, then live inputs', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'watched', 2);
    a!.send(input(1, [1, 2, 3, 4], 2));
    b!.send(input(1, [9, 8], 2));
    await b!.next('input', (m) => m.f === 1);
    await a!.next('input', (m) => m.f === 1);
    const s = await join(url, 'watched', 'spectator');
    clients.push(s);
    expect(s.of('joined')[0]).toMatchObject({ role: 'spectator', player: -1, players: 2 });
    await s.next('start');
    expect(await s.next('catchup')).toEqual({ t: 'catchup', keyframe: null, from: 1, inputs: [[1, 2, 3, 4], [9, 8]] });
    b!.send(input(3, [7], 2));
    expect(await s.next('input')).toMatchObject({ p: 1, f: 3, b: [7] });
  });

  it('a spectator that joined before the start gets an empty catchup with the start, then live inputs', async () => {
    const { url } = await relay();
    const a = await join(url, 'early', 'player', testConfig(2));
    clients.push(a);
    const s = await join(url, 'early', 'spectator');
    clients.push(s);
    const b = await join(url, 'early', 'player');
    clients.push(b);
    await s.next('start');
    expect(await s.next('catchup')).toEqual({ t: 'catchup', keyframe: null, from: 1, inputs: [[], []] });
    a.send(input(1, [5], 2));
    expect(await s.next('input')).toMatchObject({ p: 0, f: 1, b: [5] });
  });

  it('a spectator joining after a keyframe starts from it with the inputs since', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'kf', 2, testConfig(2, { keyframeInterval: 20 }));
    const kf = { f: 20, hash: '0x00000000000000ab', data: 'AAECAw==' };
    for (let f = 1; f <= 30; f += 10) {
      a!.send(input(f, Array.from({ length: 10 }, (_, i) => (f + i) & 63), 2));
      b!.send(input(f, new Array<number>(10).fill(1), 2));
    }
    await a!.next('input', (m) => m.f === 21);
    await b!.next('input', (m) => m.f === 21);
    // the keyframe is kept once every connected player's checksum of its frame agrees with it (sent with a resend)
    a!.send(input(30, [30], 2, [[20, kf.hash]]));
    b!.send(input(30, [1], 2, [[20, kf.hash]]));
    await a!.next('input', (m) => m.f === 30);
    await b!.next('input', (m) => m.f === 30);
    b!.send({ t: 'keyframe', ...kf }); // from player 1 while player 0 is here: refused
    expect((await b!.next('error')).reason).toBe("keyframe: sent by player 1, but player 0 is the room's lowest-numbered player");
    a!.send({ t: 'keyframe', ...kf });
    a!.send({ t: 'ping', id: 1 }); // the pong comes after the keyframe was handled
    await a!.next('pong');
    const s = await join(url, 'kf', 'spectator');
    clients.push(s);
    const catchup = await s.next('catchup');
    expect(catchup.keyframe).toEqual(kf);
    expect(catchup.from).toBe(21);
    expect(catchup.inputs[0]).toEqual(Array.from({ length: 10 }, (_, i) => 21 + i));
    // player 1 was refused after frame 30: its inputs up to 30, then idle, which a left message tells
    expect(catchup.inputs[1]).toEqual(new Array<number>(10).fill(1));
    expect(await s.next('left')).toMatchObject({ p: 1, from: 31 });
  });

  it('a spectator joining long after a player left gets a valid left message for it', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'long', 2, testConfig(2, { keyframeInterval: 100 }));
    b!.send(input(1, new Array<number>(10).fill(2), 2));
    await a!.next('input');
    b!.close();
    await a!.next('left');
    for (let f = 1; f <= 200; f += 20) a!.send(input(f, new Array<number>(20).fill(1), 2, f === 181 ? [[200, '0x0000000000000200']] : []));
    a!.send({ t: 'keyframe', f: 200, hash: '0x0000000000000200', data: 'AAAA' });
    a!.send({ t: 'ping', id: 1 });
    await a!.next('pong');
    const s = await join(url, 'long', 'spectator');
    clients.push(s);
    expect(await s.next('catchup')).toMatchObject({ from: 201, inputs: [[], []] });
    expect(await s.next('left')).toEqual({ t: 'left', p: 1, from: 11, f0: 11, b: [] });
  });

  it('a resend that differs from the log is forwarded as logged and announced as changed to everyone', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'liar', 2);
    a!.send(input(1, [1, 2, 3], 2));
    await b!.next('input');
    a!.send(input(2, [2, 33, 4], 2)); // frame 3 changed from 3 to 33; frame 4 is new
    expect(await b!.next('changed')).toEqual({ t: 'changed', p: 0, f: 3 });
    expect(await a!.next('changed')).toEqual({ t: 'changed', p: 0, f: 3 });
    expect(await b!.next('input', (m) => m.f === 2)).toMatchObject({ p: 0, f: 2, b: [2, 3, 4] });
    expect(b!.of('changed')).toHaveLength(1);
  });

  it('a player\'s state of a confirmed check frame reaches everyone else; more than a few, an unconfirmed frame or a spectator\'s are refused', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'states', 2);
    const spectator = await join(url, 'states', 'spectator');
    clients.push(spectator);
    await spectator.next('catchup');
    const ten = Array.from({ length: 10 }, () => 0);
    a!.send(input(1, ten, 2));
    b!.send(input(1, ten, 2));
    await a!.next('input');
    await b!.next('input');
    const state = { t: 'state' as const, f: 10, hash: '0x0123456789abcdef', data: 'AAAA' };
    a!.send(state);
    expect(await b!.next('state')).toEqual({ ...state, p: 0 });
    expect(await spectator.next('state')).toEqual({ ...state, p: 0 });
    expect(a!.of('state')).toHaveLength(0);
    // frame 20 is not confirmed yet: b is refused and closed; a and the spectator go on
    b!.send({ ...state, f: 20 });
    expect((await b!.waitClosed()).reason).toMatch(/state\.f: frame 20 is not confirmed/);
    for (let i = 1; i < MAX_STATES_PER_CLIENT; i++) a!.send(state);
    await waitFor('every state forwarded', () => spectator.of('state').length === MAX_STATES_PER_CLIENT);
    a!.send(state);
    expect((await a!.waitClosed()).reason).toMatch(new RegExp(`more than ${MAX_STATES_PER_CLIENT} states`));
    spectator.send(state);
    expect((await spectator.waitClosed()).reason).toMatch(/spectators send no states/);
  });

  it('a player whose connection ends is announced with its idle-from frame and last inputs', async () => {
    const { url } = await relay();
    const [a, b] = await room(url, 'gone', 2);
    const bs = Array.from({ length: 70 }, (_, i) => i & 63);
    for (let f = 1; f <= 70; f += 10) b!.send(input(f, bs.slice(f - 1, f + 9), 2));
    await a!.next('input', (m) => m.f === 61);
    b!.close();
    const left = await a!.next('left');
    expect(left).toEqual({ t: 'left', p: 1, from: 71, f0: 71 - MAX_LEFT_INPUTS, b: bs.slice(70 - MAX_LEFT_INPUTS) });
    // the room goes on alone: player 0's inputs are still taken (confirmed no longer waits on player 1)
    a!.send(input(1, [1], 2, [[0, '0x0000000000000000']]));
    a!.send({ t: 'ping', id: 7 });
    expect(await a!.next('pong')).toEqual({ t: 'pong', id: 7 });
    expect(a!.closed).toBeNull();
  });

  const bad: [string, (c: TestClient) => void, number, RegExp][] = [
    ['an out-of-range button word', (c) => c.sendRaw('{"t":"input","f":1,"b":[1,64],"ack":[0,0,0],"c":[],"at":1}'), 1008, /^input\.b\[1\]: expected an integer in 0\.\.63, got 64$/],
    ['a frame gap', (c) => c.send(input(5, [1], 3)), 1008, /^input\.f: frame 5 leaves a gap \(player 2's inputs are logged up to frame 0\)$/],
    ['a checksum of an unconfirmed frame', (c) => c.send(input(1, new Array<number>(10).fill(0), 3, [[10, '0x0123456789abcdef']])), 1008, /^input\.c\[0\]: frame 10 is not confirmed/],
    ['a 20 KiB text message', (c) => c.sendRaw(JSON.stringify({ t: 'ping', id: 1, pad: 'x'.repeat(20 * 1024) })), 1009, /^message: \d+ bytes, more than 16384 \(only a keyframe or a state may be longer\)$/],
    ['a message that is not JSON', (c) => c.sendRaw('{"t":"input",'), 1008, /^message: not JSON$/],
    ['a flood of 1000 messages at once', (c) => { for (let i = 0; i < 1000; i++) c.send({ t: 'ping', id: i }); }, 1008, /^rate: more than 240 messages at once/],
    ['a wrong ack length', (c) => c.send(input(1, [1], 2)), 1008, /^input\.ack: expected 3 items \(one per player\), got 2$/],
  ];
  it.each(bad)('%s closes that client with a reason; the other two go on', async (_, misbehave, code, reason) => {
    const events: RelayEvent[] = [];
    const r = await relay({ log: (e) => events.push(e) });
    const [a, b, c] = await room(r.url, 'three', 3);
    misbehave(c!);
    const error = await c!.next('error');
    expect(error.reason).toMatch(reason);
    expect(await c!.waitClosed()).toMatchObject({ code });
    expect(events.some((e) => e.event === 'refused' && e.reason === error.reason)).toBe(true);
    expect(await a!.next('left')).toMatchObject({ p: 2, from: 1 });
    a!.send(input(1, [3], 3));
    b!.send(input(1, [4], 3));
    expect(await b!.next('input')).toMatchObject({ p: 0, f: 1, b: [3] });
    expect(await a!.next('input')).toMatchObject({ p: 1, f: 1, b: [4] });
    expect(a!.closed).toBeNull();
    expect(b!.closed).toBeNull();
    expect(r.stats().refused).toBe(1);
  });

  it('refuses a spectator of no room, a join that is not first, and a player after the start', async () => {
    const { url } = await relay();
    const s = await connect(url);
    clients.push(s);
    s.send(joinMessage('nowhere', 'spectator'));
    expect((await s.next('error')).reason).toBe('join: no room "nowhere" to watch');
    const p = await connect(url);
    clients.push(p);
    p.send({ t: 'ping', id: 1 });
    expect((await p.next('error')).reason).toBe('ping: the first message must be join');
    await room(url, 'full', 1);
    const late = await connect(url);
    clients.push(late);
    late.send(joinMessage('full', 'player'));
    expect((await late.next('error')).reason).toBe('join: room "full" has started; join it as a spectator');
  });

  it('with loss 1, input forwards and pongs are dropped while control messages arrive', async () => {
    const r = await relay({ loss: 1, seed: 3 });
    const [a, b] = await room(r.url, 'lossy', 2);
    a!.send(input(1, [1, 2], 2));
    a!.send(input(2, [5], 2)); // changed: a control message, never dropped
    a!.send({ t: 'ping', id: 1 });
    await b!.next('changed');
    a!.close();
    await b!.next('left');
    // sends are in order without delay: anything not dropped would have come before these
    expect(b!.of('input')).toEqual([]);
    expect(a!.of('pong')).toEqual([]);
    expect(r.stats().dropped).toBe(3); // two forwards, one pong
  });

  async function dropPattern(seed: number): Promise<number[]> {
    const r = await relay({ loss: 0.5, seed, delayMs: 1, jitterMs: 1 });
    const [a, b] = await room(r.url, 'pattern', 2);
    for (let f = 1; f <= 60; f++) a!.send(input(f, [f & 63], 2));
    a!.close();
    await b!.next('left'); // control messages are never overtaken: every forward not dropped came before
    return b!.of('input').map((m) => m.f).sort((x, y) => x - y); // jitter reorders; which arrive is the pattern
  }

  it('the same seed drops the same messages', async () => {
    const first = await dropPattern(7);
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(55);
    expect(await dropPattern(7)).toEqual(first);
    expect(await dropPattern(8)).not.toEqual(first);
  });

  it('delays with jitter never let a control message overtake what was sent before it', async () => {
    const r = await relay({ delayMs: 20, jitterMs: 20, seed: 5 });
    const [a, b] = await room(r.url, 'order', 2);
    for (let f = 1; f <= 30; f++) a!.send(input(f, [f], 2));
    a!.close();
    await b!.next('left');
    expect(b!.of('input').map((m) => m.f).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const kinds = b!.messages.map((m) => m.t);
    // b's seat is named to it right after its joined (both seats taken: the room starts)
    expect(kinds.slice(0, 3)).toEqual(['joined', 'seats', 'start']);
  });

  it('enforces the most rooms', async () => {
    const { url } = await relay({ maxRooms: 1 });
    await room(url, 'one', 2 - 1);
    const c = await connect(url);
    clients.push(c);
    c.send(joinMessage('two', 'player', testConfig(1)));
    expect((await c.next('error')).reason).toBe('join: the relay holds its most rooms (1)');
    expect((await c.waitClosed()).code).toBe(1008);
  });

  it('a keyframe may pass 16 KiB and reaches a late spectator in its catchup; one over 8 MiB is refused with 1009', async () => {
    const { url } = await relay();
    const [a] = await room(url, 'big', 1, testConfig(1, { keyframeInterval: 1, checkInterval: 1 }));
    a!.send(input(1, [1], 1, [[1, '0x0000000000000001']]));
    const data = 'QUJD'.repeat(64 * 1024); // 256 KiB
    a!.send({ t: 'keyframe', f: 1, hash: '0x0000000000000001', data });
    a!.send({ t: 'ping', id: 1 });
    await a!.next('pong');
    const s = await join(url, 'big', 'spectator');
    clients.push(s);
    expect(await s.next('catchup')).toEqual({ t: 'catchup', keyframe: { f: 1, hash: '0x0000000000000001', data }, from: 2, inputs: [[]] });
    a!.sendRaw(`{"t":"keyframe","f":1,"hash":"0x0000000000000001","data":"${'A'.repeat(MAX_KEYFRAME_LENGTH)}"}`);
    expect((await a!.waitClosed()).code).toBe(1009);
  });

  it('bounds the bytes a client sends: keyframes without end are refused', async () => {
    const { url } = await relay();
    const [a] = await room(url, 'bytes', 1, testConfig(1, { keyframeInterval: 1, checkInterval: 1 }));
    a!.send(input(1, [1], 1));
    const text = `{"t":"keyframe","f":1,"hash":"0x0000000000000001","data":"${'A'.repeat(6 * 1024 * 1024)}"}`;
    for (let i = 0; i < 6; i++) a!.sendRaw(text); // 36 MiB: refused unless the relay took over 10 s to read them
    expect((await a!.next('error')).reason).toBe('rate: more than 16777216 bytes at once (2097152 a second sustained)');
  });

  it('bounds connections and spectators', async () => {
    const { url } = await relay({ maxClients: 2 + MAX_SPECTATORS });
    await room(url, 'watched', 1);
    for (let i = 0; i < MAX_SPECTATORS; i++) clients.push(await join(url, 'watched', 'spectator'));
    const ninth = await connect(url);
    clients.push(ninth);
    ninth.send(joinMessage('watched', 'spectator'));
    expect((await ninth.next('error')).reason).toBe(`join: room "watched" has its most spectators (${MAX_SPECTATORS})`);
    await ninth.waitClosed();
    const full = await connect(url);
    clients.push(full);
    const other = await connect(url);
    clients.push(other);
    expect((await other.next('error')).reason).toBe(`relay: full (${2 + MAX_SPECTATORS} connections)`);
  });

  it(`closes a connection that has not joined within its deadline (${JOIN_TIMEOUT_MS / 1000} s by default)`, async () => {
    expect(JOIN_TIMEOUT_MS).toBe(10_000);
    const { url } = await relay({ joinTimeoutMs: 300 });
    const c = await connect(url);
    clients.push(c);
    expect((await c.next('error')).reason).toBe('join: none within 0.3 s of connecting');
    expect((await c.waitClosed()).code).toBe(1008);
  });

  it('random message sequences from a player never fault the relay; the other player goes on (property)', async () => {
    const hash = fc.constantFrom('0x0000000000000000', '0x00000000000000ff', '0xZZ');
    const message = fc.oneof(
      fc.record({ t: fc.constant('input'), f: fc.integer({ min: -1, max: 80 }), b: fc.array(fc.integer({ min: 0, max: 70 }), { minLength: 0, maxLength: 40 }), ack: fc.array(fc.nat(100), { minLength: 1, maxLength: 3 }), c: fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), hash), { maxLength: 5 }), at: fc.nat(100) }),
      fc.record({ t: fc.constant('keyframe'), f: fc.integer({ min: 0, max: 100 }), hash, data: fc.constantFrom('AAAA', '', 'A') }),
      fc.record({ t: fc.constant('ping'), id: fc.integer({ min: -1, max: 5 }) }),
      fc.record({ t: fc.constant('join'), v: fc.constant(1), room: fc.constant('fuzz'), role: fc.constantFrom('player', 'spectator') }),
      fc.string({ maxLength: 20 }),
    );
    const events: RelayEvent[] = [];
    const r = await relay({ log: (e) => events.push(e) });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 40 }), async (msgs) => {
        const [a, b] = await room(r.url, `fuzz${n++}`, 2, testConfig(2, { checkInterval: 5, keyframeInterval: 10 }));
        for (const m of msgs) b!.sendRaw(typeof m === 'string' ? m : JSON.stringify(m));
        b!.send({ t: 'ping', id: 99 });
        await waitFor('the pong or the close', () => b!.closed || b!.messages.some((m) => m.t === 'pong' && m.id === 99));
        a!.send({ t: 'ping', id: 1 });
        await a!.next('pong');
        expect(a!.closed).toBeNull();
        expect(a!.malformed).toEqual([]);
        expect(b!.malformed).toEqual([]);
        a!.ws.terminate();
        b!.ws.terminate();
      }),
      { numRuns: 40 },
    );
    expect(events.filter((e) => e.event === 'internal')).toEqual([]);
  });

  it('closes a room when its last client leaves', async () => {
    const events: RelayEvent[] = [];
    const r = await relay({ log: (e) => events.push(e) });
    const [a] = await room(r.url, 'brief', 1);
    expect(r.stats().rooms).toBe(1);
    a!.close();
    await waitFor('the room to close', () => events.some((e) => e.event === 'room-close' && e.room === 'brief'));
    expect(r.stats().rooms).toBe(0);
  });
});
