/**
 * `retrosim relay` as a real process: the --json first line, rooms through it, a refusal logged as a JSON line
 * while the room goes on, impairment and the room limit from the command line, bad arguments (exit 2), and
 * SIGINT/SIGTERM closing it with exit 0.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli, killAll, runCliAsync, waitFor, type Proc } from '../batch/helpers.js';
import { connect, input, join, joinMessage, testConfig, type TestClient } from '../netplay/relay-client.js';

const clients: TestClient[] = [];
afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await killAll();
});

async function startRelay(args: string[]): Promise<{ proc: Proc; url: string; lines: () => Record<string, unknown>[] }> {
  const proc = cli(['relay', '--json', ...args]);
  const first = await waitFor('the first line', () => {
    if (proc.child.exitCode !== null) throw new Error(`relay exited: ${proc.stderr()}`);
    const nl = proc.stdout().indexOf('\n');
    return nl >= 0 ? proc.stdout().slice(0, nl) : null;
  });
  expect(first).toMatch(/^\{"url":"ws:\/\/127\.0\.0\.1:\d+"\}$/);
  const url = (JSON.parse(first) as { url: string }).url;
  const lines = () => proc.stdout().trim().split('\n').slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { proc, url, lines };
}

async function players(url: string, room: string, n: number): Promise<TestClient[]> {
  const out: TestClient[] = [];
  for (let i = 0; i < n; i++) out.push(await join(url, room, 'player', i === 0 ? testConfig(n) : undefined));
  clients.push(...out);
  for (const p of out) await p.next('start');
  return out;
}

describe('retrosim relay', () => {
  it('prints its URL first, serves a room, logs a refusal as a JSON line, and exits 0 on SIGTERM', async () => {
    const { proc, url, lines } = await startRelay([]);
    const [a, b, c] = await players(url, 'cli', 3);
    a!.send(input(1, [1, 2], 3));
    expect(await b!.next('input')).toMatchObject({ p: 0, f: 1, b: [1, 2] });
    c!.sendRaw('{"t":"input","f":1,"b":[99],"ack":[0,0,0],"c":[],"at":1}');
    expect((await c!.next('error')).reason).toBe('input.b[0]: expected an integer in 0..63, got 99');
    await b!.next('left');
    b!.send(input(1, [4], 3));
    expect(await a!.next('input')).toMatchObject({ p: 1, f: 1, b: [4] });
    const spectator = await join(url, 'cli', 'spectator');
    clients.push(spectator);
    expect((await spectator.next('catchup')).inputs).toEqual([[1, 2], [4], []]);
    const refused = await waitFor('the refusal logged', () => lines().find((l) => l.event === 'refused'));
    expect(refused).toMatchObject({ room: 'cli', reason: 'input.b[0]: expected an integer in 0..63, got 99' });
    expect(lines().find((l) => l.event === 'room-open')).toMatchObject({ room: 'cli' });
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    await a!.waitClosed();
  });

  it('exits 0 on SIGINT', async () => {
    const { proc } = await startRelay(['--port', '0']);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  });

  it('--loss 1 drops input forwards while control messages arrive; --max-rooms is enforced', async () => {
    const { proc, url } = await startRelay(['--loss', '1', '--seed', '4', '--max-rooms', '1']);
    const [a, b] = await players(url, 'lossy', 2);
    a!.send(input(1, [1, 2], 2));
    a!.send(input(2, [3], 2));
    await b!.next('changed');
    const other = await connect(url);
    clients.push(other);
    other.send(joinMessage('other', 'player', testConfig(1)));
    expect((await other.next('error')).reason).toBe('join: the relay holds its most rooms (1)');
    a!.close();
    await b!.next('left');
    expect(b!.of('input')).toEqual([]);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('refuses bad arguments with exit 2 and a clear line', async () => {
    const cases: [string[], RegExp][] = [
      [['--loss', '1.5'], /--loss must be at most 1, got 1\.5/],
      [['--port', '70000'], /--port must be at most 65535/],
      [['--delay', 'soon'], /--delay must be an integer, got "soon"/],
      [['--rooms', '3'], /unknown option --rooms/],
      [['extra'], /unexpected argument "extra"/],
      [['--host', 'a host'], /--host "a host": expected a host name or an IP address/],
    ];
    for (const [args, message] of cases) {
      const r = await runCliAsync(['relay', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a port in use is a one-line error (exit 1), with --json a JSON error line', async () => {
    const { proc, url } = await startRelay([]);
    const port = new URL(url).port;
    const r = await runCliAsync(['relay', '--port', port, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^retrosim: relay: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { kind: 'input' } });
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });
});
