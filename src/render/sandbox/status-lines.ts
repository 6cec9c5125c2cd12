/**
 * What the side panel says of the session, without any DOM. Up front, in plain words: the world (and its
 * weather) and what the session does (live, recording, a replay and whether every frame matches). One click
 * away, in the determinism panel: the numbers that prove a run is the same run (frame, hash, draw counts) and
 * the page's costs. Falling behind is a quiet note for an indicator, not an alarm: the simulation stays exact,
 * only its pace on screen is slower.
 */
import type { ClockReport } from '../scene/sim-clock.js';
import { speedLabel } from '../scene/timeline.js';
import { weatherCounts, type FieldAmbience } from '../scene/weather-look.js';

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
  /** The last render's cost on the CPU (the renderer's submission of the frame), milliseconds. */
  renderMs: number;
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

/** A rate as a speed: 0.8×, 0.33×, 2× (at most two decimals, none trailing). */
export function rateLabel(rate: number): string {
  return `${Number(Math.max(0, rate).toFixed(2))}×`;
}

/** Below this share of the time between animation frames, the page's own work is not why it falls behind. */
export const OWN_WORK_SHARE = 0.5;

/**
 * Why the game falls behind, in words: the part of the page's work per animation frame that costs most (the
 * simulation's steps, building the picture, rendering it), or, when all of its work takes under half the time
 * between animation frames, the browser, which gives the page too few of them.
 */
export function behindCause(s: Pick<StatusInput, 'stepMs' | 'drawMs' | 'renderMs' | 'clock'>): string {
  const steps = s.stepMs * Math.max(1, s.clock.ranPerFrame);
  const parts: [string, number][] = [
    ['the simulation', steps],
    ['drawing the picture', s.drawMs],
    ['rendering it', s.renderMs],
  ];
  const work = parts.reduce((a, [, ms]) => a + ms, 0);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  if (!(work >= OWN_WORK_SHARE * s.clock.frameMs)) return `the browser gives the page a frame only every ${ms(s.clock.frameMs)} (the page's own work takes ${ms(work)}: a busy machine, or a tab in the background)`;
  const [what, most] = parts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `${what} takes ${ms(most)} of each ${ms(s.clock.frameMs)} frame`;
}

/** How the game keeps pace: paused, at its speed, or slower than asked (with how far, and why when `cause` is given). */
export function paceLine(paused: boolean, speed: number, rep: ClockReport, cause?: string): string {
  const s = speedLabel(speed);
  if (paused) return 'paused';
  if (rep.behind) return `running at ${rateLabel(rep.ratio * speed)} of ${s} (${rep.achieved.toFixed(0)} of ${rep.target.toFixed(0)} frames/s)${cause ? `: ${cause}` : ''}`;
  return `game speed ${s} (${rep.achieved.toFixed(0)} frames/s)`;
}

/** The behind indicator's tooltip when the machine cannot keep the asked speed (with why, when `cause` is given); null when it keeps up (or is paused). */
export function behindNote(paused: boolean, speed: number, rep: ClockReport, cause?: string): string | null {
  if (paused || !rep.behind) return null;
  const asked = speed === 1 ? '' : ` (asked ${speedLabel(speed)})`;
  return `running at ${rateLabel(rep.ratio * speed)}${asked} — the machine cannot keep up${cause ? `: ${cause}` : ''}`;
}

/**
 * What the session does: a replay (every frame matches, or where it desyncs), or live (the page always records
 * the live run, so "recording" would say nothing).
 */
export function sessionLine(s: Pick<StatusInput, 'mode' | 'recording' | 'divergence' | 'check' | 'replayLength'>): string {
  if (s.mode === 'replay') {
    if (s.divergence >= 0) return `replay: DESYNC at frame ${s.divergence}`;
    return `replay: every frame matches${s.check && !s.check.done ? ` (checked ${s.check.frame} of ${s.replayLength})` : ''}`;
  }
  return 'live';
}

/** The world shown, and its weather and time of day when it has them. */
export function worldLine(s: Pick<StatusInput, 'world' | 'ambience'>): string {
  const amb = s.ambience;
  return `${s.world.kind} · ${s.world.name}${amb ? ` · ${amb.weather}, ${amb.time}${amb.traveller ? `, ${amb.traveller}` : ''}` : ''}`;
}

/** The panel's plain words: the world, and what the session does (a desync is the one alarm). */
export interface StatusSummary {
  world: string;
  session: string;
  alarm: boolean;
}

export function statusSummary(s: StatusInput): StatusSummary {
  return { world: worldLine(s), session: [sessionLine(s), s.paused ? 'paused' : ''].filter(Boolean).join(' · '), alarm: s.mode === 'replay' && s.divergence >= 0 };
}

/** One row of the determinism panel: a label and its value (`alarm`: a replay that desyncs). */
export interface DeterminismRow {
  label: string;
  value: string;
  alarm?: true;
}

/**
 * The determinism panel's rows: the numbers of the run, then its pace (with why it is behind: `cause`, or
 * `behindCause` of these figures) and the page's costs.
 */
export function determinismRows(s: StatusInput, cause?: string): DeterminismRow[] {
  const rows: DeterminismRow[] = [
    { label: 'frame', value: `${s.frame}${s.mode === 'replay' ? ` / ${s.replayLength}` : ''}` },
    { label: 'hash', value: s.hash },
    { label: 'fieldrand', value: String(s.fieldrand) },
    { label: 'ccRand', value: String(s.ccrand) },
    { label: 'agents', value: String(s.agents) },
  ];
  const session: DeterminismRow = { label: 'session', value: sessionLine(s) };
  if (s.mode === 'replay' && s.divergence >= 0) session.alarm = true;
  rows.push(session);
  rows.push({ label: 'pace', value: paceLine(s.paused, s.speed, s.clock, s.clock.behind ? (cause ?? behindCause(s)) : undefined) });
  rows.push({ label: 'page', value: `${s.fps.toFixed(0)} fps · step ${s.stepMs.toFixed(1)} ms · draw ${s.drawMs.toFixed(1)} ms · render ${s.renderMs.toFixed(1)} ms` });
  const weather = s.weather ? weatherCounts(s.weather).map((w) => `${w.label} ×${w.count}`).join(', ') : '';
  if (weather) rows.push({ label: 'weather drawn', value: weather });
  return rows;
}
