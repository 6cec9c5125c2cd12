/**
 * A link's moment brought back: the page opening a live or paused view's link fast-forwards the fresh
 * simulation to the link's frame (in slices, so that the page can show its progress and stay responsive) and
 * compares the state hash there with the one in the link.
 *
 * What a link can restore: the simulation is deterministic given its settings and its inputs. A link carries
 * the settings, and for a view steered with the keys the buttons of every frame up to its own (compressed in
 * its fragment, see link-inputs.ts): the page steps with them (or with no keys held, when the link carries
 * none), so the view comes back exactly, with the same hash. A steered run too long for a link is linked
 * without its inputs: it comes back as the same world and settings at the same frame without keys, and the
 * page says so, with both hashes. A hash that differs is never shown as if it matched. (A replay's link
 * restores its frame from the replay file, which holds the inputs.)
 *
 * No DOM here: Node tests run it on real sessions.
 */
import type { PendingMoment } from './link-state.js';

/** What fast-forwarding needs of a session (a SandboxSession in live mode). */
export interface SteppedSession {
  readonly frame: number;
  readonly hash: string;
  stepLive(buttons: number): unknown;
}

/** How a fast-forward paces itself. */
export interface FastForwardPacing {
  /** Milliseconds now (for the slices' length only: nothing of it reaches the simulation). */
  now(): number;
  /** Gives the page a turn (an animation frame or a task) between slices. */
  pause(): Promise<void>;
  /** Frames done of the total, after each slice that did not finish. */
  progress(done: number, total: number): void;
  /** True when the fast-forward should stop (another world opened, the user cancelled). */
  stopped(): boolean;
}

/** Milliseconds of stepping per slice before the page gets a turn. */
export const SLICE_MS = 40;

/**
 * Steps `s` until its frame is `target` (or `stopped()`), with the buttons `inputs` gives for each frame
 * (`inputs[f − 1]` for frame f; none: no keys); resolves to the frame reached. Progress is reported after each
 * slice that leaves frames to go, so a short fast-forward shows none.
 */
export async function fastForward(s: SteppedSession, target: number, p: FastForwardPacing, inputs?: ArrayLike<number>): Promise<number> {
  const start = s.frame;
  const buttons = (f: number): number => (inputs && f < inputs.length ? inputs[f]! : 0);
  while (s.frame < target) {
    if (p.stopped()) return s.frame;
    const t0 = p.now();
    do s.stepLive(buttons(s.frame));
    while (s.frame < target && p.now() - t0 < SLICE_MS);
    if (s.frame < target) {
      p.progress(s.frame - start, target - start);
      await p.pause();
    }
  }
  return s.frame;
}

/** The banner's text while fast-forwarding. */
export function progressText(frame: number, done: number, total: number): string {
  return `Fast-forwarding to frame ${frame} of the link: ${Math.floor((100 * done) / Math.max(1, total))}% (open another world to stop)`;
}

/** The outcome of a link's moment, for the banner and the page's state. */
export interface MomentOutcome {
  frame: number;
  /** The hash reached here. */
  hash: string;
  /** The link's hash (null: the link gave none). */
  linkHash: string | null;
  /** Whether the hashes agree (null: nothing to compare). */
  matches: boolean | null;
  /** The banner's note ('' none). */
  note: string;
  /** The note is an error: the same inputs gave another state (the page is not the one that wrote the link). */
  isError: boolean;
}

/** What reaching `frame` with `hash` means for the link's moment `m`. */
export function momentOutcome(m: PendingMoment, frame: number, hash: string): MomentOutcome {
  const base = { frame, hash, linkHash: m.hash ?? null };
  if (frame !== m.frame) return { ...base, matches: null, note: `Stopped at frame ${frame}, before the link's frame ${m.frame}.`, isError: false };
  if (m.hash === undefined) return { ...base, matches: null, note: `Opened at frame ${frame}, paused (the link gives no hash to check it against).`, isError: false };
  if (m.hash === hash)
    return { ...base, matches: true, note: `Opened at frame ${frame}, paused: the state hash ${hash} is the link's${m.inputs ? ' (the keys held in that run came with the link)' : ''}.`, isError: false };
  if (m.keys && !m.inputs)
    return {
      ...base,
      matches: false,
      note: `This link was copied from a view steered with the keys, and carries none of them (a run with too many keys for a link goes without them): it restores the world, the settings and frame ${frame} of the run without keys, so the state differs (hash ${hash} here, ${m.hash} in the view copied). To share such a run exactly, save its replay (Save) and share the file.`,
      isError: false,
    };
  return { ...base, matches: false, note: `the state at frame ${frame} has hash ${hash}, not the link's ${m.hash}: this page does not reproduce the view the link was copied from`, isError: true };
}

/** The note of a link to a file's view, while the page waits for that file. */
export function fileWaitText(file: string, m: PendingMoment | null): string {
  return `This view was of your file ${file}: drop it here to open it${m ? ` at frame ${m.frame}` : ''}.`;
}
