/**
 * The view as a link: the query string holds the world, the scenario settings, the agent count, the camera's
 * centre and zoom, the selected entity, what is drawn, and the moment: the frame shown with its state hash (for
 * a loaded replay, also its name; for a world the user gave as a file, that file's name), so that pasting the
 * link opens the same view at the same frame. Parsing checks every parameter; a bad one is reported (for the
 * page's banner) and dropped, so the page falls back to its default for it (the default world, for a bad
 * world).
 *
 * The whole-number parameters are bounded by what the page can build and replay (`linkBounds`, read from the
 * simulation's own setting ranges and the runtime's limits, never copied), so a value the link accepts is one
 * the simulation accepts: a refused value is reported and dropped here, like any other bad value, rather than
 * refused later with no world to show.
 *
 * Pure string handling: Node tests check the round trip.
 */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { DEFAULT_SETTINGS, SETTING_RANGES } from '../../sim/scenario.js';
import { BUTTON_MASK } from '../../systems/input.js';
import { decodeInputs } from './link-inputs.js';

/** How many sight rays the view draws for the agents that are not selected. */
export const RAY_DENSITIES = ['off', 'few', 'many', 'all'] as const;
/** How many sight rays are drawn for the agents that are not selected: none, a few, many, all (up to 256). */
export type RayDensity = 'off' | 'few' | 'many' | 'all';

/**
 * The sandbox's rays when the link names none: off, so the first screen draws no lines until asked (R, or the
 * rays menu); a link of any other density says so.
 */
export const DEFAULT_RAYS: RayDensity = 'off';

/** Playback speeds a replay can run at. */
export const LINK_SPEEDS = [0.25, 0.5, 1, 2, 4, 8] as const;

export interface ViewLink {
  /** A catalog world's id. */
  world?: string;
  agents?: number;
  /** The scenario settings a link may set: the named streams' seed, ccRand's init count, fieldrand's seed. */
  streamSeed?: string;
  ccRandInit?: number;
  fieldSeed?: number;
  /** The scenario's own parameters, as text (`p.<name>=<value>`; the scenario checks them). */
  params: Record<string, string>;
  /**
   * The scenario the page runs on every world instead of the world's own: `LINK_SCENARIOS` (only "navigate",
   * where a Shift+click sends the selected agent somewhere).
   */
  scenario?: LinkScenario;
  /** The camera's centre in the world's two horizontal native coordinates (x then z, or x then y). */
  at?: [number, number];
  /** Screen pixels per metre. */
  zoom?: number;
  /** The selected entity's id. */
  sel?: number;
  /** The camera follows the selected entity (or the player). */
  follow?: boolean;
  /** A replay's file name and the frame it stands at. */
  replay?: string;
  /**
   * The frame shown: a replay's frame (with `replay`), else the frame of the live or paused run, which the
   * page opening the link fast-forwards to (stepping with no keys held).
   */
  frame?: number;
  /** The state hash at `frame` in the view the link was copied from ("0x" + 16 hex digits). */
  hash?: string;
  /** The view was steered with the keys (without `inputs`, the link reopens the run without keys). */
  keys?: boolean;
  /**
   * The buttons of frames 1..`frame` of a steered live run, encoded (link-inputs.ts), carried in the link's
   * fragment (`#in=...`): the page opening the link steps with them and reaches the same state hash.
   */
  inputs?: string;
  /** A world the user gave as a file: its name (opening the link asks for the file). */
  file?: string;
  speed?: number;
  heat?: boolean;
  rays?: RayDensity;
  overlay?: boolean;
  sight?: boolean;
  legend?: boolean;
  /** Carried as given: the renderer asked for, sound off, antialiasing on. */
  renderer?: 'webgl' | 'webgpu' | 'canvas';
  mute?: boolean;
  aa?: boolean;
}

/** The scenarios a link may choose (`scenario=`). */
export const LINK_SCENARIOS = ['navigate'] as const;
export type LinkScenario = (typeof LINK_SCENARIOS)[number];

