/**
 * What a room plays, from the page's side: the config a room created from the page gives (the world and the
 * settings on screen, with the seats chosen), whether the others can open that world (a catalog world: yes;
 * a file: only if they open the same bytes), which world a joining page must open for a room's config, and
 * the simulation a config builds on a world (checked as a replay's header is). No DOM here.
 */
import type { NetplayConfig } from '../../netplay/protocol.js';
import type { ReplayHeader } from '../../replay/format.js';
import { replaySimulation } from '../../replay/rebuild.js';
import type { OpenedWorld, WorldIdentity } from '../../replay/world-identity.js';
import type { ScenarioIdentity, ScenarioSettings } from '../../sim/scenario.js';
import type { Simulation } from '../../sim/simulation.js';
import { entryForSource } from './world-catalog.js';

/** Frames between a room's keyframes (what a spectator joining late starts from). */
export const ROOM_KEYFRAME_INTERVAL = 600;
/** Frames between the checksums the players exchange. */
export const ROOM_CHECK_INTERVAL = 10;
/** Frames between a key press and the frame it acts on. */
export const ROOM_INPUT_DELAY = 2;

/** The world and settings on screen. */
export interface ShownRun {
  world: WorldIdentity;
  scenario: ScenarioIdentity;
  settings: ScenarioSettings;
}

/** The config of a room of `players` seats playing what is on screen. */
export function roomConfig(shown: ShownRun, players: number): NetplayConfig {
  if (!Number.isInteger(players) || players < 2 || players > 4) throw new RangeError(`players must be 2..4, got ${players}`);
  const settings = { ...shown.settings, params: { ...shown.settings.params }, players };
  return { world: { ...shown.world }, scenario: { ...shown.scenario }, settings, keyframeInterval: ROOM_KEYFRAME_INTERVAL, checkInterval: ROOM_CHECK_INTERVAL, inputDelay: ROOM_INPUT_DELAY };
}

/** What the others need to join a room on `world`: '' for a catalog world, else a sentence naming the file and its hash. */
export function shareNote(world: WorldIdentity): string {
  if (entryForSource(world.source)) return '';
  const name = world.source.replace(/^file:/, '');
  return `This world is your file ${name}: the others can join only after opening the same file (${world.byteLength} bytes, content hash ${world.contentHash}).`;
}

/** Where a joining page finds a room's world: a catalog world by id, or the file shown if it has the same bytes. */
export type RoomWorld = { kind: 'catalog'; id: string } | { kind: 'shown' };

/** The world to open for `config`, or a one-line reason why this page cannot (`shown`: the world on screen now). */
export function roomWorld(config: NetplayConfig, shown: WorldIdentity | null): RoomWorld {
  const w = config.world;
  const e = entryForSource(w.source);
  if (e) return { kind: 'catalog', id: e.id };
  if (shown && shown.contentHash === w.contentHash && shown.byteLength === w.byteLength && shown.kind === w.kind) return { kind: 'shown' };
  const name = w.source.replace(/^file:/, '');
  throw new Error(`the room plays ${name} (${w.kind}, ${w.byteLength} bytes, content hash ${w.contentHash}), which this page does not have: open that file first, then join`);
}

/** The simulation of a room's config on `opened` (a fresh world): the world, the scenario and the settings checked as a replay's header. */
export function buildRoomSimulation(config: NetplayConfig, opened: OpenedWorld): Simulation {
  const header: ReplayHeader = { formatVersion: 4, runtime: '', world: config.world, scenario: config.scenario, settings: config.settings, keyframeInterval: config.keyframeInterval, sections: [] };
  return replaySimulation(header, { world: opened });
}
