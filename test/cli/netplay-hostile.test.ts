/**
 * Netplay against hostile peers, relays and sockets, as real `retrosim relay` and `retrosim netplay join`
 * processes on loopback (each test its own relay): a frozen relay (SIGSTOP) ends every client, seated or
 * waiting, with a line; a player that stops sending inputs is dropped by the relay and the others finish; a
 * player that withholds its acks holds nobody; a forged keyframe closes its sender and never reaches a late
 * spectator; a client of a patched runtime is refused at join; and whatever a hostile relay or client sends
 * reaches no terminal with its control characters. Every wait is on a process, a line or a message; the time
 * limits are generous nets.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliOf, copyRuntime, killAll, repoRoot, waitFor, type Proc } from '../batch/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-netplay-hostile-'));
const extra: Proc[] = [];
const servers: WebSocketServer[] = [];
afterAll(async () => {
  for (const p of extra) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  for (const s of servers) s.close();
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

interface RelayProc {
  proc: Proc;
  url: string;
  lines: () => Record<string, unknown>[];
}

async function relayProc(args: string[] = []): Promise<RelayProc> {
  const proc = cli(['relay', '--json', ...args]);
  const first = await waitFor("the relay's first line", () => {
    if (proc.child.exitCode !== null) throw new Error(`relay exited: ${proc.stderr()}`);
    const nl = proc.stdout().indexOf('\n');
    return nl >= 0 ? proc.stdout().slice(0, nl) : null;
  }, 60_000);
  const url = (JSON.parse(first) as { url: string }).url;
  const lines = () => proc.stdout().trim().split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { proc, url, lines };
}

const has = (r: RelayProc, what: string, f: (l: Record<string, unknown>) => boolean) => waitFor(what, () => r.lines().find(f), 120_000);

/** `node ARGS...` in the repository, collected like `cli` and killed after the file. */
function spawnNode(args: string[]): Proc {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  // 'close', not 'exit': the last output can still be in the pipes when the process has exited.
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const p = { child, stdout: () => out, stderr: () => err, exited };
  extra.push(p);
  return p;
}

const netplay = (url: string, room: string, args: string[]) => cli(['netplay', 'join', '--relay', url, '--room', room, ...args]);
/** stderr's lines without the status line a client prints every 5 s. */
const errorLines = (stderr: string) => stderr.trim().split('\n').filter((l) => l && !l.startsWith('netplay: '));
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as Record<string, any>;

async function exitOf(p: Proc, code: number): Promise<void> {
  const exit = await p.exited;
  if (exit !== code) throw new Error(`exit ${exit}, expected ${code}; stderr: ${p.stderr()}; stdout: ${p.stdout()}`);
}

/** Control characters a terminal acts on (a newline ends a line and is allowed), and the bidirectional controls. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
/** What a hostile party puts in its strings: a window title, a screen clear, a C1 CSI, NEL, an override, a separator. */
const EVIL = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u0085\u202e\u2028x\u007f';

