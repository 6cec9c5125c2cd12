/**
 * The relay's limits against hostile sockets, in process with real `ws` clients and raw TCP sockets from
 * several loopback addresses (127.0.0.2, 127.0.0.3, ...: the whole of 127/8 is loopback): one address cannot
 * fill the relay with idle sockets, rooms or half-open handshakes while an honest session from another is
 * served; a room that does not start closes; a connection's message is stopped while it is still short when
 * its role does not allow it; a keyframe is kept only when every player's checksum of its frame agrees (its
 * sender is closed when its own does not); a join of another runtime or scenario module graph is refused. The
 * time limits are small options here; the defaults are read, and checked against docs/netplay.md.
 */
import { readFileSync } from 'node:fs';
import { connect as tcpConnect, type Socket } from 'node:net';
import { join as pathJoin } from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type Relay, type RelayEvent, type RelayOptions } from '../../src/node/relay-server.js';
import {
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_INPUT_TIMEOUT_MS,
  DEFAULT_MAX_CLIENTS,
  DEFAULT_MAX_PER_ADDRESS,
  DEFAULT_MAX_ROOMS,
  DEFAULT_MAX_ROOMS_PER_ADDRESS,
  DEFAULT_MAX_UNREAD_BYTES,
  DEFAULT_START_TIMEOUT_MS,
  DESCRIPTOR_RESERVE,
  HEARTBEAT_MS,
  MAX_HANDSHAKES,
} from '../../src/node/relay-limits.js';
import { addressKey } from '../../src/node/relay-admission.js';
import { DEFAULT_SILENCE_TIMEOUT_MS } from '../../src/netplay/heartbeat.js';
import { JOIN_TIMEOUT_MS, MAX_MESSAGE_LENGTH, type NetplayConfig, type RuntimeIdentity } from '../../src/netplay/protocol.js';
import { repoRoot, waitFor } from '../batch/helpers.js';
import { connect, input, join, joinMessage, testConfig, TEST_RUNTIME, type TestClient } from '../netplay/relay-client.js';

const relays: Relay[] = [];
const clients: TestClient[] = [];
const sockets: (Socket | WebSocket)[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const s of sockets.splice(0)) (s instanceof WebSocket ? s.terminate() : s.destroy());
  for (const r of relays.splice(0)) await r.close();
});

async function relay(o: RelayOptions = {}): Promise<{ r: Relay; events: RelayEvent[]; port: number }> {
  const events: RelayEvent[] = [];
  const r = await startRelay({ ...o, log: (e) => events.push(e) });
  relays.push(r);
  return { r, events, port: Number(new URL(r.url).port) };
}

/** A 2-player room from 127.0.0.1, started, with one input forwarded each way: an honest session is served. */
async function honestSession(url: string, name: string): Promise<void> {
  const a = await join(url, name, 'player', testConfig(2));
  const b = await join(url, name, 'player');
  clients.push(a, b);
  await a.next('start');
  await b.next('start');
  a.send(input(1, [1], 2));
  b.send(input(1, [2], 2));
  expect(await b.next('input')).toMatchObject({ p: 0, b: [1] });
  expect(await a.next('input')).toMatchObject({ p: 1, b: [2] });
}

/** Opens a WebSocket from `localAddress`: 'open', or the HTTP status it was answered with, or 'closed'. */
function tryOpen(url: string, localAddress: string): Promise<{ ws: WebSocket; result: 'open' | 'closed' | { status: number; message: string } }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { localAddress });
    sockets.push(ws);
    ws.on('error', () => {});
    ws.once('open', () => resolve({ ws, result: 'open' }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ ws, result: { status: res.statusCode ?? 0, message: res.statusMessage ?? '' } });
      ws.terminate();
    });
    ws.once('close', () => resolve({ ws, result: 'closed' }));
  });
}

/** A raw TCP socket from `localAddress` to the relay, with everything it receives. */
function raw(port: number, localAddress: string): Promise<{ s: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect({ host: '127.0.0.1', port, localAddress });
    sockets.push(s);
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (got += d));
    s.on('error', () => {});
    const closed = new Promise<void>((r) => s.once('close', () => r()));
    s.once('connect', () => resolve({ s, received: () => got, closed }));
    s.once('error', reject);
  });
}

const UPGRADE = (port: number) => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;

