/**
 * A netplay client in Node: a `NetplaySession` over a transport, ticked at 60 per second in real time, with a
 * bot's hands, until the session's last frame (every client ends on the same confirmed frame), a desync, or
 * the connection's end. Used by `retrosim netplay join`, the netplay bench and test clients.
 *
 * Building the room's simulation: a client opens its own world before joining (the config it offers if it
 * creates the room); once the relay answers with the room's config, a world that differs is opened then (a
 * built-in one by id, or the file given) and its identity checked against the room's. The scenario is a
 * built-in one, or the module file this client was given (`--scenario FILE`), whose module graph is compared
 * with the room's before anything of it is imported, as for a replay: a seat whose module differs is refused
 * at join, naming what changed.
 *
 * Everything a room's config or the relay says is shown through `printable` (no control character of theirs
 * reaches a terminal). The join names this runtime (`nodeRuntimeIdentity`) and the scenario module graph this
 * client brings, which the relay compares with the room's before it seats the client.
 */
import { performance } from 'node:perf_hooks';
import { NetplaySession, type DesyncReport, type NetplayStats } from '../netplay/session.js';
import type { NetplayConfig } from '../netplay/protocol.js';
import type { NetplayTransport } from '../netplay/transport.js';
import type { Bot } from '../netplay/bots.js';
import { replaySimulation } from '../replay/rebuild.js';
import { RUNTIME_VERSION } from '../replay/format.js';
import type { Simulation } from '../sim/simulation.js';
import type { OpenedWorld } from '../replay/world-identity.js';
import { openBuiltinWorld, openNamedWorld } from './open-world.js';
import { loadScenarioFile } from './scenario-file.js';
import type { ScenarioDef } from '../sim/scenario.js';
import type { RuntimeIdentity } from '../netplay/protocol.js';
import { printable } from '../netplay/printable.js';
import { DEFAULT_SILENCE_TIMEOUT_MS } from '../netplay/heartbeat.js';
import { nodeRuntimeIdentity } from './runtime-hash.js';

const FRAME_MS = 1000 / 60;
/**
 * How long a client goes on after a desync for the peers' states of that frame: at least 180 ticks (3 s) and
 * at least 10 s of wall time, since on a loaded machine a peer's process can stall for seconds before it
 * finds the desync and sends its state. A client whose peers' states have all arrived stops at once.
 */
const DESYNC_GRACE_TICKS = 180;
const DESYNC_GRACE_MS = 10_000;
/** Ticks run back to back at most when the timer fell behind; further behind, the missed ticks are dropped. */
const MAX_CATCHUP_TICKS = 8;
/** Most relay messages held while the room's world opens (as many as the session's own inbox holds). */
const MAX_HELD = 4096;

/**
 * The simulations of a room's config, on the worlds this client can open. Each simulation gets a world of its
 * own (worlds may hold run-time state, such as Llama's tile swaps, which the predicted and the confirmed
 * simulation must not share): `prepare` opens one per simulation the session builds.
 */
export class RoomBuilder {
  private readonly fresh: OpenedWorld[] = [];

  /**
   * `worldArg`: the `--world` this client was given (a built-in id or a file path), opened for each simulation;
   * `read` reads its files (bounded by the input limits in the CLI).
   */
  constructor(
    private readonly worldArg?: string,
    private readonly read?: (path: string) => Uint8Array,
    /** The scenario module file this client was given (`--scenario FILE`), for a room that plays one. */
    private readonly scenarioFile?: string,
  ) {}

  /** The room's scenario: a built-in one (undefined), or this client's module, checked against the room's graph. */
  private scenario: ScenarioDef | undefined;

