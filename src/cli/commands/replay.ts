/**
 * `retrosim replay info|export|verify|seek FILE`: read, check, re-simulate and seek replays.
 */
import { FormatError } from '../../binary/format-error.js';
import { parseArgs, parseThreads, UsageError, type ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile } from '../io.js';
import { readReplay, replayToJson, type Replay } from '../../replay/format.js';
import { isInputWord } from '../../systems/nav-orders.js';
import { parseFileSource } from '../../replay/world-identity.js';
import { openNamedWorld, openRecordedWorld, RecordedWorldNotFound } from '../../node/open-world.js';
import { dirname, resolve } from 'node:path';
import { checkReplaySettings, replaySimulation } from '../../replay/rebuild.js';
import { resolveLimits, type Limits } from '../../limits.js';
import { seekReplay } from '../../replay/seek.js';
import { verifyReplay } from '../../replay/verify.js';
import type { Simulation } from '../../sim/simulation.js';
import type { ScenarioDef } from '../../sim/scenario.js';
import { BUILTIN_SCENARIOS } from '../../scenarios/builtin.js';
import { loadScenarioFile, scenarioSealedUrl } from '../../node/scenario-file.js';
import { autoThreads, MAX_SYSTEM_THREADS, SystemPool, type SystemPoolOptions } from '../../node/system-pool.js';
import { availableParallelism } from 'node:os';

/**
 * The kernel modules of the scenario module given with --scenario: the sealed copy it was loaded from, which
 * the workers import to find its range kernels (the bytes the main thread checked, never the file again).
 */
function scenarioKernelModules(scenario: ScenarioDef | undefined): SystemPoolOptions {
  const url = scenario ? scenarioSealedUrl(scenario) : undefined;
  return url ? { kernelModules: [url] } : {};
}

const usage = `usage: retrosim replay <info|export|verify|seek> FILE [options]

  info FILE              the header: world, seeds, settings, frames, keyframes, final hash
  export FILE            the whole replay as JSON (every frame's input, hash, RNG counts, section hashes;
                         with several players, \`inputs\`: every player's word, player 0 first)
  verify FILE            re-simulate from the settings and inputs and compare everything recorded (every
                         frame's hash, section hashes, RNG draw counts and input; every keyframe's hash and
                         snapshot); then restore each keyframe into a fresh simulation, run it to the next
                         and compare again (what a seek relies on: it catches state kept outside the
                         snapshot and names the system); exit 0 when all match, exit 1 with the first
                         divergent frame and every field that differs there
  seek FILE --frame F    restore the nearest keyframe at or before F that holds, step to F and compare the
                         hash with the recorded one: {"frame":F,"hash":"0x...","verified":true,...}; exit 1
                         when it differs

options:
  --world W      the world: a built-in id (rugrats-demo, llama-demo, ...: see docs/worlds.md) or a file.
                 Without it, the recorded world is found by its content: the shipped world with the same
                 bytes, else the recorded file from the current folder, then beside the replay (a file of a
                 built-in id's name in the current folder wins)
  --map FILE     the MAP of a Llama world
  --scenario S   the scenario module file the replay was recorded with: required for a replay of a scenario
                 module (its module graph is compared with the recorded one before anything of it runs; the
                 path a replay records is never loaded on its own); built-in scenarios need none
  --threads N|auto
                 threads for the systems' range kernels while re-simulating (verify, seek): the answers are
                 the same for any N, only the speed differs. auto, the default, takes 1 for small replays
                 (under 10,000 agents or 10 million agent-frames), else the machine's cores up to 4
  --json         machine output (one JSON line)
  --no-restore-check
                 verify: skip the keyframe check (restoring each keyframe and running on), which
                 re-simulates each keyframe interval once more

limits on the work a replay may ask for (verify, seek; defaults in src/limits.ts):
  --max-frames N        frames in the replay (limits.replay.frames)
  --max-agents N        agents its header asks for (limits.replay.agents)
  --max-capacity N      entity capacity (limits.replay.capacity)
  --max-ccrand-init N   ccRand init count (limits.replay.ccRandInit)
  --max-agent-frames N  agents × frames re-simulated (limits.replay.agentFrames)
`;

/** The limits the command's --max-* flags give (the defaults for the rest). */
function limitsFrom(o: ParsedArgs['options']): Readonly<Limits> {
  const pick = (k: string) => o[k] as number | undefined;
  const replay: Partial<Limits['replay']> = {};
  if (pick('max-frames') !== undefined) replay.frames = pick('max-frames');
  if (pick('max-agents') !== undefined) replay.agents = pick('max-agents');
  if (pick('max-capacity') !== undefined) replay.capacity = pick('max-capacity');
  if (pick('max-ccrand-init') !== undefined) replay.ccRandInit = pick('max-ccrand-init');
  if (pick('max-agent-frames') !== undefined) replay.agentFrames = pick('max-agent-frames');
  return resolveLimits({ replay });
}

