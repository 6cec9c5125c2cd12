/**
 * `retrosim relay`: the netplay relay (src/node/relay-server.ts) as a long-running command, until SIGINT or
 * SIGTERM.
 */
import { parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';

const usage = `usage: retrosim relay [options]

Serves netplay rooms over WebSocket (protocol version 3): players and spectators join a room by name; the
relay forwards the players' inputs and checksums and keeps the room's input log and latest keyframe (once
every player's checksum of its frame agrees), so a spectator can join at any time. It never simulates. Only
clients of the room's runtime and scenario module graph are seated. Each client is bounded (messages of
16 KiB, keyframes of 8 MiB from players only, 240 messages in any second and 120 a second sustained, 2 MiB a
second, 4 MiB of its own unread, a WebSocket handshake within 5 s and a join within 10 s of connecting, 4
players and 8 spectators a room, 16 sockets and 4 open rooms per remote address, 256 connections in all); a
room must start within --start-timeout, a player that holds its room back without a new frame is dropped
after --input-timeout, and a connection that answers no ping for 15-30 s is dropped. A client that breaks a
rule gets {"t":"error","reason":...} and is closed, and the room goes on. The relay runs with its soft limit
of open descriptors raised to the hard one (Node does that as it starts), keeps 64 of them for itself and
sizes its connections to the rest. Runs until SIGINT or SIGTERM (exit 0).

options:
  --host HOST      address to listen on (default 127.0.0.1; 0.0.0.0 listens on every interface)
  --port N         port (default 0: a free one, shown at start)
  --max-rooms N    most rooms at once (default 64)
  --delay MS       impair: delay every message the relay sends by MS milliseconds (default 0)
  --jitter MS      impair: plus or minus up to MS milliseconds, uniform (default 0); messages may then
                   arrive out of order
  --loss P         impair: drop each input forward and pong with probability P, 0..1 (default 0); other
                   messages are delayed but never dropped
  --seed N         seed of the impairment's random streams (default 1): the same seed and the same
                   messages give the same drops and delays
  --max-per-address N  most sockets from one remote address at once, an IPv6 one by its /64 (default 16):
                   raise it for many players behind one address (a LAN behind one NAT)
  --max-rooms-per-address N  most open rooms opened from one remote address (default 4)
  --start-timeout S  seconds a room has to start (every seat taken) before it closes (default 120)
  --input-timeout S  seconds a player that holds its room back may go without a new frame before it is
                   dropped, its seat idling as when it disconnects (default 20)
  --json           the first line on stdout is {"url":"ws://HOST:PORT"}, then one JSON object per event
                   (the limits, rooms opened, started and closed, clients refused, players left, keyframes
                   not kept); without it, text on stderr. What clients sent is printed with its control
                   characters escaped
`;

export const command: Command = {
  summary: 'serve netplay rooms over WebSocket: forward inputs and checksums between players and spectators',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      host: { type: 'string' },
      port: { type: 'int', min: 0, max: 65535 },
      'max-rooms': { type: 'int', min: 1, max: 4096 },
      delay: { type: 'int', min: 0, max: 60_000 },
      jitter: { type: 'int', min: 0, max: 60_000 },
      loss: { type: 'number', min: 0, max: 1 },
      seed: { type: 'int', min: 0, max: Number.MAX_SAFE_INTEGER },
      'max-per-address': { type: 'int', min: 1, max: 65_536 },
      'max-rooms-per-address': { type: 'int', min: 1, max: 4096 },
      'start-timeout': { type: 'int', min: 1, max: 86_400 },
      'input-timeout': { type: 'int', min: 1, max: 86_400 },
      json: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const host = (o['host'] as string | undefined) ?? '127.0.0.1';
    if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host)) throw new UsageError(`--host ${JSON.stringify(host)}: expected a host name or an IP address`);
    const json = o['json'] === true;
    const { startRelay } = await import('../../node/relay-server.js');
    const { printable } = await import('../../netplay/printable.js');
    // events before the URL line (the limits) wait for it: with --json the URL is always the first line
    let ready = false;
    const early: string[] = [];
    const out = (line: string) => (ready ? process.stdout.write(line) : early.push(line));
    // The signals are ours before the relay says it listens: a SIGINT right after that line must stop it
    // cleanly (exit 0), not find Node's default handler.
    let signalled = false;
    let stop: (() => void) | undefined;
    const onSignal = () => {
      signalled = true;
      stop?.();
    };
    const release = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let relay;
    try {
      relay = await startRelay({
        host,
        port: (o['port'] as number | undefined) ?? 0,
        maxRooms: (o['max-rooms'] as number | undefined) ?? 64,
        delayMs: (o['delay'] as number | undefined) ?? 0,
        jitterMs: (o['jitter'] as number | undefined) ?? 0,
        loss: (o['loss'] as number | undefined) ?? 0,
        seed: (o['seed'] as number | undefined) ?? 1,
        ...(o['max-per-address'] !== undefined ? { maxPerAddress: o['max-per-address'] as number } : {}),
        ...(o['max-rooms-per-address'] !== undefined ? { maxRoomsPerAddress: o['max-rooms-per-address'] as number } : {}),
        ...(o['start-timeout'] !== undefined ? { startTimeoutMs: (o['start-timeout'] as number) * 1000 } : {}),
        ...(o['input-timeout'] !== undefined ? { inputTimeoutMs: (o['input-timeout'] as number) * 1000 } : {}),
        log: (e) => {
          // the relay escapes what clients sent; printed through printable once more all the same
          if (json) {
            if (e.event !== 'listening') out(JSON.stringify({ ...e, message: printable(e.message), time: new Date().toISOString() }) + '\n');
          } else process.stderr.write(`relay: ${printable(e.message)}\n`);
        },
      });
    } catch (e) {
      release();
      throw new Error(`relay: cannot listen on ${host}:${(o['port'] as number | undefined) ?? 0}: ${(e as Error).message}`);
    }
    if (json) process.stdout.write(JSON.stringify({ url: relay.url }) + '\n');
    ready = true;
    for (const line of early.splice(0)) process.stdout.write(line);
    const r = relay;
    return new Promise<number>((resolve) => {
      stop = () => {
        stop = undefined;
        release();
        void r.close().then(() => resolve(0));
      };
      if (signalled) stop();
    });
  },
};