/** A client-to-server text frame's header for `length` bytes, masked with the key 0 (the payload goes as it is). */
function frameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, 0x80 | length, 0, 0, 0, 0]);
  if (length < 65536) return Buffer.from([0x81, 0x80 | 126, length >> 8, length & 255, 0, 0, 0, 0]);
  const h = Buffer.alloc(14);
  h[0] = 0x81;
  h[1] = 0x80 | 127;
  h.writeBigUInt64BE(BigInt(length), 2);
  return h;
}

/**
 * Streams one text message of `length` bytes starting with `prefix` ('A's after it) as fast as the relay
 * reads it; resolves with the bytes written when the relay closed the socket or the message was all sent.
 */
function stream(s: Socket, prefix: string, length: number, closed: Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    void closed.then(() => {
      done = true;
      resolve(written);
    });
    const chunk = Buffer.alloc(64 * 1024, 'A');
    const first = Buffer.concat([frameHeader(length), Buffer.from(prefix)]);
    const more = () => {
      while (!done && written < length) {
        const n = Math.min(chunk.length, length - written);
        const ok = s.write(n === chunk.length ? chunk : chunk.subarray(0, n));
        written += n;
        if (!ok) return void s.once('drain', more);
      }
      if (!done && written >= length) resolve(written);
    };
    s.write(first);
    written = prefix.length;
    more();
  });
}

