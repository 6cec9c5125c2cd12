/**
 * Every key, mouse and touch action of the sandbox, in one table: the help overlay lists it and the page's key
 * handler dispatches on it, so the two cannot disagree. The simulation's own keys (walk, turn, action, jump)
 * are the buttons of keyboard.ts; they are listed here too. No DOM here: Node tests read the table.
 */

/** What a page key does (the simulation's keys are not actions: they become buttons). */
export type PageAction =
  | 'help'
  | 'close'
  | 'pause'
  | 'step-forward'
  | 'step-back'
  | 'slower'
  | 'faster'
  | 'first-frame'
  | 'last-frame'
  | 'zoom-in'
  | 'zoom-out'
  | 'overview'
  | 'follow'
  | 'legend'
  | 'heat'
  | 'rays'
  | 'overlay'
  | 'mute'
  | 'walk-mode';

export interface Shortcut {
  /** The keys as shown. */
  keys: string;
  /** What it does. */
  does: string;
  /** KeyboardEvent.key values that trigger it (page actions), empty for the simulation's keys, the mouse and touch. */
  match: readonly string[];
  action?: PageAction;
  group: 'play' | 'view' | 'replay' | 'mouse' | 'touch' | 'page';
  /** Listed in the help under a combined row instead of its own (e.g. "[" and "]" as "[ / ]"). */
  unlisted?: true;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { group: 'play', keys: 'W / ↑', does: "walk forward, the way the player faces (not up the screen; G for that)", match: [] },
  { group: 'play', keys: 'S / ↓', does: 'walk back, away from where the player faces', match: [] },
  { group: 'play', keys: 'A / ←, D / →', does: 'turn left, right', match: [] },
  { group: 'play', keys: 'G', does: 'walk relative to the screen on or off: ↑ up the screen, ← left, and so on (the chip with an arrow on a screen, in the bar)', match: ['g', 'G'], action: 'walk-mode' },
  { group: 'play', keys: 'Space', does: 'Action', match: [] },
  { group: 'play', keys: 'J', does: 'Jump', match: [] },
  { group: 'play', keys: 'P', does: 'pause or play (live and replays)', match: ['p', 'P'], action: 'pause' },
  { group: 'replay', keys: '.', does: 'one frame forward', match: ['.'], action: 'step-forward' },
  { group: 'replay', keys: ',', does: 'one frame back (replays)', match: [','], action: 'step-back' },
  { group: 'replay', keys: '[ / ]', does: 'slower / faster (0.25× to 8×)', match: [] },
  { group: 'replay', keys: '[', does: 'slower', match: ['['], action: 'slower', unlisted: true },
  { group: 'replay', keys: ']', does: 'faster', match: [']'], action: 'faster', unlisted: true },
  { group: 'replay', keys: 'Home / End', does: 'first / last frame of the replay', match: [] },
  { group: 'replay', keys: 'Home', does: 'first frame', match: ['Home'], action: 'first-frame', unlisted: true },
  { group: 'replay', keys: 'End', does: 'last frame', match: ['End'], action: 'last-frame', unlisted: true },
  { group: 'view', keys: '+ / −', does: 'zoom in / out (about the centre)', match: [] },
  { group: 'view', keys: '+', does: 'zoom in', match: ['+', '='], action: 'zoom-in', unlisted: true },
  { group: 'view', keys: '−', does: 'zoom out', match: ['-', '_'], action: 'zoom-out', unlisted: true },
  { group: 'view', keys: '0', does: 'the whole world again (overview)', match: ['0'], action: 'overview' },
  { group: 'view', keys: 'F', does: 'follow the selected entity (or the player)', match: ['f', 'F'], action: 'follow' },
  { group: 'view', keys: 'V', does: 'the visibility heat map on or off', match: ['v', 'V'], action: 'heat' },
  { group: 'view', keys: 'R', does: 'sight rays: off, few, many, all', match: ['r', 'R'], action: 'rays' },
  { group: 'view', keys: 'O', does: 'the overlay on or off', match: ['o', 'O'], action: 'overlay' },
  { group: 'view', keys: 'N / Shift+N', does: 'point at the next / previous entity in view (an orange ring; the map has the keys: Tab to it)', match: [] },
  { group: 'view', keys: 'Enter', does: 'inspect the entity pointed at', match: [] },
  { group: 'page', keys: 'L', does: 'the legend on or off', match: ['l', 'L'], action: 'legend' },
  { group: 'page', keys: 'M', does: 'sound on or off', match: ['m', 'M'], action: 'mute' },
  { group: 'page', keys: '? / H', does: 'this help', match: ['?', 'h', 'H'], action: 'help' },
  { group: 'page', keys: 'Esc', does: 'close the help; stop choosing where to send the agent; clear the selection; on a menu or button, the keys back to the map', match: ['Escape'], action: 'close' },
  { group: 'mouse', keys: 'wheel', does: 'zoom about the cursor', match: [] },
  { group: 'mouse', keys: 'drag', does: 'pan (stops following)', match: [] },
  { group: 'mouse', keys: 'hover', does: 'the point under the cursor and the ground there, in the inspector', match: [] },
  { group: 'mouse', keys: 'click', does: 'inspect the entity or the tile under the cursor', match: [] },
  { group: 'mouse', keys: 'Shift+click', does: 'send the selected agent there by the world\'s navigation; its planned path is drawn in purple (in the "navigate" scenario: scenario=navigate in the address; or the inspector\'s "Send it somewhere", then a click)', match: [] },
  { group: 'mouse', keys: 'click the overview', does: 'jump there', match: [] },
  { group: 'mouse', keys: 'drop files', does: 'open a world, a TRAK with its MAP, a COL with its placements, or a replay', match: [] },
  { group: 'touch', keys: 'one finger', does: 'pan (stops following)', match: [] },
  { group: 'touch', keys: 'two fingers', does: 'pinch to zoom about the point between them', match: [] },
  { group: 'touch', keys: 'tap', does: 'inspect the entity or the tile under the finger (after the inspector\'s "Send it somewhere": send the selected agent there)', match: [] },
];

/** The page action a KeyboardEvent.key triggers, if any. */
export function actionForKey(key: string): PageAction | undefined {
  for (const s of SHORTCUTS) if (s.action && s.match.includes(key)) return s.action;
  return undefined;
}

/** The rows the help overlay shows (combined rows such as "[ / ]" instead of their single-key parts). */
export function helpRows(): Shortcut[] {
  return SHORTCUTS.filter((s) => !s.unlisted);
}
