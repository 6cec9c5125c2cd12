/**
 * The status panel's lines, without any DOM: the world and its weather, the frame and the page's costs, the
 * pace (paused, the speed kept, or how far behind the machine falls), the determinism numbers (hash, draw
 * counts), and what the session does (live, recording, a replay and whether every frame matches).
 */
import type { ClockReport } from '../scene/sim-clock.js';
import { speedLabel } from '../scene/timeline.js';
import { weatherCounts, type FieldAmbience } from '../scene/weather-look.js';

/** The pace line when the machine cannot keep up starts with this (the panel shows it as a warning). */
export const BEHIND = 'BEHIND';

export interface StatusInput {
  world: { kind: string; name: string };
  ambience: Pick<FieldAmbience, 'weather' | 'time' | 'traveller'> | null;
  /** The weather drawn last, by name (null: none drawn). */
  weather: Readonly<Record<string, number>> | null;
  frame: number;
  mode: 'live' | 'replay';
  recording: boolean;
  replayLength: number;
  fps: number;
  stepMs: number;
  drawMs: number;
  paused: boolean;
  speed: number;
  clock: ClockReport;
  hash: string;
  fieldrand: number;
  ccrand: number;
  agents: number;
  /** The first divergent frame known (−1: none). */
  divergence: number;
  /** The replay's check ahead of playback (null: none). */
  check: { frame: number; done: boolean } | null;
}

/** How the game keeps pace: paused, at its speed, or behind (with how far). */
export function paceLine(paused: boolean, speed: number, rep: ClockReport): string {
  const s = speedLabel(speed);
  if (paused) return 'paused';
  if (rep.behind) return `${BEHIND}: the game runs at ${Math.round(rep.ratio * 100)}% of ${s} speed (${rep.achieved.toFixed(0)} of ${rep.target.toFixed(0)} frames/s): this machine cannot keep up`;
  return `game speed ${s} (${rep.achieved.toFixed(0)} frames/s)`;
}

/** What the session does: a replay (every frame matches, or where it desyncs), recording, or live. */
export function sessionLine(s: Pick<StatusInput, 'mode' | 'recording' | 'divergence' | 'check' | 'replayLength'>): string {
  if (s.mode === 'replay') {
    if (s.divergence >= 0) return `replay: DESYNC at frame ${s.divergence}`;
    return `replay: every frame matches${s.check && !s.check.done ? ` (checked ${s.check.frame} of ${s.replayLength})` : ''}`;
  }
  return s.recording ? 'recording' : 'live';
}

/** The panel's lines (empty ones left out). */
export function statusLines(s: StatusInput): string[] {
  const weather = s.weather ? weatherCounts(s.weather).map((w) => `${w.label} ×${w.count}`).join(', ') : '';
  const amb = s.ambience;
  return [
    `${s.world.kind}  ${s.world.name}${amb ? `  ·  ${amb.weather}, ${amb.time}${amb.traveller ? `, ${amb.traveller}` : ''}` : ''}`,
    `frame ${s.frame}${s.mode === 'replay' ? ` / ${s.replayLength}` : ''}   ${s.fps.toFixed(0)} fps   step ${s.stepMs.toFixed(1)} ms   draw ${s.drawMs.toFixed(1)} ms`,
    paceLine(s.paused, s.speed, s.clock),
    `hash ${s.hash}`,
    `fieldrand ${s.fieldrand}   ccRand ${s.ccrand}   agents ${s.agents}`,
    sessionLine(s),
    weather ? `weather: ${weather}` : '',
  ].filter(Boolean);
}
