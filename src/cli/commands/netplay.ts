/**
 * `retrosim netplay join`: a Node netplay client (src/node/netplay-client.ts) — a player driven by a seeded
 * bot, or a spectator that re-simulates every confirmed frame and checks every checksum (a referee).
 */
import { dirname } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { print, printJson, readInputFile } from '../io.js';
import { DEFAULT_KEYFRAME_INTERVAL } from '../../replay/format.js';
import { DEFAULT_WORLD } from '../../worlds/builtin.js';
import { createSimulation } from '../../scenarios/builtin.js';
import { scenarioIdentity } from '../../scenarios/identity.js';
import { BUILTIN_SCENARIOS } from '../../scenarios/builtin.js';
import { loadScenarioFile } from '../../node/scenario-file.js';
import { parseSets } from '../scenario-sets.js';
import { encodeValueBytes } from '../../ecs/value-codec.js';
import { checkName, MAX_PLAYERS, ROOM_PATTERN, type NetplayConfig } from '../../netplay/protocol.js';
import { seatsLine, seatWords } from '../../netplay/seat-words.js';
import { BOT_POLICIES, makeBot, type BotPolicy } from '../../netplay/bots.js';
import type { DesyncReport } from '../../netplay/session.js';
import { printable } from '../../netplay/printable.js';
import { DEFAULT_SILENCE_TIMEOUT_MS } from '../../netplay/heartbeat.js';
import { MAX_AGENTS } from '../../sim/scenario.js';

const usage = `usage: retrosim netplay join --relay URL --room NAME [options]

Joins a netplay room on a relay (see retrosim relay) as a player driven by a bot, or with --spectate as a
referee that re-simulates every confirmed frame and checks every checksum the players send. Ticks 60 times a
second. The first player of a room creates it with the options below; later clients adopt the room's config
and must be able to build it (a built-in world, or --world FILE with the same bytes).

options:
  --relay URL       the relay, ws://HOST:PORT (required)
  --room NAME       the room: 1-64 of A-Z a-z 0-9 _ . - (required)
  --bot POLICY      the player's hands: wander (a seeded walk: holds a heading for 10-90 frames, turns,
                    sometimes backs up or stops) or idle (default wander)
  --seed N          the bot's seed (default 1); the bot of seat P plays from (N, P)
  --spectate        join as a spectator (a referee) instead of a player; it may join at any time
  --frames N        stop on confirmed frame N (every client given the same N ends on the same frame; a
                    player stays until its peers have its inputs up to N); default: run until interrupted
  --out FILE        write the session replay there (players, and a spectator that saw frame 0); on a desync,
                    FILE.desync.json (the report: the hash sections and values that differ from each peer
                    whose state arrived), FILE.desync.snapshot (our state at that frame, the value-codec
                    bytes of a replay keyframe), FILE.desync.player-K.snapshot (player K's state), and FILE
                    holds our confirmed frames; after a desync the client waits for the peers' states until
                    they arrive, or at least 180 ticks and 10 s
  --json            print one JSON line at the end: {frames, confirmedFrame, finalHash, rollbacks,
                    maxRollback, desyncs, player, waits, pingMs} (player: the seat counted from 0, -1 for
                    a spectator; the text output counts seats from 1, as the sandbox does)
  --name TEXT       this player's name, shown to the others beside its seat (up to 32 characters, no
                    control or bidirectional characters)
  --timeout S       seconds the relay may stay silent (no message, no answer to pings) before this client
                    ends, exit 1, within S + 3 s; also the longest a player that reached --frames waits for
                    its peers to acknowledge its inputs (then it ends, naming them, exit 0); 1-3600
                    (default ${DEFAULT_SILENCE_TIMEOUT_MS / 1000}). It must exceed any delay the relay adds
  --scenario FILE   a scenario module of your own (as retrosim run --scenario): the creator's room plays it,
                    with its module graph in the room's config; every joiner and spectator of such a room
                    gives its own copy with --scenario, compared with the room's graph before anything of
                    it runs (a seat with another module is refused at join, naming what changed). The
                    scenario must allow the room's seats: its \`players\` is the most it takes (default 1)

when this client creates the room (the first player):
  --world W         a built-in world (piney-default, rugrats-demo, llama-demo, gta-town, ...: see
                    docs/worlds.md) or a world file, as retrosim run --world
                    (default piney-default); a joiner given --world checks it against the room's
  --players N       seats in the room, 1..${MAX_PLAYERS} (default 2); the session starts when all are taken
  --agents N        wandering agents (default: the scenario's)
  --set KEY=VALUE   a parameter of the --scenario module (repeatable), as retrosim run --set
  --input-delay F   frames of input delay, 0..30 (default 2)

Progress goes to stderr every 5 s (without --json). Exit 0 when --frames was reached with no desync (or on
SIGINT without --frames), 1 on a desync (the report on stderr: frame, player(s), cause), when the relay
refuses, the connection ends or the relay falls silent (--timeout), 2 on bad arguments. The relay seats a
client only in a room of the same runtime (version and built files) and scenario module graph. Whatever
the relay or the room's config says is printed with its control characters escaped.
`;

