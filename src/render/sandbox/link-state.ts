/**
 * What the page's link asked for and what the link of the view now says, without any DOM. A link gives
 * scenario settings (kept for every world opened until the simulation refuses them), a view (applied once, to
 * the first world opened, or for a file's view to that file once dropped), a live frame with its hash (the page
 * fast-forwards there, see link-moment.ts) and a replay's frame (applied once that replay is loaded); the page's parts give a
 * snapshot of the view, and `linkOf` turns it into the link the address bar shows.
 *
 * No DOM or pixi.js here: Node tests run it.
 */
import { parseParamText } from '../../sim/params.js';
import type { ScenarioSettings } from '../../sim/scenario.js';
import { builtinScenario, scenarioForWorld } from '../../scenarios/builtin.js';
import type { ParamValue } from '../../systems/system.js';
import type { CollisionWorld } from '../../worlds/world.js';
import type { MapPlane } from '../scene/projection.js';
import { DEFAULT_RAYS, type LinkScenario, type RayDensity, type ViewLink } from '../scene/view-link.js';
import { autoAgents } from './world-catalog.js';
import { decodeInputs, MAX_LINK_INPUT_CHARS } from '../scene/link-inputs.js';
import { BUTTON_MASK } from '../../systems/input.js';

/** The camera as the link records it (map units; `framed`: showing the whole world). */
export interface CameraSnapshot {
  cx: number;
  cy: number;
  zoom: number;
  framed: boolean;
  following: boolean;
}

/** The view now, as the link records it. */
export interface ViewSnapshot {
  /** The catalog world shown (undefined: a world from files, which a link cannot name). */
  world: string | undefined;
  /** The agent count asked for (null: the sandbox's default). */
  agents: number | null;
  /** The camera, with the world's scale (native units per metre) and the plane's sign of the map's y. */
  camera: (CameraSnapshot & { scale: number; ySign: number }) | null;
  selectedEntity: number | null;
  /** In replay mode: the replay's file name (null: not loaded from a file) and the frame shown. */
  replay: { name: string | null; frame: number } | null;
  /**
   * In live mode: the frame shown, its state hash, whether keys steered the run (see `SandboxSession.steered`),
   * and the buttons of frames 1..frame encoded for the link (`SandboxSession.linkInputs`: '' none held, null
   * unknown).
   */
  live?: { frame: number; hash: string; steered: boolean; inputs?: string | null } | null;
  /** A world the user gave as a file: its name (undefined for a catalog world). */
  file?: string | undefined;
  speed: number;
  heat: boolean;
  rays: RayDensity;
  overlay: boolean;
  sight: boolean;
  legend: boolean;
  muted: boolean;
}

/** A replay frame the link named, waiting for that replay. */
export interface PendingFrame {
  /** The replay's file name (undefined: whichever replay is loaded first). */
  replay: string | undefined;
  frame: number;
}

/** A live run's frame the link named: the page fast-forwards there and checks the hash. */
export interface PendingMoment {
  frame: number;
  /** The hash at `frame` in the view the link was copied from (undefined: not given, nothing to check). */
  hash: string | undefined;
  /** Keys steered the run the link was copied from. */
  keys: boolean;
  /** The buttons of frames 1..frame the link carries (undefined: none, the page steps with no keys). */
  inputs?: Uint32Array;
}

/** The world's native units per metre, which turn the camera's zoom into the link's pixels per metre; 1 for a world that gives none. */
export function linkScale(world: Pick<CollisionWorld, 'scale'>): number {
  return world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
}

/** The camera of a view as the link records it. */
export function cameraOf(v: { camera: CameraSnapshot; plane: Pick<MapPlane, 'ySign'>; sim: { world: Pick<CollisionWorld, 'scale'> } }): NonNullable<ViewSnapshot['camera']> {
  const c = v.camera;
  return { cx: c.cx, cy: c.cy, zoom: c.zoom, framed: c.framed, following: c.following, scale: linkScale(v.sim.world), ySign: v.plane.ySign };
}

/**
 * The camera a link's `at` and `zoom` ask for, from the camera now (each missing part kept); null when the
 * link gives neither.
 */
export function linkCamera(l: Pick<ViewLink, 'at' | 'zoom'>, now: Pick<CameraSnapshot, 'cx' | 'cy' | 'zoom'>, plane: Pick<MapPlane, 'ySign'>, scale: number): { cx: number; cy: number; zoom: number } | null {
  if (!l.at && l.zoom === undefined) return null;
  return {
    cx: l.at ? l.at[0] : now.cx,
    cy: l.at ? plane.ySign * l.at[1] : now.cy,
    zoom: l.zoom !== undefined ? l.zoom / scale : now.zoom,
  };
}

export class LinkState {
  /** The agent count asked for (null: the sandbox's own default for the world). */
  agents: number | null;
  /** The scenario the link chose for every world (null: each world's own); kept when another world opens. */
  readonly scenario: LinkScenario | null;
  /** Scenario settings the link gave. */
  private settings: Partial<ScenarioSettings>;
  /** Scenario parameters the link gave, as text (each checked by the scenario when a world opens). */
  private params: Record<string, string>;
  private pendingView: ViewLink | null;
  private pendingFrame: PendingFrame | null;
  private pendingMoment: PendingMoment | null;