  /** Opens the room's world once per simulation (a player builds two); throws a one-line reason. */
  async prepare(config: NetplayConfig, copies = 2): Promise<void> {
    const want = config.world;
    const open = async (): Promise<OpenedWorld> => {
      if (this.worldArg !== undefined) return openNamedWorld(this.worldArg, this.read);
      if (want.source.startsWith('builtin:')) return openBuiltinWorld(want.source.slice(8), this.read);
      throw new Error(`the room plays the world ${printable(want.source)} (${printable(want.kind)}, ${want.byteLength} bytes, content hash ${printable(want.contentHash)}), which is not built in: give --world FILE with the same bytes`);
    };
    const rec = config.scenario;
    const module = rec.source.startsWith('file:') || (rec.modules?.length ?? 0) > 0;
    if (module) {
      if (this.scenarioFile === undefined) {
        throw new Error(`the room plays scenario ${printable(JSON.stringify(rec.name))} ${printable(rec.version)} from the module ${printable(rec.source.startsWith('file:') ? rec.source.slice(5) : rec.source)} (module graph ${printable(rec.contentHash)}): give that module with --scenario FILE`);
      }
      try {
        this.scenario = (await loadScenarioFile(this.scenarioFile, { recorded: rec, recordedBy: 'room' })).scenario;
      } catch (e) {
        throw new Error(`--scenario ${this.scenarioFile}: ${printable((e as Error).message)}`);
      }
    } else if (this.scenarioFile !== undefined) {
      throw new Error(`the room plays the built-in scenario ${printable(JSON.stringify(rec.name))}; --scenario ${this.scenarioFile} is not it`);
    }
    this.fresh.length = 0;
    for (let i = 0; i < copies; i++) {
      const opened = await open();
      if (!sameWorld(opened, config)) {
        const got = opened.identity;
        throw new Error(`the room plays the world ${printable(want.source)} (${printable(want.kind)}, ${want.byteLength} bytes, content hash ${printable(want.contentHash)}); the world given, ${got.source}, is ${got.kind}, ${got.byteLength} bytes with content hash ${got.contentHash}`);
      }
      this.fresh.push(opened);
    }
  }

  /** Builds the room's simulation on the next world `prepare` opened, checked as a replay's header is. */
  build(config: NetplayConfig): Simulation {
    const world = this.fresh.shift();
    if (!world) throw new Error('netplay: no world of the room is open for another simulation');
    try {
      return replaySimulation(
        { formatVersion: 4, runtime: RUNTIME_VERSION, world: config.world, scenario: config.scenario, settings: config.settings, keyframeInterval: config.keyframeInterval, sections: [] },
        { world, ...(this.scenario ? { scenario: this.scenario } : {}) },
      );
    } catch (e) {
      throw new Error(`cannot build the room's simulation: ${printable((e as Error).message)}`);
    }
  }
}

function sameWorld(w: OpenedWorld, config: NetplayConfig): boolean {
  const a = w.identity;
  const b = config.world;
  return a.contentHash === b.contentHash && a.byteLength === b.byteLength && a.kind === b.kind;
}

/** What `runNetplayClient` takes. */
export interface NetplayClientOptions {
  transport: NetplayTransport;
  room: string;
  role: 'player' | 'spectator';
  /** The config offered (a player's; used when it creates the room). */
  config?: NetplayConfig;
  builder: RoomBuilder;
  /** The local player's hands, made once the seat is known (players only; none = idle). */
  bot?: (player: number) => Bot;
  /** The session's last frame: every client stops on it. */
  lastFrame?: number;
  /** Input delay (only when creating the room; joiners take the room's). */
  inputDelay?: number;
  name?: string;
  /** Called about every `progressMs` with the session's stats. */
  progress?: (stats: NetplayStats) => void;
  /** Called once with the session, before its first tick (to listen to its events: who sits where, who left). */
  onSession?: (session: NetplaySession) => void;
  progressMs?: number;
  /** Called after every tick with its CPU milliseconds (this process's) and whether it rolled back or simulated a frame; only then is the CPU time read. */
  onTick?: (tick: { cpuMs: number; rolledBack: boolean; advanced: boolean }) => void;
  /** Aborts the run (e.g. on SIGINT): the client closes and the result says so. */
  signal?: AbortSignal;
  /** This client's runtime, named in its join (default `nodeRuntimeIdentity()`). */
  runtime?: RuntimeIdentity;
  /** The content hash of the scenario module graph this client brings (its `--scenario FILE`), named in its join. */
  scenarioGraph?: string;
  /**
   * Milliseconds the relay may stay silent before the session ends (the session's `silenceTimeoutMs`; give the
   * transport the same), and the longest a player that reached `lastFrame` waits for its peers' acks
   * (default 20 000).
   */
  timeoutMs?: number;
}