export const command: Command = {
  summary: 'join a netplay room as a bot player or a checking spectator (retrosim netplay join)',
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== 'join') throw new UsageError(sub === undefined ? 'expected a subcommand: join' : `unknown subcommand ${JSON.stringify(sub)} (expected join)`);
    const { positionals, options: o } = parseArgs(rest, {
      relay: { type: 'string' },
      room: { type: 'string' },
      bot: { type: 'string' },
      seed: { type: 'int', min: 0, max: 0xffffffff },
      spectate: { type: 'flag' },
      frames: { type: 'int', min: 1, max: 1 << 30 },
      out: { type: 'string' },
      json: { type: 'flag' },
      name: { type: 'string' },
      world: { type: 'string' },
      scenario: { type: 'string' },
      set: { type: 'list' },
      players: { type: 'int', min: 1, max: MAX_PLAYERS },
      agents: { type: 'int', min: 0, max: MAX_AGENTS },
      'input-delay': { type: 'int', min: 0, max: 30 },
      timeout: { type: 'int', min: 1, max: 3600 },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const url = o['relay'] as string | undefined;
    const room = o['room'] as string | undefined;
    if (url === undefined) throw new UsageError('netplay join needs --relay URL');
    if (!/^wss?:\/\/[^\s/]+(\/\S*)?$/.test(url)) throw new UsageError(`--relay ${JSON.stringify(url)}: expected ws://HOST:PORT`);
    if (room === undefined) throw new UsageError('netplay join needs --room NAME');
    if (!ROOM_PATTERN.test(room)) throw new UsageError(`--room ${JSON.stringify(room)}: expected 1-64 of A-Z a-z 0-9 _ . -`);
    const botName = (o['bot'] as string | undefined) ?? 'wander';
    if (!BOT_POLICIES.includes(botName as BotPolicy)) throw new UsageError(`--bot ${JSON.stringify(botName)}: expected ${BOT_POLICIES.join(' or ')}`);
    const spectate = o['spectate'] === true;
    if (spectate && o['bot'] !== undefined) throw new UsageError('--bot is for players, not with --spectate');
    const name = o['name'] as string | undefined;
    if (name !== undefined) {
      try {
        checkName(name, '--name');
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    }
    const out = o['out'] as string | undefined;
    if (out !== undefined) {
      const dir = dirname(out);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out ${out}: the folder ${dir} does not exist`);
    }
    const json = o['json'] === true;
    const frames = o['frames'] as number | undefined;
    const seed = (o['seed'] as number | undefined) ?? 1;
    const worldArg = o['world'] as string | undefined;
    const scenarioArg = o['scenario'] as string | undefined;
    const timeoutMs = ((o['timeout'] as number | undefined) ?? DEFAULT_SILENCE_TIMEOUT_MS / 1000) * 1000;
    if (scenarioArg !== undefined && BUILTIN_SCENARIOS.has(scenarioArg)) throw new UsageError(`--scenario ${scenarioArg}: a built-in scenario is the room's default for its world; --scenario is for a module file`);

    const { RoomBuilder, runNetplayClient } = await import('../../node/netplay-client.js');
    const { openBuiltinWorld, openNamedWorld } = await import('../../node/open-world.js');
    const { connectWsTransport } = await import('../../node/ws-transport.js');
    const { replaceFile } = await import('../../node/replace-file.js');
    const { nodeRuntimeIdentity } = await import('../../node/runtime-hash.js');
    const runtime = nodeRuntimeIdentity();

    // A player opens its world first: the config it offers if it creates the room.
    let config: NetplayConfig | undefined;
    const read = (p: string) => readInputFile(p);
    let builder: InstanceType<typeof RoomBuilder>;
    // The module graph this client brings: the relay seats it only in a room that plays that graph.
    let scenarioGraph: string | undefined;
    if (!spectate) {
      const opened = worldArg !== undefined ? await openNamedWorld(worldArg, read) : await openBuiltinWorld(DEFAULT_WORLD, read);
      const players = (o['players'] as number | undefined) ?? 2;
      const agents = o['agents'] as number | undefined;
      const loaded = scenarioArg !== undefined ? await loadScenarioFile(scenarioArg) : undefined;
      const scenario = loaded?.scenario;
      scenarioGraph = loaded?.identity.contentHash;
      const params = scenario ? parseSets(scenario, (o['set'] as string[] | undefined) ?? []) : {};
      if (!scenario && o['set'] !== undefined) throw new UsageError('--set is for a scenario module (--scenario FILE)');
      const sim = createSimulation(opened.world, { players, ...(scenario ? { scenario, params } : {}), ...(agents !== undefined ? { agents } : {}) });
      config = {
        world: opened.identity,
        scenario: scenarioIdentity(sim.scenario),
        settings: { ...sim.settings, players },
        keyframeInterval: DEFAULT_KEYFRAME_INTERVAL,
        checkInterval: 10,
        inputDelay: (o['input-delay'] as number | undefined) ?? 2,
      };
      builder = new RoomBuilder(worldArg, read, scenarioArg);
    } else {
      // a spectator imports nothing of its module before the room's graph is compared with it: hashed only
      if (scenarioArg !== undefined) {
        const { moduleGraph } = await import('../../node/module-graph.js');
        try {
          scenarioGraph = moduleGraph(scenarioArg).contentHash;
        } catch (e) {
          throw new Error(`--scenario ${scenarioArg}: ${(e as Error).message}`);
        }
      }
      builder = new RoomBuilder(worldArg, read, scenarioArg);
    }

    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const who = spectate ? 'spectator' : 'player';
    let result;
    try {
      result = await runNetplayClient({
        transport: connectWsTransport(url, { silenceMs: timeoutMs }),
        runtime,
        ...(scenarioGraph !== undefined ? { scenarioGraph } : {}),
        timeoutMs,
        room,
        role: spectate ? 'spectator' : 'player',
        ...(config ? { config } : {}),
        builder,
        bot: (player) => makeBot(botName as BotPolicy, seed, player),
        ...(frames !== undefined ? { lastFrame: frames } : {}),
        ...(o['input-delay'] !== undefined && !spectate ? { inputDelay: o['input-delay'] as number } : {}),
        ...(name !== undefined ? { name } : {}),
        signal: abort.signal,
        progressMs: 5000,
        progress: (s) => {
          if (!json) process.stderr.write(`netplay: ${s.state} ${s.player >= 0 ? `${seatWords(s.player, s.names)} of ${s.players}` : who} frame ${s.frame} confirmed ${s.confirmedFrame} rollbacks ${s.rollbacks} waits ${s.waits} ping ${Math.round(s.pingMs)} ms\n`);
        },
        // who is who, as the page says it: seats counted from 1, with the players' names
        onSession: (session) => {
          if (json) return;
          const say = (line: string) => process.stderr.write(`netplay: ${line}\n`);
          session.on('seats', ({ names }) => say(`seats: ${seatsLine(names, session.stats.player)}`));
          session.on('left', ({ player, from }) => say(`${seatWords(player, session.stats.names)} left; its seat idles from frame ${from}`));
          session.on('away', ({ player, hidden }) => say(`${seatWords(player, session.stats.names)}'s page is ${hidden ? 'hidden' : 'shown again'}`));
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const s = result.stats;
    const summary = {
      frames: Math.max(s.frame, s.confirmedFrame),
      confirmedFrame: s.confirmedFrame,
      finalHash: result.finalHash,
      rollbacks: s.rollbacks,
      maxRollback: s.maxRollback,
      desyncs: s.desyncs,
      player: s.player,
      waits: s.waits,
      pingMs: Math.round(s.pingMs * 10) / 10,
    };

    if (result.desync) {
      const r = result.desync;
      process.stderr.write(`retrosim: netplay: DESYNC at frame ${r.frame}: ${r.players.map((p) => seatWords(p, s.names)).join(', ') || 'a player'} (${describeCause(r)})\n`);
      for (const [k, c] of Object.entries(r.states)) {
        const what = c.error ? `could not be compared: ${c.error}` : c.sections.length === 0 ? 'equals ours (its checksum did not)' : `differs in ${c.sections.join(', ')}: ${c.differences.slice(0, 3).join('; ')}${c.totalDifferences > 3 ? ` (${c.totalDifferences} values in all)` : ''}`;
        // a peer's state is the peer's: what it holds is shown printable
        process.stderr.write(`retrosim: netplay: ${seatWords(Number(k), s.names)}'s state of frame ${r.frame} ${printable(what)}\n`);
      }
      if (out !== undefined) {
        writeDesync(out, r, room, summary.player, replaceFile);
        // our confirmed frames up to here, for `replay seek` on either side of the report's frame
        try {
          replaceFile(out, result.session.replay());
        } catch {
          // a spectator that joined late records no replay; the report and snapshot are written
        }
      }
      if (json) printJson(summary);
      return 1;
    }
    if (result.error !== null && !result.finished) throw new Error(`netplay: ${printable(result.error)}`);
    if (result.unacked.length > 0) {
      const who = `${result.unacked.map((p) => seatWords(p, s.names)).join(', ')} ${result.unacked.length === 1 ? 'has' : 'have'}`;
      process.stderr.write(`retrosim: netplay: ${who} not acknowledged this player's inputs up to frame ${frames} within ${timeoutMs / 1000} s: ending without waiting longer\n`);
    }
    if (frames !== undefined && !result.finished && !result.aborted) throw new Error(`netplay: the session ended at confirmed frame ${s.confirmedFrame}, before frame ${frames}`);
    if (out !== undefined) {
      let bytes: Uint8Array;
      try {
        bytes = result.session.replay();
      } catch (e) {
        throw new Error(`netplay: --out ${out}: ${(e as Error).message}`);
      }
      replaceFile(out, bytes);
    }
    if (json) printJson(summary);
    else {
      print(`room        ${room} as ${s.player >= 0 ? `${seatWords(s.player, s.names)} of ${s.players}` : 'spectator'}`);
      print(`frames      ${s.frame} (confirmed ${s.confirmedFrame}) in ${(result.wallMs / 1000).toFixed(1)} s`);
      print(`final hash  ${result.finalHash}`);
      print(`rollbacks   ${s.rollbacks} (longest ${s.maxRollback} frames), waits ${s.waits}, ping ${summary.pingMs} ms, input delay ${s.inputDelay}`);
      print(`desyncs     ${s.desyncs}`);
      if (out !== undefined) print(`replay      ${out}`);
    }
    return frames !== undefined && !result.finished ? 1 : 0;
  },
};

function describeCause(r: DesyncReport): string {
  if (r.cause === 'checksum') return `checksum: ours ${r.ours ?? 'unknown'}, theirs ${Object.entries(r.theirs).map(([p, h]) => `player ${Number(p) + 1} ${h}`).join(', ')}`;
  if (r.cause === 'changed') return 'the relay saw an input of that frame change on resend';
  return 'an input of that frame changed on resend';
}

/**
 * FILE.desync.json (the report, each snapshot as a file name), FILE.desync.snapshot (our state at that frame,
 * value-codec bytes as a replay keyframe holds) and FILE.desync.player-K.snapshot (each peer's state that
 * arrived, with the sections and values that differ in the report).
 */
function writeDesync(out: string, r: DesyncReport, room: string, player: number, replaceFile: (p: string, d: Uint8Array | string) => void): void {
  const snapPath = `${out}.desync.snapshot`;
  const { snapshot, states, ...rest } = r;
  if (snapshot) replaceFile(snapPath, encodeValueBytes(snapshot));
  const peers: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(states)) {
    const { snapshot: theirs, ...comparison } = c;
    const path = `${out}.desync.player-${k}.snapshot`;
    if (theirs) replaceFile(path, encodeValueBytes(theirs));
    peers[k] = { ...comparison, snapshot: theirs ? path : null };
  }
  const report = { room, reporter: player, ...rest, snapshotFrame: snapshot ? (snapshot as { frame?: number }).frame ?? null : null, snapshot: snapshot ? snapPath : null, states: peers };
  replaceFile(`${out}.desync.json`, JSON.stringify(report, null, 2) + '\n');
}