/** The most a whole-number link parameter may be, and the limit that sets it (named in the banner). */
export interface LinkBound {
  max: number;
  /** Where `max` comes from, e.g. "limits.replay.ccRandInit". */
  limit: string;
}

/** The bounds of the link's whole-number parameters (each from 0). */
export interface LinkBounds {
  agents: LinkBound;
  ccRandInit: LinkBound;
  fieldSeed: LinkBound;
  /** The selected entity's id. */
  sel: LinkBound;
  /** A replay's frame. */
  frame: LinkBound;
}

/** The smallest of several bounds on one value (the first of equal ones). */
function tightest(...bounds: LinkBound[]): LinkBound {
  return bounds.reduce((a, b) => (b.max < a.max ? b : a));
}

/**
 * The bounds the sandbox's link is checked against: what its simulation accepts (`checkSettings`'s ranges,
 * with the entity capacity the page builds with, `DEFAULT_SETTINGS.capacity`) and what a replay recorded on
 * the page may ask of a re-simulation (`limits.replay`), since the page plays its own recordings back.
 */
export function linkBounds(limits: Readonly<Limits> = DEFAULT_LIMITS): LinkBounds {
  const R = SETTING_RANGES;
  const capacity = DEFAULT_SETTINGS.capacity;
  return {
    agents: tightest(
      { max: R.agents.max, limit: 'limits.agents' },
      { max: capacity - 2, limit: `the sandbox's entity capacity of ${capacity}, less the player and one spare` },
      { max: limits.replay.agents, limit: 'limits.replay.agents' },
    ),
    ccRandInit: tightest({ max: R.ccRandInit.max, limit: "the simulation's ccRandInit range" }, { max: limits.replay.ccRandInit, limit: 'limits.replay.ccRandInit' }),
    fieldSeed: { max: R.fieldSeed.max, limit: 'a 32-bit seed' },
    sel: { max: capacity - 1, limit: `the sandbox's entity capacity of ${capacity}` },
    frame: { max: limits.replay.frames, limit: 'limits.replay.frames' },
  };
}

export interface LinkRules {
  /** The catalog's world ids. */
  worlds: readonly string[];
  /** The bounds of the whole-number parameters (`linkBounds()` for the sandbox). */
  bounds: LinkBounds;
}

export interface ParsedLink {
  link: ViewLink;
  /** One sentence per bad parameter, naming it and what is used instead. */
  errors: string[];
}

const INT = /^-?\d+$/;
const NUM = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const SEED = /^[A-Za-z0-9_.:-]{1,64}$/;
const PARAM = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const FLAG: Readonly<Record<string, boolean>> = { '1': true, '0': false, true: true, false: false, on: true, off: false };

/**
 * Reads a query string (with or without the leading "?"), and the fragment (with or without its "#"), which
 * may carry a steered run's inputs (`in=`).
 */