describe('the relay against hostile sockets', () => {
  it('one address cannot fill the relay with idle sockets: past its share it is answered 429; an honest session from another address is served', async () => {
    const { r, url } = await relay().then((x) => ({ ...x, url: x.r.url }));
    const attempts = await Promise.all(Array.from({ length: DEFAULT_MAX_CLIENTS + 44 }, () => tryOpen(url, '127.0.0.2')));
    const open = attempts.filter((a) => a.result === 'open');
    const refused = attempts.filter((a) => typeof a.result === 'object');
    expect(open).toHaveLength(DEFAULT_MAX_PER_ADDRESS);
    expect(refused.length).toBe(attempts.length - DEFAULT_MAX_PER_ADDRESS);
    expect(refused[0]!.result).toEqual({ status: 429, message: `retrosim relay: ${DEFAULT_MAX_PER_ADDRESS} connections from 127.0.0.2 already (the most from one address)` });
    // three more addresses hold their shares too
    for (const a of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) await Promise.all(Array.from({ length: DEFAULT_MAX_PER_ADDRESS }, () => tryOpen(url, a)));
    expect(r.stats().clients).toBe(4 * DEFAULT_MAX_PER_ADDRESS);
    await honestSession(url, 'honest');
  });

  it('a socket that never completes its WebSocket handshake is closed after the handshake deadline; a partial request too', async () => {
    const { r, events, port } = await relay({ handshakeTimeoutMs: 300 });
    const silent = await raw(port, '127.0.0.2');
    const partial = await raw(port, '127.0.0.2');
    partial.s.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await Promise.all([silent.closed, partial.closed]);
    expect(silent.received()).toBe('');
    expect(events.some((e) => e.event === 'refused' && /a socket from 127\.0\.0\.2 closed: no WebSocket handshake within 0\.3 s of connecting/.test(e.message))).toBe(true);
    await waitFor('both sockets gone', () => r.stats().sockets === 0, 60_000);
    await honestSession(r.url, 'after');
  });

  it('half-open handshakes: one address holds its share of sockets, the rest are answered 429 at once; the relay still serves', async () => {
    // The handshake deadline is long here so that no held socket is closed for it on a loaded machine; the test
    // waits on what the sockets themselves received, since the relay counts an answer when it writes it.
    const { r, port } = await relay({ handshakeTimeoutMs: 120_000 });
    const held = await Promise.all(Array.from({ length: DEFAULT_MAX_PER_ADDRESS + 24 }, () => raw(port, '127.0.0.3')));
    const answeredNow = () => held.filter((h) => h.received().startsWith('HTTP/1.1 429 '));
    await waitFor('every extra socket answered', () => r.stats().turnedAway >= 24 && answeredNow().length >= 24, 60_000);
    const answered = answeredNow();
    expect(answered.length).toBe(24);
    expect(r.stats().turnedAway).toBe(24);
    expect(answered[0]!.received()).toMatch(/^HTTP\/1\.1 429 retrosim relay: 16 connections from 127\.0\.0\.3 already \(the most from one address\)\r\n/);
    expect(r.stats().sockets).toBe(DEFAULT_MAX_PER_ADDRESS);
    await honestSession(r.url, 'served');
  });

  it('rooms per address: one address opens a few rooms and no more; another opens its own', async () => {
    const { r } = await relay({ maxPerAddress: 200 });
    const outcomes: string[] = [];
    for (let i = 0; i < DEFAULT_MAX_ROOMS + 6; i++) {
      const c = await connect(r.url, '127.0.0.2');
      clients.push(c);
      c.send(joinMessage(`idle-${i}`, 'player', testConfig(2)));
      const m = await waitFor('joined or refused', () => c.messages.find((x) => x.t === 'joined' || x.t === 'error'), 60_000);
      outcomes.push(m.t === 'error' ? m.reason : 'joined');
    }
    expect(outcomes.filter((o) => o === 'joined')).toHaveLength(DEFAULT_MAX_ROOMS_PER_ADDRESS);
    expect(outcomes[DEFAULT_MAX_ROOMS_PER_ADDRESS]).toBe(`join: ${DEFAULT_MAX_ROOMS_PER_ADDRESS} rooms opened from this address are open (the most per address); join one of them, or wait until one closes`);
    expect(r.stats().rooms).toBe(DEFAULT_MAX_ROOMS_PER_ADDRESS);
    await honestSession(r.url, 'honest-room');
  });

  it('a room that does not start within its deadline closes, each member told why; its address may open another', async () => {
    const { r, events } = await relay({ startTimeoutMs: 400 });
    const a = await join(r.url, 'lonely', 'player', testConfig(3));
    const b = await join(r.url, 'lonely', 'player');
    const s = await join(r.url, 'lonely', 'spectator');
    clients.push(a, b, s);
    for (const c of [a, b, s]) expect((await c.next('error')).reason).toBe('join: room "lonely" did not start within 0.4 s of opening (2 of 3 seats taken)');
    await waitFor('the room closed', () => events.some((e) => e.event === 'room-close' && e.room === 'lonely'), 60_000);
    expect(r.stats().rooms).toBe(0);
    await honestSession(r.url, 'next');
  });

  it('before its join a connection may send a short message only: an 8 MiB keyframe-shaped one is stopped while still short; a spectator the same', async () => {
    // a long handshake deadline: on a loaded machine the 8 MiB must be refused for its size, not for the time
    const { r, events, port } = await relay({ handshakeTimeoutMs: 120_000 });
    // what the relay had read when it refused: the refusal says (the sender's own buffers may hold more)
    const arrived = (who: string) =>
      events.filter((e) => e.event === 'refused' && e.reason?.startsWith(`message: more than 16384 bytes ${who}`)).map((e) => Number(/\((\d+) arrived of a message not yet whole\)$/.exec(e.reason!)![1]));
    for (const a of ['127.0.0.2', '127.0.0.3']) {
      const t = await raw(port, a);
      t.s.write(UPGRADE(port));
      await waitFor('the upgrade', () => t.received().includes('101 Switching Protocols'), 60_000);
      await stream(t.s, '{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"', 8 * 1024 * 1024, t.closed);
    }
    expect(arrived('before its join')).toHaveLength(2);
    for (const n of arrived('before its join')) expect(n).toBeLessThan(256 * 1024);
    // a spectator: its messages are as short (only players send keyframes and states)
    const [p] = [await join(r.url, 'watched', 'player', testConfig(1))];
    clients.push(p!);
    const t = await raw(port, '127.0.0.4');
    const j = JSON.stringify(joinMessage('watched', 'spectator'));
    t.s.write(Buffer.concat([Buffer.from(UPGRADE(port)), frameHeader(j.length), Buffer.from(j)]));
    await waitFor('the spectator seated', () => t.received().includes('"t":"joined"'), 60_000);
    await stream(t.s, '{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"', 8 * 1024 * 1024, t.closed);
    expect(arrived('from a spectator')).toHaveLength(1);
    expect(arrived('from a spectator')[0]).toBeLessThan(256 * 1024);
    expect(r.stats().clients).toBe(1);
  });

  it('a keyframe is kept only when every connected player\'s checksum of its frame agrees: a forged one closes its sender, a disputed one is not kept', async () => {
    const { r, events } = await relay();
    const config = testConfig(2, { keyframeInterval: 20 });
    const play = async (name: string) => {
      const [a, b] = [await join(r.url, name, 'player', config), await join(r.url, name, 'player')];
      clients.push(a, b);
      await a.next('start');
      for (const f of [1, 11]) {
        a.send(input(f, new Array<number>(10).fill(1), 2));
        b.send(input(f, new Array<number>(10).fill(2), 2));
      }
      await a.next('input', (m) => m.f === 11);
      await b.next('input', (m) => m.f === 11);
      return [a, b] as const;
    };
    const H = '0x1111111111111111';
    const F = '0xf0f0f0f0f0f0f0f0';
    const kf = (hash: string) => ({ t: 'keyframe' as const, f: 20, hash, data: 'AAAA' });
    const catchup = async (name: string) => {
      const s = await join(r.url, name, 'spectator');
      clients.push(s);
      return (await s.next('catchup')).keyframe;
    };

    // forged: the sender's own checksum of frame 20 is H, its keyframe hashes F
    const [a1, b1] = await play('forged');
    a1.send(input(20, [1], 2, [[20, H]]));
    b1.send(input(20, [2], 2, [[20, H]]));
    a1.send(kf(F));
    expect((await a1.next('error')).reason).toBe(`keyframe: frame 20 hashes ${F}, but this player's own checksum of frame 20 is ${H}`);
    expect(await b1.next('left')).toMatchObject({ p: 0 });
    expect(await catchup('forged')).toBeNull();

    // disputed: the sender's checksum agrees with its keyframe, the other player's does not
    const [a2, b2] = await play('disputed');
    a2.send(input(20, [1], 2, [[20, F]]));
    a2.send(kf(F));
    a2.send({ t: 'ping', id: 1 });
    await a2.next('pong');
    expect(await catchup('disputed')).toBeNull(); // waiting for player 1's checksum
    b2.send(input(20, [2], 2, [[20, H]]));
    await waitFor('the keyframe refused', () => events.find((e) => e.event === 'keyframe-refused' && e.room === 'disputed'), 60_000);
    expect(events.find((e) => e.event === 'keyframe-refused')!.message).toBe(`room "disputed": the keyframe of frame 20 from player 0 (hash ${F}) is not kept: player 1's checksum of that frame is ${H}`);
    expect(await catchup('disputed')).toBeNull();
    expect(a2.closed).toBeNull();
    expect(b2.closed).toBeNull();

    // agreed: kept once the last checksum arrives
    const [a3, b3] = await play('agreed');
    a3.send(input(20, [1], 2, [[20, H]]));
    a3.send(kf(H));
    b3.send(input(20, [2], 2, [[20, H]]));
    b3.send({ t: 'ping', id: 2 });
    await b3.next('pong');
    expect(await catchup('agreed')).toEqual({ f: 20, hash: H, data: 'AAAA' });
  });

  it('a join of another runtime, or of another scenario module graph, is refused at join; a browser build and a Node runtime of one version meet', async () => {
    const { r } = await relay();
    const files = (h: string): RuntimeIdentity => ({ version: 'retrosim 9.9.9', kind: 'files', hash: h.repeat(64) });
    const refusal = async (room: string, role: 'player' | 'spectator', over: Parameters<typeof joinMessage>[3], config?: NetplayConfig) => {
      const c = await connect(r.url);
      clients.push(c);
      c.send(joinMessage(room, role, config, over));
      const m = await waitFor('joined or refused', () => c.messages.find((x) => x.t === 'joined' || x.t === 'error'), 60_000);
      return m.t === 'error' ? m.reason : 'joined';
    };
    expect(await refusal('code', 'player', { runtime: files('a') }, testConfig(4))).toBe('joined');
    expect(await refusal('code', 'player', { runtime: files('b') })).toBe(`join.runtime: the room runs retrosim 9.9.9 (files ${'a'.repeat(16)}), this client retrosim 9.9.9 (files ${'b'.repeat(16)}): only the room's runtime may join it`);
    expect(await refusal('code', 'spectator', { runtime: { version: 'retrosim 9.9.8', kind: 'version' } })).toBe(`join.runtime: the room runs retrosim 9.9.9 (files ${'a'.repeat(16)}), this client retrosim 9.9.8 (no hash named): only the room's runtime may join it`);
    expect(await refusal('code', 'player', { runtime: { version: 'retrosim 9.9.9', kind: 'build', hash: 'c'.repeat(64) } })).toBe('joined');
    expect(await refusal('code', 'player', { runtime: files('a') })).toBe('joined');
    expect(await refusal('code', 'spectator', { runtime: files('a'), scenario: '0x0000000000000002' })).toBe('join.scenario: the room plays the built-in scenario "wander"; this client brings a module (graph 0x0000000000000002)');

    const moduleRoom = testConfig(2, { scenario: { name: 'tag', version: '1.0.0', source: 'file:tag.mjs', contentHash: '0x00000000000000aa', modules: [{ path: 'tag.mjs', hash: 'f'.repeat(64) }], packages: [] } });
    expect(await refusal('tag', 'player', { scenario: '0x00000000000000bb' }, moduleRoom)).toBe("join.scenario: this client's module graph 0x00000000000000bb is not the one its config names (0x00000000000000aa)");
    expect(await refusal('tag', 'player', { scenario: '0x00000000000000aa' }, moduleRoom)).toBe('joined');
    expect(await refusal('tag', 'spectator', {})).toBe('join.scenario: the room plays scenario "tag" 1.0.0 from the module tag.mjs (module graph 0x00000000000000aa); this client brings none: give that module with --scenario FILE');
    expect(await refusal('tag', 'player', { scenario: '0x00000000000000bb' })).toBe("join.scenario: the room plays scenario \"tag\" 1.0.0 from the module tag.mjs with module graph 0x00000000000000aa; this client's module graph is 0x00000000000000bb");
    expect(await refusal('tag', 'player', { scenario: '0x00000000000000aa' })).toBe('joined');
    expect(TEST_RUNTIME.kind).toBe('version');
  });

  it('addresses count by IPv4 address, and IPv6 by /64 prefix (property)', () => {
    expect(addressKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8::1')).toBe(addressKey('2001:db8:0:0:ffff:ffff:ffff:2'));
    expect(addressKey('2001:db8:0:1::1')).not.toBe(addressKey('2001:db8::1'));
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (g, tail) => {
        const full = g.join(':');
        expect(addressKey(full)).toBe(addressKey([...g.slice(0, 4), ...tail].join(':')));
        expect(addressKey(full)).toBe(`${g.slice(0, 4).map((x) => parseInt(x, 16).toString(16)).join(':')}::/64`);
      }),
      { numRuns: 200 },
    );
  });

  it('the default limits are the numbers docs/netplay.md states', () => {
    const doc = readFileSync(pathJoin(repoRoot, 'docs', 'netplay.md'), 'utf8');
    const row = (name: string) => doc.split('\n').find((l) => l.startsWith(`| ${name} |`)) ?? `(no row "${name}")`;
    expect(row('connections per remote address')).toContain(`| ${DEFAULT_MAX_PER_ADDRESS} `);
    expect(row('rooms per remote address')).toContain(`| ${DEFAULT_MAX_ROOMS_PER_ADDRESS} `);
    expect(row('rooms, connections')).toContain(`| ${DEFAULT_MAX_ROOMS} (\`--max-rooms\`), ${DEFAULT_MAX_CLIENTS}`);
    expect(row('handshake deadline')).toContain(`| ${DEFAULT_HANDSHAKE_TIMEOUT_MS / 1000} s`);
    expect(row('handshakes at once')).toContain(`| ${MAX_HANDSHAKES} `);
    expect(row('join deadline')).toContain(`| ${JOIN_TIMEOUT_MS / 1000} s`);
    expect(row('room start deadline')).toContain(`| ${DEFAULT_START_TIMEOUT_MS / 1000} s`);
    expect(row('stalled player')).toContain(`| ${DEFAULT_INPUT_TIMEOUT_MS / 1000} s`);
    expect(row('silence timeout (clients)')).toContain(`| ${DEFAULT_SILENCE_TIMEOUT_MS / 1000} s`);
    expect(row('heartbeat (relay)')).toContain(`| ${HEARTBEAT_MS / 1000} s`);
    expect(row('send-buffer cap')).toContain(`| ${DEFAULT_MAX_UNREAD_BYTES / 1024 / 1024} MiB`);
    expect(row('message before join, or from a spectator')).toContain(`| ${MAX_MESSAGE_LENGTH / 1024} KiB`);
    expect(row('descriptors')).toContain(`${DESCRIPTOR_RESERVE} kept`);
  });
});
