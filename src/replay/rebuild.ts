/**
 * Building the simulation a replay describes: its settings checked (no absurd work from a hostile header),
 * its world and scenario checked against the ones given (same bytes, same scenario module), then the
 * simulation made from them.
 */
import { FormatError } from '../binary/format-error.js';
import type { ScenarioDef, ScenarioSettings } from '../sim/scenario.js';
import { checkSettings } from '../sim/scenario.js';
import { resolveParams } from '../sim/params.js';
import { Simulation } from '../sim/simulation.js';
import type { EventBus } from '../ecs/events.js';
import type { SystemThreads } from '../systems/range-kernel.js';
import { BUILTIN_SCENARIOS } from '../scenarios/builtin.js';
import { legacyScenarioIdentity, scenarioIdentity } from '../scenarios/identity.js';
import { isGraph2 } from '../scenarios/graph-listing.js';
import { describeChanges, scenarioModuleChanges } from './scenario-changes.js';
import type { ReplayHeader } from './format.js';
import { checkWorldIdentity, type OpenedWorld } from './world-identity.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';

/** Where the replay's header is, for errors. */
const HEADER = 'replay chunk HEAD #0 (header)';

/** The CLI flag that raises each re-simulation limit (named in the errors). */
export const LIMIT_FLAGS = {
  'replay.frames': '--max-frames',
  'replay.agents': '--max-agents',
  'replay.capacity': '--max-capacity',
  'replay.ccRandInit': '--max-ccrand-init',
  'replay.agentFrames': '--max-agent-frames',
} as const;

function overLimit(what: string, value: number, max: number, name: keyof typeof LIMIT_FLAGS, why: string): FormatError {
  return new FormatError(HEADER, -1, `${what} ${value} is over the limit of ${max} ${why} (limits.${name}; CLI: ${LIMIT_FLAGS[name]} N)`);
}

/**
 * The settings a replay asks for, checked before anything is built from them: their ranges (agent count,
 * capacity, ccRand init count, ...), then the re-simulation limits (`limits.replay.agents`, `capacity`,
 * `ccRandInit`), so that a hostile header cannot ask for absurd work. A FormatError names the header and the
 * limit to raise.
 */
export function checkReplaySettings(h: ReplayHeader, limits: Readonly<Limits> = DEFAULT_LIMITS): ScenarioSettings {
  let s: ScenarioSettings;
  try {
    s = checkSettings({ ...h.settings, params: { ...h.settings.params } });
  } catch (e) {
    throw new FormatError(HEADER, -1, (e as Error).message);
  }
  const L = limits.replay;
  if (s.agents > L.agents) throw overLimit('agents', s.agents, L.agents, 'replay.agents', 'for a re-simulation');
  if (s.capacity > L.capacity) throw overLimit('entity capacity', s.capacity, L.capacity, 'replay.capacity', 'for a re-simulation');
  if (s.ccRandInit > L.ccRandInit) throw overLimit('ccRand init count', s.ccRandInit, L.ccRandInit, 'replay.ccRandInit', 'for a re-simulation');
  return s;
}

/**
 * The work of re-simulating `frames` frames of a replay, checked against the limits before any frame is
 * run: the frames themselves (`limits.replay.frames`) and agents × frames (`limits.replay.agentFrames`,
 * counting each player as one more agent). A FormatError names the header and the limit to raise.
 */
export function checkReplayWork(h: ReplayHeader, frames: number, limits: Readonly<Limits> = DEFAULT_LIMITS): void {
  const L = limits.replay;
  if (frames > L.frames) throw overLimit('frames to re-simulate:', frames, L.frames, 'replay.frames', '');
  const players = Math.max(1, Math.floor(Number(h.settings.players) || 1));
  const agents = Math.max(0, Math.floor(Number(h.settings.agents) || 0)) + players;
  const work = agents * frames;
  if (work > L.agentFrames) throw overLimit(`${agents - players} agents (and ${players === 1 ? 'the player' : `the ${players} players`}) × ${frames} frames =`, work, L.agentFrames, 'replay.agentFrames', 'agent-frames');
}

/** What a replay is re-simulated with. */
export interface ReplayTarget {
  /** The world, with its identity (`openWorld`), checked against the one the replay names. */
  world: OpenedWorld;
  /**
   * The scenario, when it is not a built-in one (a module file's, or one defined in the program). Checked
   * against the recorded name, version and content hash.
   */
  scenario?: ScenarioDef;
  /** The event bus of the re-simulation (a fresh one by default). */
  events?: EventBus;
  /** Threads for the re-simulation's range kernels (in Node, a `SystemPool`); the answers do not depend on them. */
  threads?: SystemThreads;
  /** The limits the replay's header is checked against (default DEFAULT_LIMITS; see `checkReplaySettings`). */
  limits?: Readonly<Limits>;
}