export function parseViewLink(search: string, rules: LinkRules, fragment = ''): ParsedLink {
  const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const link: ViewLink = { params: {} };
  const errors: string[] = [];
  const bad = (name: string, value: string, want: string, instead: string) => errors.push(`bad link parameter ${name}=${JSON.stringify(value)}: ${want}; ${instead}`);
  const int = (name: string, v: string, bound: LinkBound, instead: string): number | undefined => {
    if (INT.test(v)) {
      const n = Number(v);
      if (n >= 0 && n <= bound.max) return n;
    }
    bad(name, v, `expected a whole number from 0 to ${bound.max} (${bound.limit})`, instead);
    return undefined;
  };
  const B = rules.bounds;
  const flag = (name: string, v: string): boolean | undefined => {
    if (v in FLAG) return FLAG[v];
    bad(name, v, 'expected 1 or 0', 'ignored');
    return undefined;
  };
  const seen = new Set<string>();
  for (const [name, v] of q) {
    if (seen.has(name)) {
      errors.push(`bad link parameter ${name}: given more than once; the first is used`);
      continue;
    }
    seen.add(name);
    if (name.startsWith('p.')) {
      const key = name.slice(2);
      if (PARAM.test(key) && v.length <= 256) link.params[key] = v;
      else bad(name, v, 'a scenario parameter name is a letter then letters, digits or _ (its value at most 256 characters)', 'ignored');
      continue;
    }
    switch (name) {
      case 'world':
        if (rules.worlds.includes(v)) link.world = v;
        else bad(name, v, `no such world (the worlds are ${rules.worlds.join(', ')})`, 'showing the default world');
        break;
      case 'agents': {
        // Too many agents for the page is a wish for as many as it holds: the most it holds, said in the banner.
        if (INT.test(v) && Number(v) > B.agents.max) {
          bad(name, v, `expected a whole number from 0 to ${B.agents.max} (${B.agents.limit})`, `the most the page holds, ${B.agents.max}, is used`);
          link.agents = B.agents.max;
          break;
        }
        const n = int(name, v, B.agents, 'the world\'s default count is used');
        if (n !== undefined) link.agents = n;
        break;
      }
      case 'scenario':
        if ((LINK_SCENARIOS as readonly string[]).includes(v)) link.scenario = v as LinkScenario;
        else bad(name, v, `expected ${LINK_SCENARIOS.join(' or ')}`, "each world runs its own scenario");
        break;
      case 'seed':
        if (SEED.test(v)) link.streamSeed = v;
        else bad(name, v, 'expected 1 to 64 letters, digits or _ . : -', 'the default seed is used');
        break;
      case 'ccinit': {
        const n = int(name, v, B.ccRandInit, 'the default is used');
        if (n !== undefined) link.ccRandInit = n;
        break;
      }
      case 'fieldseed': {
        const n = int(name, v, B.fieldSeed, 'the world\'s own seed is used');
        if (n !== undefined) link.fieldSeed = n;
        break;
      }
      case 'at': {
        const parts = v.split(',');
        const xy = parts.map((s) => (NUM.test(s.trim()) ? Number(s.trim()) : NaN));
        if (parts.length === 2 && xy.every((n) => Number.isFinite(n) && Math.abs(n) <= 1e12)) link.at = [xy[0]!, xy[1]!];
        else bad(name, v, 'expected two numbers "x,y" (the view\'s centre, native units)', 'the world is framed whole');
        break;
      }
      case 'zoom': {
        const n = NUM.test(v) ? Number(v) : NaN;
        if (n > 0 && Number.isFinite(n) && n <= 1e9) link.zoom = n;
        else bad(name, v, 'expected a positive number (screen pixels per metre)', 'the world is framed whole');
        break;
      }
      case 'sel': {
        const n = int(name, v, B.sel, 'nothing is selected');
        if (n !== undefined) link.sel = n;
        break;
      }
      case 'follow': {
        const f = flag(name, v);
        if (f !== undefined) link.follow = f;
        break;
      }
      case 'replay':
        if (v.length > 0 && v.length <= 255 && !/[\\/\u0000-\u001f]/.test(v)) link.replay = v;
        else bad(name, v, 'expected a file name', 'ignored');
        break;
      case 'frame': {
        const n = int(name, v, B.frame, 'the view opens at frame 0');
        if (n !== undefined) link.frame = n;
        break;
      }
      case 'hash':
        if (/^0x[0-9a-f]{16}$/.test(v)) link.hash = v;
        else bad(name, v, 'expected 0x and 16 lower-case hex digits (a state hash)', 'the frame is shown unchecked');
        break;
      case 'file':
        if (v.length > 0 && v.length <= 255 && !/[\\/\u0000-\u001f]/.test(v)) link.file = v;
        else bad(name, v, 'expected a file name', 'ignored');
        break;
      case 'keys': {
        const f = flag(name, v);
        if (f !== undefined) link.keys = f;
        break;
      }
      case 'speed': {
        const n = NUM.test(v) ? Number(v) : NaN;
        if ((LINK_SPEEDS as readonly number[]).includes(n)) link.speed = n;
        else bad(name, v, `expected one of ${LINK_SPEEDS.join(', ')}`, 'speed 1 is used');
        break;
      }
      case 'rays':
        if ((RAY_DENSITIES as readonly string[]).includes(v)) link.rays = v as RayDensity;
        else bad(name, v, `expected one of ${RAY_DENSITIES.join(', ')}`, 'the default is used');
        break;
      case 'heat':
      case 'overlay':
      case 'sight':
      case 'legend':
      case 'mute':
      case 'aa': {
        const f = flag(name, v);
        if (f !== undefined) link[name] = f;
        break;
      }
      case 'renderer':
        if (v === 'webgl' || v === 'webgpu' || v === 'canvas') link.renderer = v;
        else bad(name, v, 'expected webgl, webgpu or canvas', 'the page chooses');
        break;
      default:
        errors.push(`unknown link parameter ${JSON.stringify(name)}: ignored`);
    }
  }
  const inputs = new URLSearchParams(fragment.startsWith('#') ? fragment.slice(1) : fragment).get('in');
  if (inputs !== null) {
    if (link.frame === undefined || link.replay !== undefined) errors.push('bad link inputs #in=...: they go with a live frame (frame= without replay=); ignored');
    else {
      try {
        decodeInputs(inputs, link.frame, BUTTON_MASK);
        link.inputs = inputs;
      } catch (e) {
        errors.push(`bad link inputs #in=...: ${(e as Error).message}; the run is opened without keys`);
      }
    }
  }
  return { link, errors };
}

