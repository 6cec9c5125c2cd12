/**
 * `retrosim run`: the main job. Runs the default scenario (or --world ID|FILE) for --frames frames with the
 * stand-in player's buttons, writes a replay, and prints a summary.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs, parseThreads, parseWasmMode, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { printJson, print, readInputFile, writeOutputFile } from '../io.js';
import { DEFAULT_KEYFRAME_INTERVAL } from '../../replay/format.js';
import { DEFAULT_WORLD } from '../../worlds/builtin.js';
import { BUILTIN_SCENARIOS, createSimulation, defaultSettingsFor, scenarioForWorld, simulationFromSettings } from '../../scenarios/builtin.js';
import { scenarioIdentity } from '../../scenarios/identity.js';
import { loadScenarioFile, scenarioSealedUrl } from '../../node/scenario-file.js';
import { parseSets } from '../scenario-sets.js';
import { ParamError } from '../../sim/params.js';
import { openBuiltinWorld, openNamedWorld } from '../../node/open-world.js';
import { type OpenedWorldSource } from '../../node/open-world.js';
import { autoThreads, MAX_SYSTEM_THREADS, SystemPool } from '../../node/system-pool.js';
import { availableParallelism } from 'node:os';
import { demoButtons } from '../../sim/demo-input.js';
import { ReplayRecorder } from '../../replay/recorder.js';
import { MAX_AGENTS, MAX_PLAYERS, ScenarioError, type ScenarioDef, type ScenarioSettings } from '../../sim/scenario.js';
import { Simulation } from '../../sim/simulation.js';
import { SyncTest } from '../../sim/synctest.js';

const usage = `usage: retrosim run [options]

Runs a simulation headless: the default scenario is the generated Piney field of the built-in world
piney-default (assets/worlds/piney/default.field.json) with its weather, a player and wandering agents.

options:
  --frames N        frames to run (default 3600)
  --agents N        wandering agents (default 300); a scenario that places its own and never reads this
                    number records (and reports) the wandering agents it placed instead
  --players N       players, 1..4 (default 1; at most the scenario's own number, 4 for the built-in ones):
                    player 0 presses the stand-in buttons, the others stand idle; with 2 or more the replay
                    records every player's input (format 4)
  --world W         run on a built-in world (piney-default, rugrats-demo, llama-demo, gta-town, ...: see
                    docs/worlds.md) or any supported world file instead (Piney field spec, COLBIN, GTA
                    COL, Rugrats COL, Llama TRAK with --map); a file of a
                    built-in id's name in the current folder is taken as that file
  --scenario S      a built-in scenario (wander, piney-field, navigate) or a scenario module file (.mjs/.js) of your own
  --set KEY=VALUE   a scenario parameter (repeat for several); its type and bounds are the scenario's.
                    wander (the scenario of every world but a Piney field) takes goers=N: N of the agents
                    walk between places by navigation instead of wandering (default 0, the run as it was)
  --map FILE        the MAP file of a Llama world
  --seed TEXT       master seed of the named random streams (default "retrosim")
  --field-seed N    fieldrand seed (default: the field's own seed, else 0x1234)
  --cc-init N       ccRand init count (draws discarded after seeding, default 0)
  --out FILE        replay file (default out/default.replay)
  --no-replay       do not write a replay
  --keyframes N     keyframe interval in frames (default 600)
  --threads N|auto  threads for the systems' range kernels (wander, controller, movement are split across
                    worker threads): every hash, draw, event and replay is the same for any N. auto, the
                    default, takes 1 for small runs (under 10,000 agents or 10 million agent-frames), else
                    the machine's cores up to 4
  --wasm off|on|auto  whether the world's line-of-sight walks run in WebAssembly where it has kernels (the
                    Piney field, GTA scenes that walk their placements in order, Rugrats levels; and the
                    pair walk over agents on them): on fails when this engine cannot compile them; auto, the
                    default, takes each where it was measured faster (the Piney cast on V8 and SpiderMonkey,
                    the others on V8, SpiderMonkey and JavaScriptCore). Every hash is the same either way
  --synctest N      re-simulate the last N frames every frame and compare hashes (slow; exit 1 on a desync)
  --json            print the summary as one JSON line
`;

export const command: Command = {
  summary: 'run the default scenario (or --world ID|FILE) headless, write a replay, print a summary',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      frames: { type: 'int', min: 0, max: 10_000_000 },
      agents: { type: 'int', min: 0, max: MAX_AGENTS },
      players: { type: 'int', min: 1, max: MAX_PLAYERS },
      world: { type: 'string' },
      map: { type: 'string' },
      scenario: { type: 'string' },
      set: { type: 'list' },
      seed: { type: 'string' },
      'field-seed': { type: 'int', min: 0, max: 0xffffffff },
      'cc-init': { type: 'int', min: 0, max: 100_000_000 },
      out: { type: 'string' },
      'no-replay': { type: 'flag' },
      keyframes: { type: 'int', min: 1, max: 1 << 20 },
      synctest: { type: 'int', min: 1, max: 1024 },
      threads: { type: 'string' },
      wasm: { type: 'string' },
      json: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const frames = (o['frames'] as number | undefined) ?? 3600;
    const read = (p: string) => readInputFile(p);
    const open = (): Promise<OpenedWorldSource> =>
      o['world'] ? openNamedWorld(o['world'] as string, read, o['map'] as string | undefined) : openBuiltinWorld(DEFAULT_WORLD, read);
    const wasmMode = parseWasmMode(o['wasm'] as string | undefined);
    const opened = await open();
    const wasm = opened.world.setWasm?.(wasmMode) ?? false;
    opened.source = { ...opened.source, options: { ...opened.source.options, wasm: wasmMode } };
    const scenario = await resolveScenario(o['scenario'] as string | undefined, opened.world);
    const over: Partial<ScenarioSettings> = {};
    if (o['agents'] !== undefined) over.agents = o['agents'] as number;
    if (o['players'] !== undefined) over.players = o['players'] as number;
    if (o['seed'] !== undefined) over.streamSeed = o['seed'] as string;
    if (o['field-seed'] !== undefined) over.fieldSeed = o['field-seed'] as number;
    if (o['cc-init'] !== undefined) over.ccRandInit = o['cc-init'] as number;
    over.params = parseSets(scenario, (o['set'] as string[] | undefined) ?? []);
    const threads = parseThreads(o['threads'] as string | undefined, MAX_SYSTEM_THREADS) ?? autoThreads(defaultSettingsFor(opened.world, over).agents, frames, availableParallelism());
    // The workers import the scenario's kernels from the sealed copy the scenario itself was loaded from.
    const sealed = scenarioSealedUrl(scenario);
    const pool = threads > 1 ? await SystemPool.create(opened.source, threads, sealed ? { kernelModules: [sealed] } : {}) : null;
    try {
      return await runWith(pool);
    } finally {
      await pool?.close();
    }

    async function runWith(pool: SystemPool | null): Promise<number> {
      let sim: Simulation;
      try {
        sim = createSimulation(opened.world, { ...over, scenario, ...(pool ? { threads: pool } : {}) });
      } catch (e) {
        if (e instanceof ParamError || e instanceof ScenarioError) throw new UsageError((e as Error).message);
        if ((e as Error).message?.startsWith('setting ')) throw new UsageError((e as Error).message);
        throw e;
      }
      const settings = sim.settings;
      const desyncs: string[] = [];
      sim.events.on('desync', (e) => desyncs.push(e.detail));
      const events = { sound: 0, flash: 0, exit: 0, death: 0, desync: 0, signal: 0 };
      const signals: Record<string, number> = {};
      sim.events.on('*', (type) => void (events[type as keyof typeof events] += 1));
      sim.events.on('signal', (e) => void (signals[e.name] = (signals[e.name] ?? 0) + 1));
      const writeReplay = !o['no-replay'];
      const outPath = (o['out'] as string | undefined) ?? 'out/default.replay';
      const interval = (o['keyframes'] as number | undefined) ?? DEFAULT_KEYFRAME_INTERVAL;
      const rec = writeReplay ? new ReplayRecorder(sim, opened.identity, interval) : null;
      // The shadow gets its own world: a world's run-time state (e.g. Llama tile swaps) is restored with snapshots.
      const sync = o['synctest'] ? new SyncTest(sim, simulationFromSettings((await open()).world, settings, scenario, undefined, pool ?? undefined), o['synctest'] as number) : null;

      const bar = process.stderr.isTTY ? new ProgressBar(frames) : null;
      const t0 = performance.now();
      // Player 0 presses the stand-in buttons; a number leaves the other players' words 0 (idle).
      for (let f = 1; f <= frames; f++) {
        const b = demoButtons(f);
        if (rec) rec.step(b);
        else sim.step(b);
        sync?.check();
        bar?.update(f);
      }
      const seconds = (performance.now() - t0) / 1000;
      bar?.done();

      let replay: { path: string; bytes: number; keyframeInterval: number } | null = null;
      if (rec) {
        const bytes = rec.finish();
        mkdirSync(dirname(outPath), { recursive: true });
        writeOutputFile(outPath, bytes);
        replay = { path: outPath, bytes: bytes.length, keyframeInterval: interval };
      }
      const draws = sim.scheduler.drawCounts();
      const streams: Record<string, number> = {};
      for (const s of sim.rng.streams.save().streams) streams[s.name] = s.draws;
      const summary = {
        world: opened.identity,
        scenario: scenarioIdentity(scenario),
        settings,
        agents: sim.agentsPlaced,
        threads,
        wasm,
        frames,
        seconds: round(seconds, 3),
        framesPerSecond: round(seconds > 0 ? frames / seconds : 0, 1),
        finalHash: sim.hashHex(),
        draws: { fieldrand: draws.fieldrand, ccrand: draws.ccrand, streams },
        replay,
        events,
        signals,
        synctest: sync ? { depth: sync.depth, checkedFrames: sync.checkedFrames, failures: sync.failures } : null,
        desyncs,
      };
      if (o['json']) printJson(summary);
      else {
        print(`world       ${opened.identity.source} (${opened.world.kind}, ${opened.identity.contentHash})`);
        const params = Object.entries(settings.params).map(([k, v]) => `${k}=${String(v)}`).join(' ');
        print(`scenario    ${settings.scenario} ${scenario.version}: ${sim.agentsPlaced} agents, stream seed ${JSON.stringify(settings.streamSeed)}, fieldSeed ${settings.fieldSeed}${params ? `, ${params}` : ''}`);
        print(`frames      ${frames} in ${summary.seconds} s (${summary.framesPerSecond} frames/s${threads > 1 ? `, ${threads} threads` : ''}${wasm ? ', line of sight in WebAssembly' : ''})`);
        print(`final hash  ${summary.finalHash}`);
        print(`draws       fieldrand ${draws.fieldrand}, ccRand ${draws.ccrand}, ${Object.entries(streams).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        print(`events      ${Object.entries(events).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        if (events.signal) print(`signals     ${Object.entries(signals).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        if (replay) print(`replay      ${replay.path} (${replay.bytes} bytes, keyframe every ${interval} frames)`);
        if (sync) print(`synctest    depth ${sync.depth}: ${sync.checkedFrames} frames checked, ${sync.failures.length ? `DESYNC at frame ${sync.failures[0]!.frame}${sync.failures[0]!.culprit ? `, system ${sync.failures[0]!.culprit} is not deterministic` : ""}` : 'no desync'}`);
      }
      return sync && sync.failures.length ? 1 : 0;
    }
  },
};

/** The scenario --scenario names: a built-in one by name, else a module file; the world's default when absent. */
async function resolveScenario(given: string | undefined, world: Simulation['world']): Promise<ScenarioDef> {
  if (given === undefined) return scenarioForWorld(world);
  if (BUILTIN_SCENARIOS.has(given)) return BUILTIN_SCENARIOS.get(given)!;
  if (!/[\\/.]/.test(given)) throw new UsageError(`--scenario ${given}: not a built-in scenario (${[...BUILTIN_SCENARIOS.keys()].join(', ')}) nor a module file path`);
  return (await loadScenarioFile(given)).scenario;
}

function round(v: number, digits: number): number {
  const k = 10 ** digits;
  return Math.round(v * k) / k;
}


/** A one-line progress bar on stderr (only when stderr is a terminal). */
class ProgressBar {
  private last = -1;
  constructor(private readonly total: number) {}
  update(n: number): void {
    const pct = this.total ? Math.floor((100 * n) / this.total) : 100;
    if (pct === this.last) return;
    this.last = pct;
    const width = 30;
    const filled = Math.round((width * pct) / 100);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% frame ${n}/${this.total}`);
  }
  done(): void {
    process.stderr.write('\n');
  }
}