  constructor(private readonly link: ViewLink) {
    this.agents = link.agents ?? null;
    this.scenario = link.scenario ?? null;
    this.settings = {
      ...(link.streamSeed !== undefined ? { streamSeed: link.streamSeed } : {}),
      ...(link.ccRandInit !== undefined ? { ccRandInit: link.ccRandInit } : {}),
      ...(link.fieldSeed !== undefined ? { fieldSeed: link.fieldSeed } : {}),
    };
    this.params = { ...link.params };
    this.pendingView = link;
    this.pendingFrame = link.frame !== undefined && link.replay !== undefined ? { replay: link.replay, frame: link.frame } : null;
    this.pendingMoment =
      link.frame !== undefined && link.replay === undefined
        ? { frame: link.frame, hash: link.hash, keys: link.keys === true, ...(link.inputs !== undefined ? { inputs: decodeInputs(link.inputs, link.frame, BUTTON_MASK) } : {}) }
        : null;
  }

  /** The file the link's view was of (undefined: a catalog world's link). */
  get file(): string | undefined {
    return this.link.file;
  }

  /** Whether the link's view is for the world just opened: the file it names, or any world when it names none. */
  private isFor(fileName: string | null): boolean {
    return this.link.file === undefined || this.link.file === fileName;
  }

  /** Forgets the agent count, settings and parameters the link gave; true when there were any. */
  dropSettings(): boolean {
    const had = this.agents !== null || Object.keys(this.settings).length + Object.keys(this.params).length > 0;
    this.agents = null;
    this.settings = {};
    this.params = {};
    return had;
  }

  /**
   * The scenario settings for a world just opened: the agent count (the sandbox's default when none was
   * asked) and what the link set. A parameter the scenario refuses is dropped for good and reported.
   */
  settingsFor(world: CollisionWorld, report: (line: string) => void): Partial<ScenarioSettings> {
    const over: Partial<ScenarioSettings> = { ...this.settings };
    over.agents = this.agents ?? autoAgents(world);
    if (this.scenario !== null) over.scenario = this.scenario;
    const keys = Object.keys(this.params);
    if (keys.length) {
      const def = this.scenario !== null ? builtinScenario(this.scenario) : scenarioForWorld(world);
      const params: Record<string, ParamValue> = {};
      for (const k of keys) {
        try {
          params[k] = parseParamText(def.name, def.params ?? {}, k, this.params[k]!);
        } catch (e) {
          report(`bad link parameter p.${k}: ${(e as Error).message}; ignored`);
          delete this.params[k];
        }
      }
      over.params = params;
    }
    return over;
  }

  /**
   * The link's view (camera, selection, toggles), once: the first world opened takes it, or for a link of a
   * file's view, the first world opened from a file of that name (`fileName`; null for a catalog world).
   */
  takeView(fileName: string | null = null): ViewLink | null {
    if (!this.isFor(fileName)) return null;
    const l = this.pendingView;
    this.pendingView = null;
    return l;
  }

  /** The replay frame the link named, still waiting for its replay. */
  get waitingFrame(): PendingFrame | null {
    return this.pendingFrame;
  }

  /** The live frame the link named, once, for the world just opened (the same rule as `takeView`). */
  takeMoment(fileName: string | null = null): PendingMoment | null {
    if (!this.isFor(fileName)) return null;
    const m = this.pendingMoment;
    this.pendingMoment = null;
    return m;
  }

  /** The live frame the link named, still waiting (for a file's view: for that file). */
  get waitingMoment(): PendingMoment | null {
    return this.pendingMoment;
  }

  /** The frame to show for the replay `name` just loaded, when the link named one for it (then forgotten). */
  takeFrame(name: string): number | null {
    const pf = this.pendingFrame;
    if (!pf || (pf.replay !== undefined && pf.replay !== name)) return null;
    this.pendingFrame = null;
    return pf.frame;
  }

  /** The link of the view: what the link gave that still holds, and the snapshot's view (defaults left out). */
  linkOf(v: ViewSnapshot): ViewLink {
    const ls = this.settings;
    const l: ViewLink = { params: { ...this.params } };
    if (this.scenario !== null) l.scenario = this.scenario;
    if (ls.streamSeed !== undefined) l.streamSeed = ls.streamSeed;
    if (ls.ccRandInit !== undefined) l.ccRandInit = ls.ccRandInit;
    if (ls.fieldSeed !== undefined) l.fieldSeed = ls.fieldSeed;
    if (v.world !== undefined) l.world = v.world;
    else if (v.file !== undefined) l.file = v.file;
    if (v.agents !== null) l.agents = v.agents;
    const cam = v.camera;
    if (cam) {
      if (!cam.framed && !cam.following) {
        l.at = [cam.cx, cam.ySign * cam.cy];
        l.zoom = cam.zoom * cam.scale;
      } else if (cam.following) l.zoom = cam.zoom * cam.scale;
      if (cam.following) l.follow = true;
    }
    if (v.selectedEntity !== null) l.sel = v.selectedEntity;
    if (v.replay) {
      if (v.replay.name) l.replay = v.replay.name;
      l.frame = v.replay.frame;
    } else if (v.live && v.live.frame > 0) {
      l.frame = v.live.frame;
      l.hash = v.live.hash;
      const inputs = v.live.inputs;
      if (v.live.steered && inputs !== '') l.keys = true;
      if (inputs && inputs.length <= MAX_LINK_INPUT_CHARS) l.inputs = inputs;
    }
    if (v.speed !== 1) l.speed = v.speed;
    if (v.heat) l.heat = true;
    if (v.rays !== DEFAULT_RAYS) l.rays = v.rays;
    if (!v.overlay) l.overlay = false;
    if (!v.sight) l.sight = false;
    if (!v.legend) l.legend = false;
    if (this.link.renderer) l.renderer = this.link.renderer;
    if (v.muted) l.mute = true;
    if (this.link.aa) l.aa = true;
    return l;
  }
}
