/**
 * `retrosim relay` as a real process against floods, on loopback from several addresses (127.0.0.2, ...):
 * it runs with its soft descriptor limit at the hard one; at a low hard limit,
 * hundreds of half-open handshakes from one address leave an honest session served; 32 connections that each
 * begin an 8 MiB message before their join leave its peak memory where it was; and 32 spectators of 4 rooms
 * that never read their catch-up (a keyframe of 7 MiB each) cost the relay its keyframes once, not once per
 * spectator. Memory is read from /proc (the relay's VmHWM and VmRSS); the bounds are generous: what they
 * tell apart is hundreds of MiB against a few.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect as tcpConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, waitFor } from '../batch/helpers.js';
import { input, join as joinRoom, joinMessage, testConfig, type TestClient } from '../netplay/relay-client.js';

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const clients: TestClient[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const c of clients) c.ws.terminate();
  await Promise.all(children.map((c) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGKILL'))))));
});

interface RelayProc {
  child: ChildProcess;
  url: string;
  port: number;
  lines: () => Record<string, unknown>[];
}

/** `retrosim relay --json` under `ulimit` (a shell sets the limit, then becomes the relay: the same process). */
async function relayUnder(ulimit: string, args: string[] = []): Promise<RelayProc> {
  const child = spawn('/bin/sh', ['-c', `ulimit ${ulimit} && exec "$0" "$@"`, process.execPath, join(repoRoot, 'bin/retrosim.js'), 'relay', '--json', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const first = await waitFor("the relay's first line", () => {
    if (child.exitCode !== null) throw new Error(`relay exited: ${err}`);
    const nl = out.indexOf('\n');
    return nl >= 0 ? out.slice(0, nl) : null;
  }, 60_000);
  const url = (JSON.parse(first) as { url: string }).url;
  return { child, url, port: Number(new URL(url).port), lines: () => out.trim().split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** A field of /proc/PID/status, in KiB (VmRSS, VmHWM). */
function status(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]);
}

function raw(port: number, localAddress: string): Promise<{ s: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect({ host: '127.0.0.1', port, localAddress });
    sockets.push(s);
    s.on('error', () => {});
    const closed = new Promise<void>((r) => s.once('close', () => r()));
    s.once('connect', () => resolve({ s, closed }));
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

/** A 2-player room from 127.0.0.1, started, with one input forwarded each way. */
async function honestSession(url: string, name: string): Promise<void> {
  const a = await joinRoom(url, name, 'player', testConfig(2));
  const b = await joinRoom(url, name, 'player');
  clients.push(a, b);
  await a.next('start');
  a.send(input(1, [1], 2));
  b.send(input(1, [2], 2));
  expect(await b.next('input')).toMatchObject({ p: 0, b: [1] });
  expect(await a.next('input')).toMatchObject({ p: 1, b: [2] });
}

describe('retrosim relay against floods, as a process', () => {
  it('runs with its soft descriptor limit raised to the hard one (Node raises it as it starts), and says so', async () => {
    const r = await relayUnder('-Sn 256');
    const limits = /^Max open files\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${r.child.pid}/limits`, 'utf8'))!;
    expect(Number(limits[1])).toBe(Number(limits[2]));
    expect(Number(limits[1])).toBeGreaterThan(256);
    const line = await waitFor('the limits line', () => r.lines().find((l) => l['event'] === 'limits'), 60_000);
    expect(line['message']).toMatch(new RegExp(`^descriptors: soft limit ${limits[1]}, hard ${limits[2]}; at most 256 connections`));
    r.child.kill('SIGTERM');
  });

  it('at a descriptor limit it cannot raise, 400 half-open handshakes from one address leave an honest session served', async () => {
    const r = await relayUnder('-n 300');
    const line = await waitFor('the limits line', () => r.lines().find((l) => l['event'] === 'limits'), 60_000);
    // 300 descriptors: 64 kept for the relay, then handshakes and connections share the rest
    expect(line['message']).toMatch(/^descriptors: soft limit 300, hard 300; at most 177 connections, 59 handshakes, 16 sockets/);
    await Promise.all(Array.from({ length: 400 }, () => raw(r.port, '127.0.0.2')));
    await honestSession(r.url, 'through-the-flood');
    const turned = r.lines().find((l) => l['event'] === 'refused' && /turned away: 16 connections from 127\.0\.0\.2 already/.test(String(l['message'])));
    expect(turned).toBeDefined();
    r.child.kill('SIGTERM');
  });

  it("32 connections that each begin an 8 MiB message before their join leave the relay's peak memory where it was", async () => {
    const r = await relayUnder('-Sn 4096');
    await honestSession(r.url, 'warm-up');
    const before = status(r.child.pid!, 'VmHWM');
    const chunk = Buffer.alloc(64 * 1024, 'A');
    const floods = ['127.0.0.2', '127.0.0.3'].flatMap((a) => Array.from({ length: 16 }, () => a));
    await Promise.all(
      floods.map(async (a) => {
        const t = await raw(r.port, a);
        t.s.write(UPGRADE(r.port));
        t.s.write(Buffer.concat([frameHeader(8 * 1024 * 1024), Buffer.from('{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"')]));
        let open = true;
        void t.closed.then(() => (open = false));
        // as fast as the relay reads, until it closes the socket or the whole message is out
        for (let sent = 0; open && sent < 8 * 1024 * 1024 - 64 * 1024; sent += chunk.length) {
          if (!t.s.write(chunk)) await Promise.race([new Promise((res) => t.s.once('drain', res)), t.closed]);
        }
        await t.closed;
      }),
    );
    const refused = r.lines().filter((l) => l['event'] === 'refused' && /^message: more than 16384 bytes before its join/.test(String(l['reason'])));
    expect(refused).toHaveLength(32);
    const grew = (status(r.child.pid!, 'VmHWM') - before) / 1024;
    expect(grew, `peak memory grew by ${grew.toFixed(1)} MiB`).toBeLessThan(64);
    r.child.kill('SIGTERM');
  }, 300_000);

  it('32 spectators that never read their catch-up: the keyframes are in memory once, not once per spectator', async () => {
    const r = await relayUnder('-Sn 4096');
    const data = 'QUJD'.repeat((7 * 1024 * 1024) / 4); // 7 MiB of base64
    const rooms = ['cat-a', 'cat-b', 'cat-c', 'cat-d']; // 8 spectators each, the most a room takes
    for (const name of rooms) {
      const p = await joinRoom(r.url, name, 'player', testConfig(1, { keyframeInterval: 10 }));
      clients.push(p);
      await p.next('start');
      p.send(input(1, new Array<number>(10).fill(1), 1, []));
      p.send(input(10, [1], 1, [[10, '0x00000000000000aa']]));
      p.send({ t: 'keyframe', f: 10, hash: '0x00000000000000aa', data });
      p.send({ t: 'ping', id: 1 });
      await p.next('pong');
    }
    const before = status(r.child.pid!, 'VmRSS');
    const watchers = ['127.0.0.2', '127.0.0.3'].flatMap((a) => Array.from({ length: 16 }, (_, i) => ({ a, room: rooms[i % 4]! })));
    await Promise.all(
      watchers.map(async ({ a, room }) => {
        const t = await raw(r.port, a);
        const j = JSON.stringify(joinMessage(room, 'spectator'));
        // the join goes with the upgrade request; nothing is ever read back
        t.s.pause();
        t.s.write(Buffer.concat([Buffer.from(UPGRADE(r.port)), frameHeader(j.length), Buffer.from(j)]));
      }),
    );
    await waitFor('every spectator seated', () => r.lines().filter((l) => l['event'] === 'joined' && /as a spectator$/.test(String(l['message']))).length === 32, 120_000);
    const grew = (status(r.child.pid!, 'VmRSS') - before) / 1024;
    // 32 catch-ups of 7 MiB are 224 MiB if each is its own copy; shared, the four keyframes are there already
    expect(grew, `resident memory grew by ${grew.toFixed(1)} MiB`).toBeLessThan(64);
    r.child.kill('SIGTERM');
  }, 300_000);
});
