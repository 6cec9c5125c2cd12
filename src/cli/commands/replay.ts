/**
 * `retrosim replay info|export|verify|seek FILE`: read, check, re-simulate and seek replays.
 */
import { parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { print, printJson, readInputFile } from '../io.js';
import { readReplay, replayToJson, type Replay } from '../../replay/format.js';
import { BUTTON_MASK } from '../../systems/input.js';
import { checkWorldIdentity, openBuiltinWorld, openWorldFile, parseFileSource } from '../../sim/default-scenario.js';
import { checkReplaySettings, seekReplay, verifyReplay } from '../../replay/replay.js';
import { Simulation } from '../../sim/simulation.js';

const usage = `usage: retrosim replay <info|export|verify|seek> FILE [options]

  info FILE              the header: world, seeds, settings, frames, keyframes, final hash
  export FILE            the whole replay as JSON (every frame's input, hash, RNG counts, section hashes)
  verify FILE            re-simulate from the settings and inputs; exit 0 when every frame's hash matches,
                         exit 1 with the first divergent frame, the sections and RNG counters that differ
  seek FILE --frame F    restore the nearest keyframe at or before F and step to F: {"frame":F,"hash":"0x..."}

options:
  --world FILE   the world file, when the replay ran on a file that is not where it was
  --map FILE     the MAP of a Llama world
  --json         machine output (one JSON line)
`;

async function simulationFor(rp: Replay, worldPath: string | undefined, mapPath: string | undefined): Promise<Simulation> {
  const settings = checkReplaySettings(rp.header);
  const src = rp.header.world.source;
  const read = (p: string) => readInputFile(p);
  let opened;
  if (src.startsWith('builtin:') && !worldPath) opened = await openBuiltinWorld(src.slice(8), read);
  else if (src.startsWith('file:') || worldPath) {
    const recorded = src.startsWith('file:') ? parseFileSource(src) : { path: '' };
    opened = await openWorldFile(worldPath ?? recorded.path, read, mapPath ?? recorded.mapPath);
  } else throw new UsageError(`the replay's world source ${JSON.stringify(src)} is unknown: give --world FILE`);
  checkWorldIdentity(rp.header.world, opened.identity);
  // Importing default-scenario registered the shipped scenarios, so the recorded one can be rebuilt.
  return new Simulation(opened.world, settings);
}

export const command: Command = {
  summary: 'inspect, export, verify or seek a replay file',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      frame: { type: 'int', min: 0 },
      world: { type: 'string' },
      map: { type: 'string' },
      json: { type: 'flag' },
    });
    const [sub, file, ...rest] = positionals;
    if (!sub || !['info', 'export', 'verify', 'seek'].includes(sub)) throw new UsageError('expected a subcommand: info, export, verify or seek');
    if (!file) throw new UsageError(`replay ${sub} needs a FILE`);
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const rp = readReplay(readInputFile(file), BUTTON_MASK);
    const json = o['json'] === true;
    switch (sub) {
      case 'info': {
        const info = replayToJson(rp, false);
        if (json) printJson(info);
        else {
          const w = rp.header.world;
          print(`replay      format ${rp.header.formatVersion}, written by ${rp.header.runtime}`);
          print(`world       ${w.source} (${w.kind} "${w.name}", ${w.byteLength} bytes, ${w.contentHash})`);
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
        const sim = await simulationFor(rp, o['world'] as string | undefined, o['map'] as string | undefined);
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
        const sim = await simulationFor(rp, o['world'] as string | undefined, o['map'] as string | undefined);
        const r = seekReplay(rp, sim, frame);
        if (json) printJson({ frame: r.frame, hash: r.hash });
        else print(`frame ${r.frame}: hash ${r.hash} (from the keyframe at frame ${r.fromKeyframe})`);
        return 0;
      }
    }
    return 2;
  },
};