/** How a client run ended. */
export interface NetplayClientResult {
  session: NetplaySession;
  stats: NetplayStats;
  /** The confirmed simulation's hash at the end. */
  finalHash: string | null;
  /** The first desync reported, or null. */
  desync: DesyncReport | null;
  /** Why the run ended early (the relay refused, the connection was lost, the room's world cannot be built), or null. */
  error: string | null;
  /** True when the session reached `lastFrame`. */
  finished: boolean;
  /** True when `signal` aborted it. */
  aborted: boolean;
  /** Wall-clock milliseconds from the first tick to the end. */
  wallMs: number;
  /**
   * The peers that had not acknowledged this player's inputs up to `lastFrame` when it stopped waiting for
   * them (`timeoutMs` after it reached that frame); empty when every peer did, or left.
   */
  unacked: number[];
}

type Peeked = { t?: unknown; p?: unknown; ack?: unknown; player?: unknown; config?: unknown };

/** A relay message's fields at a glance (the session parses and checks it for real). */
function peek(text: string): Peeked | null {
  if (text.length > 16_384 && !text.startsWith('{"t":"joined"')) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Peeked) : null;
  } catch {
    return null;
  }
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/**
 * Runs a client to its end. A player that reached `lastFrame` keeps its connection until every peer that is
 * still in the room has acknowledged its inputs up to that frame, so nobody is left without them.
 */