/** The re-simulation and the thread pool it runs its kernels on (null for one thread); close the pool after. */
async function simulationFor(rp: Replay, replayFile: string, o: ParsedArgs['options'], limits: Readonly<Limits>): Promise<{ sim: Simulation; pool: SystemPool | null }> {
  checkReplaySettings(rp.header, limits);
  const worldPath = o['world'] as string | undefined;
  const mapPath = o['map'] as string | undefined;
  const read = (p: string) => readInputFile(p);
  let opened;
  if (worldPath) opened = await openNamedWorld(worldPath, read, mapPath ?? (rp.header.world.source.startsWith('file:') ? parseFileSource(rp.header.world.source).mapPath : undefined));
  else {
    // By content: a shipped world with the same bytes, else the recorded file from here, then beside the replay.
    try {
      opened = await openRecordedWorld(rp.header.world, [process.cwd(), dirname(resolve(replayFile))], read);
    } catch (e) {
      if (e instanceof RecordedWorldNotFound) throw new UsageError(e.message);
      throw e;
    }
  }
  const scenario = await scenarioFor(rp, o['scenario'] as string | undefined);
  const threads = parseThreads(o['threads'] as string | undefined, MAX_SYSTEM_THREADS) ?? autoThreads(rp.header.settings.agents, rp.final.frames, availableParallelism());
  const pool = threads > 1 ? await SystemPool.create(opened.source, threads, scenarioKernelModules(scenario)) : null;
  try {
    return { sim: replaySimulation(rp.header, { world: opened, limits, ...(scenario ? { scenario } : {}), ...(pool ? { threads: pool } : {}) }), pool };
  } catch (e) {
    await pool?.close();
    throw e;
  }
}

/**
 * The scenario to re-simulate with: the module given with --scenario (its module graph compared with the
 * replay's before anything of it is imported), a built-in one by name, or the built-in one the replay
 * names. A module the replay merely names is never imported: without --scenario, a replay of a scenario
 * module is a usage error that says which module it needs.
 */
async function scenarioFor(rp: Replay, given: string | undefined): Promise<ScenarioDef | undefined> {
  const rec = rp.header.scenario;
  if (given !== undefined) {
    if (BUILTIN_SCENARIOS.has(given)) return BUILTIN_SCENARIOS.get(given);
    if (!rec.modules?.length) {
      const e = new FormatError(`scenario module ${given}`, -1, `cannot stand for the replay's scenario ${JSON.stringify(rec.name)} (${rec.source}), which is ${rec.source.startsWith('builtin:') ? 'built in: leave out --scenario' : 'not a module file: verify it from the program that defined it (verifyReplay with scenario:)'}; nothing of it was run`);
      e.file = given;
      throw e;
    }
    return (await loadScenarioFile(given, { recorded: rec })).scenario;
  }
  if (rec.source.startsWith('file:') || rec.modules?.length) {
    throw new UsageError(`the replay ran scenario ${JSON.stringify(rec.name)} ${rec.version} from the module ${rec.source.startsWith('file:') ? rec.source.slice(5) : rec.source} (module graph ${rec.contentHash}): give that module with --scenario FILE (its graph is checked before it runs; a module a replay names is never loaded on its own)`);
  }
  return undefined;
}