/**
 * A scenario given that is not the one the replay ran: a fault of the scenario, not of the replay's bytes, so
 * the error names the scenario (its format reads "scenario ...", which the CLI reports as kind "scenario")
 * and, for a module file, carries its path as the file.
 */
function scenarioMismatch(source: string, detail: string): FormatError {
  const file = source.startsWith('file:') ? source.slice(5) : undefined;
  const e = new FormatError(file !== undefined ? `scenario module ${file}` : `scenario (${source})`, -1, detail);
  if (file !== undefined) e.file = file;
  return e;
}

/**
 * The scenario a replay ran, checked: the one given (same name, version and content hash as recorded), or
 * the built-in one the header names. A FormatError says what differs and how to give the right one.
 */
export function replayScenario(h: ReplayHeader, given?: ScenarioDef): ScenarioDef {
  const rec = h.scenario;
  if (rec.name !== h.settings.scenario) throw new FormatError(HEADER, -1, `the header names scenario ${rec.name} and settings for ${h.settings.scenario}`);
  let def = given;
  if (!def) {
    if (!rec.source.startsWith('builtin:')) {
      const module = rec.source.startsWith('file:') || (rec.modules?.length ?? 0) > 0;
      throw new FormatError(
        HEADER,
        -1,
        module
          ? `the replay ran scenario ${JSON.stringify(rec.name)} ${rec.version} from the module ${rec.source.startsWith('file:') ? rec.source.slice(5) : rec.source} (module graph ${rec.contentHash}), which is not built in: give its module (CLI: --scenario FILE; API: scenario, from loadScenarioFile or an import); a module a replay names is never loaded on its own, and a browser page cannot load one`
          : `the replay ran scenario ${JSON.stringify(rec.name)} ${rec.version} (${rec.source}, content hash ${rec.contentHash}), which is not built in: give its module or definition (API: scenario)`,
      );
    }
    def = BUILTIN_SCENARIOS.get(rec.name);
    if (!def) throw new FormatError(HEADER, -1, `unknown scenario ${JSON.stringify(rec.name)}: the replay names a built-in scenario this runtime does not have (built-in: ${[...BUILTIN_SCENARIOS.keys()].join(', ')})`);
  }
  // A replay recorded before graph 2 holds its module's graph-1 hash: compare the module's graph-1 identity.
  const legacy = rec.modules?.length && !isGraph2(rec) ? legacyScenarioIdentity(def) : undefined;
  const got = legacy ?? scenarioIdentity(def);
  const where = got.source.startsWith('file:') ? got.source.slice(5) : got.source;
  if (got.name !== rec.name) throw scenarioMismatch(got.source, `the replay ran scenario ${JSON.stringify(rec.name)}; the scenario given is ${JSON.stringify(got.name)}`);
  if (got.version !== rec.version || got.contentHash !== rec.contentHash) {
    // With both module lists, name what changed: the file to put back, not a divergence frames later.
    const changes = got.contentHash !== rec.contentHash ? scenarioModuleChanges(rec, got) : [];
    throw scenarioMismatch(
      got.source,
      `scenario ${JSON.stringify(rec.name)} changed since the replay was recorded: recorded version ${rec.version} with content hash ${rec.contentHash} (${rec.source}), ` +
        `given version ${got.version} with content hash ${got.contentHash} (${where})${changes.length ? `; in its module graph: ${describeChanges(changes)}` : ''}; pass the module it was recorded with (CLI: --scenario FILE)`,
    );
  }
  if (def.worldKinds && !def.worldKinds.includes(h.world.kind as never)) {
    throw scenarioMismatch(got.source, `scenario ${def.name} runs on ${def.worldKinds.join(', ')} worlds, the replay's world is ${JSON.stringify(h.world.kind)}`);
  }
  return def;
}

/**
 * Builds the simulation a replay starts from: the settings checked, the world and the scenario checked
 * against the recorded ones, the scenario's parameters checked against its declarations. Throws a
 * FormatError naming the header when anything does not fit.
 */
export function replaySimulation(h: ReplayHeader, target: ReplayTarget): Simulation {
  const settings = checkReplaySettings(h, target.limits);
  checkWorldIdentity(h.world, target.world.identity);
  const def = replayScenario(h, target.scenario);
  try {
    resolveParams(def.name, def.params ?? {}, settings.params);
    return new Simulation(target.world.world, def, settings, { ...(target.events ? { events: target.events } : {}), ...(target.threads ? { threads: target.threads } : {}) });
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(HEADER, -1, (e as Error).message);
  }
}