export function runNetplayClient(o: NetplayClientOptions): Promise<NetplayClientResult> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS;
  let me = -1;
  const acked = new Map<number, number>();
  const gone = new Set<number>();
  let preparing: Promise<void> | null = null;
  let error: string | null = null;
  let deliver: (text: string) => void = () => {};
  const held: string[] = [];
  let holding = false;

  // Holds the relay's messages from `joined` on until the room's world is open, and watches the acks of our inputs.
  const transport: NetplayTransport = {
    send: (t) => o.transport.send(t),
    onMessage: (cb) => void (deliver = cb),
    onClose: (cb) => o.transport.onClose(cb),
    close: () => o.transport.close(),
  };
  o.transport.onMessage((text) => {
    const m = peek(text);
    if (m && m.t === 'input' && typeof m.p === 'number' && Array.isArray(m.ack) && me >= 0 && typeof m.ack[me] === 'number') {
      acked.set(m.p, Math.max(acked.get(m.p) ?? 0, m.ack[me] as number));
    }
    if (holding) {
      if (held.length >= MAX_HELD) {
        error ??= `the relay sent more than ${MAX_HELD} messages while the room's world was opening`;
        holding = false;
        held.length = 0;
        session.close(error);
        return;
      }
      return void held.push(text);
    }
    if (m && m.t === 'joined' && preparing === null && typeof m.config === 'object' && m.config !== null) {
      if (typeof m.player === 'number') me = m.player;
      holding = true;
      held.push(text);
      preparing = o.builder.prepare(m.config as NetplayConfig).then(
        () => {
          holding = false;
          for (const h of held.splice(0)) deliver(h);
        },
        (e: Error) => {
          error = printable(e.message);
          holding = false;
          held.length = 0;
          session.close(e.message);
        },
      );
      return;
    }
    deliver(text);
  });

  const session = new NetplaySession({
    transport,
    build: (c) => o.builder.build(c),
    role: o.role,
    room: o.room,
    ...(o.config && o.role === 'player' ? { config: o.config } : {}),
    ...(o.inputDelay !== undefined ? { inputDelay: o.inputDelay } : {}),
    ...(o.lastFrame !== undefined ? { lastFrame: o.lastFrame } : {}),
    ...(o.name !== undefined ? { name: o.name } : {}),
    runtime: o.runtime ?? nodeRuntimeIdentity(),
    ...(o.scenarioGraph !== undefined ? { scenarioGraph: o.scenarioGraph } : {}),
    silenceTimeoutMs: timeoutMs,
  });
  o.onSession?.(session);
  let desync: DesyncReport | null = null;
  let closing = false;
  session.on('desync', (r) => {
    if (desync) return;
    desync = r;
    desyncAt = performance.now();
  });
  session.on('left', ({ player }) => void gone.add(player));
  session.on('closed', ({ reason }) => {
    if (!closing && error === null) error = printable(reason);
  });

  let bot: Bot | null = null;
  const tickOnce = () => {
    if (desync) graceTicks++;
    const s0 = session.stats;
    if (o.role === 'player' && s0.player >= 0 && o.bot) {
      bot ??= o.bot(s0.player);
      session.setLocalInput(bot());
    }
    if (!o.onTick) return session.tick();
    const c0 = cpuMs();
    session.tick();
    const dt = cpuMs() - c0;
    const s1 = session.stats;
    o.onTick({ cpuMs: dt, rolledBack: s1.rollbacks > s0.rollbacks, advanced: s1.frame > s0.frame });
  };

  // After a desync the session goes on a moment, so the named peers' states of that frame can arrive and the
  // report can name the sections and values that differ (a peer that saw nothing wrong sends none).
  let graceTicks = 0;
  let desyncAt = 0;
  const statesIn = (r: DesyncReport): boolean => r.cause !== 'checksum' || r.players.every((p) => Object.hasOwn(r.states, p));
  // A player at its last frame waits for its peers' acks, but not for ever: a peer that withholds them is
  // left behind after timeoutMs, and the result names it.
  let ackWaitFrom: number | null = null;
  let unacked: number[] = [];
  const done = (): boolean => {
    if (error !== null || session.stats.state === 'closed') return true;
    if (desync) return statesIn(desync) || (graceTicks >= DESYNC_GRACE_TICKS && performance.now() - desyncAt >= DESYNC_GRACE_MS);
    if (o.lastFrame === undefined) return false;
    const s = session.stats;
    if (s.confirmedFrame < o.lastFrame) return false;
    if (o.role === 'spectator') return true;
    const waiting: number[] = [];
    for (let p = 0; p < s.players; p++) if (p !== me && !gone.has(p) && (acked.get(p) ?? 0) < o.lastFrame) waiting.push(p);
    if (waiting.length === 0) return true;
    ackWaitFrom ??= performance.now();
    if (performance.now() - ackWaitFrom < timeoutMs) return false;
    unacked = waiting;
    return true;
  };

  return new Promise((resolve) => {
    const t0 = performance.now();
    let n = 0;
    let lastProgress = t0;
    let aborted = false;
    const onAbort = () => void (aborted = true);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const loop = () => {
      const now = performance.now();
      let due = Math.floor((now - t0) / FRAME_MS) + 1 - n;
      if (due > MAX_CATCHUP_TICKS) {
        n += due - MAX_CATCHUP_TICKS;
        due = MAX_CATCHUP_TICKS;
      }
      for (let i = 0; i < due && !done() && !aborted; i++) {
        tickOnce();
        n++;
      }
      if (o.progress && now - lastProgress >= (o.progressMs ?? 5000)) {
        lastProgress = now;
        o.progress(session.stats);
      }
      if (done() || aborted) {
        o.signal?.removeEventListener('abort', onAbort);
        const stats = session.stats;
        const finished = o.lastFrame !== undefined && stats.confirmedFrame >= o.lastFrame && desync === null && error === null;
        closing = true;
        session.close(finished ? 'finished' : aborted ? 'interrupted' : 'ended');
        resolve({ session, stats: session.stats, finalHash: session.confirmedHash(), desync, error, finished, aborted, wallMs: performance.now() - t0, unacked });
        return;
      }
      setTimeout(loop, Math.max(0, t0 + n * FRAME_MS - performance.now()));
    };
    loop();
  });
}
