/**
 * Where a piece of work spends its time: V8's sampling CPU profiler (node:inspector) around a function, the
 * samples summed into self time per function, heaviest first. WebAssembly functions appear under their own
 * names (the kernels' exports) or as `wasm-function[n]`. Used by the goals run (`retrosim bench --goals`) to
 * show, for each goal not met, what the time is spent on.
 */
import { Session } from 'node:inspector/promises';
import { basename } from 'node:path';

/** One function's share of a profile. */
export interface ProfileLine {
  /** The function's name ("(anonymous)" when it has none), with its file and line when it has them. */
  name: string;
  /** Self time in milliseconds: samples that were in this function itself, not in what it called. */
  selfMs: number;
  /** Self time as a share of the profile's sampled time, in percent. */
  percent: number;
}

/** A profile summed by function. */
export interface ProfileSummary {
  /** Milliseconds sampled. */
  totalMs: number;
  /** The heaviest functions by self time, at most the `top` asked for. */
  lines: ProfileLine[];
}

/** The part of V8's `Profiler.Profile` this summary reads. */
export interface V8Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** How a profile node is named in the summary: the function, and where it is ("file:line", 1-based). */
export function frameName(frame: V8Profile['nodes'][number]['callFrame']): string {
  const fn = frame.functionName || '(anonymous)';
  if (!frame.url) return fn;
  const file = basename(frame.url.replace(/^file:\/\//, ''));
  return `${fn} ${file}:${frame.lineNumber + 1}`;
}

/**
 * Sums a V8 CPU profile into self time per function name (nodes of the same function reached by different
 * call paths are added together), heaviest first, ties by name; at most `top` lines. "(idle)" samples are
 * left out of the total: they are time the thread waited, not work.
 */
export function summarizeProfile(profile: V8Profile, top = 12): ProfileSummary {
  const nameOf = new Map<number, string>();
  for (const node of profile.nodes) nameOf.set(node.id, frameName(node.callFrame));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const self = new Map<string, number>();
  let total = 0;
  // timeDeltas[i] is the time before sample i; the time of sample i is the delta that follows it.
  for (let i = 0; i < samples.length; i++) {
    const name = nameOf.get(samples[i]!) ?? '(unknown)';
    const us = Math.max(0, deltas[i + 1] ?? 0);
    if (name.startsWith('(idle)')) continue;
    total += us;
    self.set(name, (self.get(name) ?? 0) + us);
  }
  const lines = [...self.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, top)
    .map(([name, us]) => ({ name, selfMs: us / 1000, percent: total > 0 ? (100 * us) / total : 0 }));
  return { totalMs: total / 1000, lines };
}

/** Runs `work` under V8's CPU profiler (samples every 100 µs) and returns the summary. */
export async function profileCpu(work: () => void | Promise<void>, top = 12): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    let stopped: { profile: V8Profile };
    try {
      await work();
    } finally {
      stopped = (await session.post('Profiler.stop')) as { profile: V8Profile };
      await session.post('Profiler.disable');
    }
    return summarizeProfile(stopped.profile, top);
  } finally {
    session.disconnect();
  }
}

/** The summary as text lines, indented. */
export function formatProfile(title: string, p: ProfileSummary): string[] {
  const out = [`  ${title} (${p.totalMs.toFixed(0)} ms sampled, self time):`];
  for (const l of p.lines) out.push(`    ${l.percent.toFixed(1).padStart(5)} %  ${l.selfMs.toFixed(1).padStart(8)} ms  ${l.name}`);
  return out;
}
