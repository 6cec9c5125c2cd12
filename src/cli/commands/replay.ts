/**
 * `retrosim replay info|export|verify|seek FILE`: read, check, re-simulate and seek replays.
 */
import { existsSync } from 'node:fs';
import { parseArgs, UsageError, type ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile } from '../io.js';
import { readReplay, replayToJson, type Replay } from '../../replay/format.js';
import { BUTTON_MASK } from '../../systems/input.js';
import { parseFileSource } from '../../replay/world-identity.js';
import { openBuiltinWorld, openWorldFile } from '../../node/open-world.js';
import { checkReplaySettings, replaySimulation } from '../../replay/rebuild.js';
import { seekReplay } from '../../replay/seek.js';
import { verifyReplay } from '../../replay/verify.js';
import type { Simulation } from '../../sim/simulation.js';
import type { ScenarioDef } from '../../sim/scenario.js';
import { BUILTIN_SCENARIOS } from '../../scenarios/builtin.js';
import { loadScenarioFile } from '../../node/scenario-file.js';

const usage = `usage: retrosim replay <info|export|verify|seek> FILE [options]

  info FILE              the header: world, seeds, settings, frames, keyframes, final hash
  export FILE            the whole replay as JSON (every frame's input, hash, RNG counts, section hashes)
  verify FILE            re-simulate from the settings and inputs; exit 0 when every frame's hash matches,
                         exit 1 with the first divergent frame, the sections and RNG counters that differ
  seek FILE --frame F    restore the nearest keyframe at or before F and step to F: {"frame":F,"hash":"0x..."}

options:
  --world FILE   the world file, when the replay ran on a file that is not where it was
  --map FILE     the MAP of a Llama world
  --scenario S   the scenario module file the replay was recorded with (default: the recorded path; built-in
                 scenarios need none)
  --json         machine output (one JSON line)
`;

async function simulationFor(rp: Replay, o: ParsedArgs['options']): Promise<Simulation> {
  checkReplaySettings(rp.header);
  const worldPath = o['world'] as string | undefined;
  const mapPath = o['map'] as string | undefined;
  const src = rp.header.world.source;
  const read = (p: string) => readInputFile(p);
  let opened;
  if (src.startsWith('builtin:') && !worldPath) opened = await openBuiltinWorld(src.slice(8), read);
  else if (src.startsWith('file:') || worldPath) {
    const recorded = src.startsWith('file:') ? parseFileSource(src) : { path: '' };
    opened = await openWorldFile(worldPath ?? recorded.path, read, mapPath ?? recorded.mapPath);
  } else throw new UsageError(`the replay's world source ${JSON.stringify(src)} is unknown: give --world FILE`);
  const scenario = await scenarioFor(rp, o['scenario'] as string | undefined);
  return replaySimulation(rp.header, { world: opened, ...(scenario ? { scenario } : {}) });
}

/**
 * The scenario module to re-simulate with: --scenario FILE, else the file the replay recorded (when it is
 * still there); undefined for a built-in scenario.
 */
async function scenarioFor(rp: Replay, given: string | undefined): Promise<ScenarioDef | undefined> {
  if (given !== undefined) {
    if (BUILTIN_SCENARIOS.has(given)) return BUILTIN_SCENARIOS.get(given);
    return (await loadScenarioFile(given)).scenario;
  }
  const src = rp.header.scenario.source;
  if (!src.startsWith('file:')) return undefined;
  const path = src.slice(5);
  if (!existsSync(path)) {
    throw new UsageError(`the replay ran scenario ${rp.header.scenario.name} from ${path}, which is not there: give --scenario FILE`);
  }
  return (await loadScenarioFile(path)).scenario;
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
    });
    const [sub, file, ...rest] = positionals;
    if (!sub || !['info', 'export', 'verify', 'seek'].includes(sub)) throw new UsageError('expected a subcommand: info, export, verify or seek');
    if (!file) throw new UsageError(`replay ${sub} needs a FILE`);
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const rp = inFile(file, () => readReplay(readInputFile(file), BUTTON_MASK));
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
          print(`frames      ${rp.frames.count}, keyframe every ${rp.header.keyframeInterval} (${rp.keyframes.length} keyframes)`);
          print(`final hash  ${info['finalHash']}`);
        }
        return 0;
      }
      case 'export':
        printJson(replayToJson(rp, true));
        return 0;
      case 'verify': {
        const sim = await simulationFor(rp, o);
        const v = verifyReplay(rp, sim);
        const out = { ok: v.ok, frames: v.frames, finalHash: v.finalHash, framesPerSecond: Math.round(v.framesPerSecond * 10) / 10, divergence: v.divergence ?? null, warnings: v.warnings };
        if (json) printJson(out);
        else if (v.ok) print(`OK: ${v.frames} frames verified, final hash ${v.finalHash} (${out.framesPerSecond} frames/s)`);
        else {
          const d = v.divergence!;
          const rng = d.rng.map((r) => `${r.name} recorded ${r.recorded}, replayed ${r.replayed}`).join('; ');
          print(`DIVERGED at frame ${d.frame}: expected ${d.expected}, got ${d.actual}; differs in ${d.sections.join(', ') || '(no section)'}${rng ? `; RNG: ${rng}` : ''}`);
          if (d.detail) {
            print(`at the keyframe of frame ${d.detail.frame}, ${d.detail.total} value(s) differ${d.detail.total > d.detail.differences.length ? ` (first ${d.detail.differences.length})` : ''}:`);
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
        const sim = await simulationFor(rp, o);
        const r = seekReplay(rp, sim, frame);
        if (json) printJson({ frame: r.frame, hash: r.hash });
        else print(`frame ${r.frame}: hash ${r.hash} (from the keyframe at frame ${r.fromKeyframe})`);
        return 0;
      }
    }
    return 2;
  },
};