export const command: Command = {
  summary: 'inspect, export, verify or seek a replay file',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      frame: { type: 'int', min: 0 },
      world: { type: 'string' },
      map: { type: 'string' },
      scenario: { type: 'string' },
      json: { type: 'flag' },
      'no-restore-check': { type: 'flag' },
      threads: { type: 'string' },
      'max-frames': { type: 'int', min: 1 },
      'max-agents': { type: 'int', min: 1 },
      'max-capacity': { type: 'int', min: 2 },
      'max-ccrand-init': { type: 'int', min: 1 },
      'max-agent-frames': { type: 'int', min: 1 },
    });
    const [sub, file, ...rest] = positionals;
    if (!sub || !['info', 'export', 'verify', 'seek'].includes(sub)) throw new UsageError('expected a subcommand: info, export, verify or seek');
    if (!file) throw new UsageError(`replay ${sub} needs a FILE`);
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const limits = limitsFrom(o);
    const rp = inFile(file, () => readReplay(readInputFile(file, limits.fileBytes), isInputWord, limits));
    const json = o['json'] === true;
    switch (sub) {
      case 'info': {
        const info = replayToJson(rp, false);
        if (json) printJson(info);
        else {
          const w = rp.header.world;
          print(`replay      format ${rp.header.formatVersion}, written by ${rp.header.runtime}`);
          print(`world       ${w.source} (${w.kind} "${w.name}", ${w.byteLength} bytes, ${w.contentHash})`);
          const sc = rp.header.scenario;
          print(`scenario    ${sc.name} ${sc.version} (${sc.source}, ${sc.contentHash})`);
          print(`settings    ${JSON.stringify(rp.header.settings)}`);
          if (rp.frames.players > 1) print(`players     ${rp.frames.players} (an input word each per frame)`);
          print(`frames      ${rp.frames.count}, keyframe every ${rp.header.keyframeInterval} (${rp.keyframes.length} keyframes)`);
          print(`final hash  ${info['finalHash']}`);
        }
        return 0;
      }
      case 'export':
        printJson(replayToJson(rp, true));
        return 0;
      case 'verify': {
        const { sim, pool } = await simulationFor(rp, file, o, limits);
        let v;
        try {
          v = verifyReplay(rp, sim, { limits, restoreCheck: o['no-restore-check'] !== true });
        } finally {
          await pool?.close();
        }
        const out = { ok: v.ok, threads: sim.parallel.threads, frames: v.frames, keyframes: v.keyframes, finalHash: v.finalHash, framesPerSecond: Math.round(v.framesPerSecond * 10) / 10, divergence: v.divergence ?? null, restoreDivergence: v.restoreDivergence ?? null, warnings: v.warnings };
        if (json) printJson(out);
        else if (v.ok) print(`OK: ${v.frames} frames and ${v.keyframes} keyframes verified, final hash ${v.finalHash} (${out.framesPerSecond} frames/s)`);
        else if (v.restoreDivergence) {
          const r = v.restoreDivergence;
          print(`DIVERGED after a restore: the run from frame 0 matched all ${v.frames} frames, but the keyframe at frame ${r.keyframe}, restored and run on, differs at frame ${r.frame}: expected ${r.expected}, got ${r.actual}; differs in ${r.fields.join(', ')}`);
          print(r.reason);
        } else {
          const d = v.divergence!;
          const rng = d.rng.map((r) => `${r.name} recorded ${r.recorded}, replayed ${r.replayed}`).join('; ');
          print(`DIVERGED at frame ${d.frame}: expected ${d.expected}, got ${d.actual}; differs in ${d.fields.join(', ')}${rng ? `; RNG: ${rng}` : ''}`);
          print(d.lastGoodKeyframe >= 0 ? `the last keyframe that matched value by value: frame ${d.lastGoodKeyframe}` : 'no keyframe matched before it');
          if (d.detail) {
            print(`the keyframe of frame ${d.detail.frame}: ${d.detail.total} value(s) differ${d.detail.total > d.detail.differences.length ? ` (first ${d.detail.differences.length})` : ''}:`);
            for (const line of d.detail.differences) print(`  ${line}`);
          }
        }
        for (const w of v.warnings) process.stderr.write(`retrosim: warning: ${w}\n`);
        return v.ok ? 0 : 1;
      }
      case 'seek': {
        const frame = o['frame'] as number | undefined;
        if (frame === undefined) throw new UsageError('replay seek needs --frame F');
        if (frame > rp.frames.count) throw new UsageError(`--frame ${frame} is past the replay's last frame ${rp.frames.count}`);
        const { sim, pool } = await simulationFor(rp, file, o, limits);
        let r;
        try {
          r = seekReplay(rp, sim, frame, { limits });
        } finally {
          await pool?.close();
        }
        if (json) printJson({ frame: r.frame, hash: r.hash, verified: r.verified, expected: r.expected, fromKeyframe: r.fromKeyframe, sections: r.sections, skippedKeyframes: r.skippedKeyframes });
        else if (r.verified) print(`frame ${r.frame}: hash ${r.hash}, verified (from the keyframe at frame ${r.fromKeyframe})`);
        else print(`frame ${r.frame}: hash ${r.hash} differs from the recorded ${r.expected}; sections ${r.sections.join(', ') || '(none named)'} (from the keyframe at frame ${r.fromKeyframe})`);
        for (const k of r.skippedKeyframes) process.stderr.write(`retrosim: warning: skipped the keyframe at frame ${k.frame}: ${k.reason}\n`);
        if (!r.verified) process.stderr.write(`retrosim: seek: frame ${r.frame} hashes ${r.hash}, the replay records ${r.expected}\n`);
        return r.verified ? 0 : 1;
      }
    }
    return 2;
  },
};