describe.concurrent('netplay against hostile peers, relays and sockets', () => {
  it('a frozen relay: its seated players, its spectator and a player waiting for a seat each end with one line, exit 1', async () => {
    const r = await relayProc();
    const a = netplay(r.url, 'frozen', ['--timeout', '3', '--agents', '5']);
    await has(r, 'room frozen to open', (l) => l['event'] === 'room-open' && l['room'] === 'frozen');
    const b = netplay(r.url, 'frozen', ['--timeout', '3']);
    const s = netplay(r.url, 'frozen', ['--spectate', '--timeout', '3']);
    const w = netplay(r.url, 'waiting', ['--timeout', '3', '--agents', '5']);
    await has(r, 'room frozen to start', (l) => l['event'] === 'room-start' && l['room'] === 'frozen');
    await waitFor('every client seated', () => r.lines().filter((l) => l['event'] === 'joined').length === 4, 120_000);
    r.proc.child.kill('SIGSTOP');
    try {
      const t0 = Date.now();
      const codes = await Promise.race([
        Promise.all([a, b, s, w].map((p) => p.exited)),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the clients of a frozen relay still run after 120 s')), 120_000)),
      ]);
      expect(codes).toEqual([1, 1, 1, 1]);
      for (const p of [a, b, s, w]) {
        expect(errorLines(p.stderr()), p.stderr()).toHaveLength(1);
        expect(p.stderr()).toMatch(/^retrosim: netplay: (connection closed: )?the relay (at ws:\/\/127\.0\.0\.1:\d+ )?has been silent for \d+ s \(no message and no answer to pings; the silence timeout is 3 s\)$/m);
      }
      // a net, not a measure: the clients end within the timeout and a few seconds, however loaded the machine
      expect(Date.now() - t0).toBeLessThan(120_000);
    } finally {
      r.proc.child.kill('SIGCONT');
      r.proc.child.kill('SIGKILL');
    }
  }, 300_000);

  it('a player that stops sending inputs at frame 50 is dropped after --input-timeout; the other player and the referee finish on one hash', async () => {
    // 8 s: longer than a loaded machine takes between a join and the first input, so the stall is the one meant.
    const r = await relayProc(['--input-timeout', '8']);
    const a = netplay(r.url, 'stall', ['--frames', '1800', '--json', '--agents', '5']);
    await has(r, 'room stall to open', (l) => l['event'] === 'room-open' && l['room'] === 'stall');
    const staller = spawnNode(['test/netplay/doctored-client.mjs', r.url, 'stall', 'stall', '50', '1800']);
    // 1,800 frames (30 s after the stall): time for the referee's process to start however loaded the machine.
    const referee = netplay(r.url, 'stall', ['--spectate', '--frames', '1800', '--json']);
    await Promise.all([exitOf(a, 0), exitOf(referee, 0)]);
    const sa = lastJson(a.stdout());
    const sr = lastJson(referee.stdout());
    expect(sa['confirmedFrame']).toBe(1800);
    expect(sr['finalHash']).toBe(sa['finalHash']);
    expect(sa['desyncs'] + sr['desyncs']).toBe(0);
    const dropped = r.lines().find((l) => l['event'] === 'refused' && String(l['reason']).startsWith('input: no new frame'));
    expect(dropped, JSON.stringify(r.lines())).toBeDefined();
    // Logged up to frame 50, where it stopped (fewer only if the machine held it back for 8 s before that).
    const logged = /^input: no new frame for \d+(\.\d)? s while the room waits for this player \(its inputs are logged up to frame (\d+); the most is 8 s\)$/.exec(String(dropped!['reason']));
    expect(logged, String(dropped!['reason'])).not.toBeNull();
    const upTo = Number(logged![2]);
    expect(upTo).toBeLessThanOrEqual(50);
    expect(dropped!['message']).toMatch(/room "stall" player 1/);
    expect(r.lines().some((l) => l['event'] === 'left' && String(l['message']).includes(`player 1 left; idle from frame ${upTo + 1}`))).toBe(true);
    expect(await staller.exited).toBe(0);
    expect(lastJson(staller.stdout())['error']).toMatch(/relay refused: input: no new frame/);
  }, 300_000);

  for (const mode of ['acks-never', 'acks-late'] as const) {
    it(`a player that withholds its acks (${mode === 'acks-never' ? 'never acks' : 'stops acking 10 frames before the end'}): the honest player ends naming it after --timeout, the referee finishes, one hash`, async () => {
      const r = await relayProc();
      const room = `withheld-${mode}`;
      const a = netplay(r.url, room, ['--frames', '240', '--json', '--timeout', '3', '--agents', '5']);
      await has(r, `room ${room} to open`, (l) => l['event'] === 'room-open' && l['room'] === room);
      const referee = netplay(r.url, room, ['--spectate', '--frames', '240', '--json']);
      await waitFor('the referee seated', () => r.lines().filter((l) => l['event'] === 'joined').length === 2, 120_000);
      spawnNode(['test/netplay/doctored-client.mjs', r.url, room, mode, '10', '240']);
      await Promise.all([exitOf(a, 0), exitOf(referee, 0)]);
      const sa = lastJson(a.stdout());
      expect(sa['confirmedFrame']).toBe(240);
      expect(lastJson(referee.stdout())['finalHash']).toBe(sa['finalHash']);
      expect(a.stderr()).toContain("retrosim: netplay: player 2 has not acknowledged this player's inputs up to frame 240 within 3 s: ending without waiting longer");
    }, 300_000);
  }

  it('a forged keyframe (a self-consistent state that never happened): its sender is closed naming it, and a spectator joining later agrees with the honest player', async () => {
    const r = await relayProc();
    const forger = spawnNode(['test/netplay/doctored-client.mjs', r.url, 'forged', 'keyframe', '1', '600']);
    await has(r, 'room forged to open', (l) => l['event'] === 'room-open' && l['room'] === 'forged');
    // 1,800 frames (30 s): time for a late spectator's process to start however loaded the machine.
    const honest = netplay(r.url, 'forged', ['--frames', '1800', '--json']);
    const refused = await has(r, 'the forger refused', (l) => l['event'] === 'refused' && String(l['reason']).startsWith('keyframe:'));
    expect(refused['reason']).toMatch(/^keyframe: frame 60 hashes 0x[0-9a-f]{16}, but this player's own checksum of frame 60 is 0x[0-9a-f]{16}$/);
    expect(refused['message']).toMatch(/room "forged" player 0/);
    const late = netplay(r.url, 'forged', ['--spectate', '--frames', '1800', '--json']);
    await Promise.all([exitOf(honest, 0), exitOf(late, 0)]);
    const sh = lastJson(honest.stdout());
    const sl = lastJson(late.stdout());
    expect(sh['confirmedFrame']).toBe(1800);
    expect(sl['finalHash']).toBe(sh['finalHash']);
    expect(sh['desyncs'] + sl['desyncs']).toBe(0);
    expect(await forger.exited).toBe(0);
    expect(lastJson(forger.stdout())).toMatchObject({ forged: 1, error: expect.stringMatching(/relay refused: keyframe: frame 60/) });
  }, 300_000);

  it('a client of a patched runtime (same version, other built files) is refused at join with one line; the seat stays free for the same runtime', async () => {
    const r = await relayProc();
    const patched = copyRuntime(join(dir, 'patched'), (root) => appendFileSync(join(root, 'dist', 'src', 'sim', 'simulation.js'), '\n// patched\n'));
    const a = netplay(r.url, 'runtime', ['--frames', '60', '--json', '--agents', '5']);
    await has(r, 'room runtime to open', (l) => l['event'] === 'room-open' && l['room'] === 'runtime');
    const refusedLine = /^retrosim: netplay: relay refused: join\.runtime: the room runs retrosim \S+ \(files ([0-9a-f]{16})\), this client retrosim \S+ \(files (?!\1)[0-9a-f]{16}\): only the room's runtime may join it$/m;
    for (const role of [[], ['--spectate']]) {
      const other = cliOf(patched, ['netplay', 'join', '--relay', r.url, '--room', 'runtime', '--frames', '60', ...role]);
      expect(await other.exited, other.stderr()).toBe(1);
      expect(errorLines(other.stderr())).toHaveLength(1);
      expect(other.stderr()).toMatch(refusedLine);
    }
    const b = netplay(r.url, 'runtime', ['--frames', '60', '--json']);
    await Promise.all([exitOf(a, 0), exitOf(b, 0)]);
    expect(lastJson(b.stdout())['finalHash']).toBe(lastJson(a.stdout())['finalHash']);
  }, 300_000);

  it("a hostile relay's strings (room config, refusal and close reasons, a malformed message) reach the joiner's terminal escaped", async () => {
    const config = (over: Record<string, unknown>) => ({
      world: { kind: 'rugrats', name: EVIL, source: `file:${EVIL}`, contentHash: '0x0000000000000001', byteLength: 1 },
      scenario: { name: EVIL, version: EVIL, source: 'builtin:wander', contentHash: '0x0000000000000002' },
      settings: { scenario: 'wander', agents: 3, fieldSeed: 1, ccRandInit: 0, streamSeed: EVIL, capacity: 64, params: {}, players: 2 },
      keyframeInterval: 600,
      checkInterval: 10,
      inputDelay: 2,
      ...over,
    });
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    servers.push(wss);
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
    wss.on('connection', (ws: WebSocket) => {
      ws.on('error', () => {});
      ws.once('message', (data) => {
        const m = JSON.parse(String(data)) as { room: string; role: string };
        const joined = (c: unknown) => JSON.stringify({ t: 'joined', room: m.room, role: m.role, player: m.role === 'player' ? 0 : -1, players: 2, config: c });
        switch (m.room) {
          case 'reason':
            ws.send(JSON.stringify({ t: 'error', reason: `no: ${EVIL}` }));
            ws.close(1008, EVIL);
            return;
          case 'close':
            ws.close(4000, `bye ${EVIL}`);
            return;
          case 'world':
            ws.send(joined(config({})));
            return;
          case 'scenario':
            ws.send(joined(config({ world: { kind: 'rugrats', name: 'x', source: 'builtin:rugrats-demo', contentHash: '0x0000000000000001', byteLength: 1 }, scenario: { name: EVIL, version: EVIL, source: `file:${EVIL}`, contentHash: '0x0000000000000002', modules: [] } })));
            return;
          default:
            ws.send(`{"t":"joined","${EVIL}":1}`);
        }
      });
    });
    const runs: Proc[] = [];
    for (const room of ['reason', 'close', 'world', 'scenario', 'malformed']) {
      for (const args of [['--agents', '3'], ['--spectate'], ['--json', '--agents', '3']]) runs.push(netplay(url, room, ['--frames', '60', '--timeout', '5', ...args]));
    }
    const codes = await Promise.all(runs.map((p) => p.exited));
    runs.forEach((p, i) => {
      const out = p.stdout() + p.stderr();
      expect(codes[i], out).toBe(1);
      expect(CONTROL.test(out), JSON.stringify(out)).toBe(false);
      expect(errorLines(p.stderr())).toHaveLength(1);
    });
    // what the relay sent is there, escaped
    const all = runs.map((p) => p.stderr()).join('');
    expect(all).toContain('\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\x85\\u202e\\u2028x\\x7f');
    expect(all).toMatch(/relay refused: no: \\x1b\]0;owned/);
    expect(all).toMatch(/ended \(code 4000: bye \\x1b\]0;owned/);
    expect(all).toMatch(/the room plays the world file:\\x1b\]0;owned/);
    expect(all).toMatch(/the room plays scenario "\\u001b\]0;owned\\u0007\\u001b\[2J\\x9b31m/);
  }, 300_000);

  it('the relay logs what clients send (room names, message types, field names, ids) with its control characters escaped, as JSON and as text', async () => {
    const r = await relayProc();
    const text = cli(['relay']);
    const textUrl = await waitFor('the text relay to listen', () => /listening on (ws:\/\/\S+)/.exec(text.stderr())?.[1], 60_000);
    for (const url of [r.url, textUrl]) {
      const sends = [
        JSON.stringify({ t: 'join', v: 3, room: EVIL, role: 'player', runtime: { version: 'retrosim 1', kind: 'version' } }),
        JSON.stringify({ t: EVIL }),
        JSON.stringify({ t: 'ping', id: EVIL }),
        JSON.stringify({ t: 'join', v: 3, room: 'a', role: 'player', runtime: { version: 'retrosim 1', kind: 'version' }, [EVIL]: 1 }),
        JSON.stringify({ t: 'join', v: 3, room: 'a', role: 'player', runtime: { version: EVIL, kind: 'version' } }),
      ];
      for (const m of sends) {
        const ws = new WebSocket(url);
        ws.on('error', () => {});
        await new Promise<void>((resolve) => ws.once('open', () => resolve()));
        ws.send(m);
        await new Promise<void>((resolve) => ws.once('close', () => resolve()));
      }
    }
    await waitFor('five refusals logged as JSON', () => r.lines().filter((l) => l['event'] === 'refused').length >= 5, 60_000);
    await waitFor('five refusals logged as text', () => (text.stderr().match(/refused:/g) ?? []).length >= 5, 60_000);
    for (const out of [r.proc.stdout(), text.stderr()]) {
      expect(CONTROL.test(out), JSON.stringify(out)).toBe(false);
      expect(out).toContain('\\x9b31m');
    }
    for (const l of r.lines()) for (const v of Object.values(l)) if (typeof v === 'string') expect(CONTROL.test(v), v).toBe(false);
    r.proc.child.kill('SIGTERM');
    text.child.kill('SIGTERM');
    expect(await r.proc.exited).toBe(0);
    expect(await text.exited).toBe(0);
  }, 300_000);
});