/** A number's decimal text at `digits` significant digits (far finer than a screen pixel), trailing zeros dropped. */
function short(n: number, digits = 10): string {
  const s = Number(n.toPrecision(digits));
  return String(s);
}

/** The query string of a view (with the leading "?"; parameters in a fixed order, defaults left out). */
export function formatViewLink(l: ViewLink): string {
  const q = new URLSearchParams();
  if (l.world !== undefined) q.set('world', l.world);
  if (l.file !== undefined) q.set('file', l.file);
  if (l.scenario !== undefined) q.set('scenario', l.scenario);
  if (l.agents !== undefined) q.set('agents', String(l.agents));
  if (l.streamSeed !== undefined) q.set('seed', l.streamSeed);
  if (l.ccRandInit !== undefined) q.set('ccinit', String(l.ccRandInit));
  if (l.fieldSeed !== undefined) q.set('fieldseed', String(l.fieldSeed));
  for (const k of Object.keys(l.params).sort()) q.set(`p.${k}`, l.params[k]!);
  if (l.at) q.set('at', `${short(l.at[0])},${short(l.at[1])}`);
  if (l.zoom !== undefined) q.set('zoom', short(l.zoom, 8));
  if (l.sel !== undefined) q.set('sel', String(l.sel));
  if (l.follow) q.set('follow', '1');
  if (l.replay !== undefined) q.set('replay', l.replay);
  if (l.frame !== undefined) q.set('frame', String(l.frame));
  if (l.hash !== undefined) q.set('hash', l.hash);
  if (l.keys) q.set('keys', '1');
  if (l.speed !== undefined && l.speed !== 1) q.set('speed', String(l.speed));
  if (l.heat) q.set('heat', '1');
  if (l.rays !== undefined) q.set('rays', l.rays);
  if (l.overlay === false) q.set('overlay', '0');
  if (l.sight === false) q.set('sight', '0');
  if (l.legend === false) q.set('legend', '0');
  if (l.renderer !== undefined) q.set('renderer', l.renderer);
  if (l.mute) q.set('mute', '1');
  if (l.aa) q.set('aa', '1');
  const s = q.toString();
  // The inputs go in the fragment: never sent to a server, and a long one does not crowd the query.
  return (s ? `?${s}` : '') + (l.inputs !== undefined && l.frame !== undefined ? `#in=${l.inputs}` : '');
}
