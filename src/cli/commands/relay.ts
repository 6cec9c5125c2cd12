/**
 * `retrosim relay`: the netplay relay (src/node/relay-server.ts) as a long-running command, until SIGINT or
 * SIGTERM.
 */
import { parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';

const usage = `usage: retrosim relay [options]

Serves netplay rooms over WebSocket (protocol version 1): players and spectators join a room by name; the
relay forwards the players' inputs and checksums and keeps the room's input log and latest keyframe, so a
spectator can join at any time. It never simulates. Each client is bounded (messages of 16 KiB, keyframes of
8 MiB, 240 messages in any second and 120 a second sustained, 2 MiB a second, a join within 10 s, 4 players
and 8 spectators a room, 256 connections in all); a client that breaks a rule gets {"t":"error","reason":...}
and is closed, and the room goes on. Runs until SIGINT or SIGTERM (exit 0).

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
  --json           the first line on stdout is {"url":"ws://HOST:PORT"}, then one JSON object per event
                   (rooms opened and closed, clients refused, players left); without it, text on stderr
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
      json: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const host = (o['host'] as string | undefined) ?? '127.0.0.1';
    if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host)) throw new UsageError(`--host ${JSON.stringify(host)}: expected a host name or an IP address`);
    const json = o['json'] === true;
    const { startRelay } = await import('../../node/relay-server.js');
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
        log: (e) => {
          if (json) {
            if (e.event !== 'listening') process.stdout.write(JSON.stringify({ ...e, time: new Date().toISOString() }) + '\n');
          } else process.stderr.write(`relay: ${e.message}\n`);
        },
      });
    } catch (e) {
      release();
      throw new Error(`relay: cannot listen on ${host}:${(o['port'] as number | undefined) ?? 0}: ${(e as Error).message}`);
    }
    if (json) process.stdout.write(JSON.stringify({ url: relay.url }) + '\n');
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
