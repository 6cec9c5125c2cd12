/**
 * The page's scripting interface, `window.retrosim`: the browser tests and the console drive the page with it
 * (open a world, pause, step or tick frames with a given elapsed time so no clock is needed, select, record,
 * load and seek replays) and read the page's whole state back (`state()`), the timeline's marks and the
 * legend, and measure the page's own cost.
 */
import { hex64 } from '../../replay/format.js';
import { liveSpan, speedLabel, timelineMarks } from '../scene/timeline.js';
import type { RayDensity } from '../scene/view-link.js';
import { weatherCounts } from '../scene/weather-look.js';
import type { BannerMessages } from './banner-state.js';
import type { LayoutShown } from './compact-layout.js';
import { $ } from './dom.js';
import { FrameTimes, measureFrames } from './frame-measure.js';
import type { Inspection } from './inspection.js';
import type { KeyboardButtons } from './keyboard.js';
import type { LinkState } from './link-state.js';
import type { MapCanvas } from './map-canvas.js';
import { bytesToBase64 } from '../../netplay/base64.js';
import type { PageView } from './page-view.js';
import type { RoomControl } from './room-control.js';
import type { RunLoop } from './run-loop.js';
import type { SandboxSession } from './session.js';
import type { SidePanels } from './side-panels.js';
import type { SoundPlayer } from './sound.js';
import type { ViewControls } from './view-controls.js';
import { CATALOG, catalogSource } from './world-catalog.js';

/** The page's parts and doings the interface reaches (getters for the parts made at start). */
export interface ScriptedPage {
  map(): MapCanvas;
  loop: RunLoop;
  keys: KeyboardButtons;
  sound(): SoundPlayer;
  messages: BannerMessages;
  inspection: Inspection;
  panels: SidePanels;
  session(): SandboxSession | null;
  pageView(): PageView;
  worldMenu(): { value: string; label: string; browsing: boolean };
  /** What the layout shows: narrow window, side panels, every control. */
  layout(): LayoutShown;
  viewControls(): ViewControls;
  link: LinkState;
  openCatalog(id: string): Promise<void>;
  syncUrl(): string;
  setSpeed(speed: number): void;
  startRecording(): Promise<void>;
  finishRecording(): Uint8Array;
  loadReplay(bytes: Uint8Array, name?: string): Promise<void>;
  /** How the link's moment was reached (null: the link named no live frame, or not yet). */
  moment?(): unknown;
  /** Whether the world shown is a GTA COL opened without its placements (the banner offers to add them). */
  placementsMissing?(): boolean;
  /** "Play together": the page's room control. */
  room?(): RoomControl;
  /** Wake-ups of the hidden page's worker timer so far (a hidden page in a room keeps ticking). */
  hiddenWakeUps?(): number;
  /** How far the navigation graph a send waits for is built (0..1; null: no send waits). */
  navBuilding?(): number | null;
  /** Navigation graphs built whole for sends, and the animation frames the last one took. */
  navBuilds?(): { builds: number; lastFrames: number };
}

/** The room as the tests read it: the session's stats, the page's phase, the link, desyncs, confirmed hashes kept. */
function roomState(p: ScriptedPage): Record<string, unknown> | null {
  const c = p.room?.();
  const r = c?.room;
  if (!c || !r) return null;
  const v = p.pageView().view;
  return {
    stats: r.stats,
    phase: r.phase,
    link: c.link,
    left: r.left,
    confirmedHashes: r.hashes.length,
    hashOffset: r.hashOffset,
    desyncs: r.desyncs.map((d) => ({ frame: d.frame, players: d.players, cause: d.cause, ours: d.ours, theirs: d.theirs })),
    config: r.config,
    you: v?.you ?? null,
    panel: c.view(),
    events: r.events.all.map((e) => ({ kind: e.kind, seat: e.seat, text: e.text })),
    labels: v && r.stats.players > 1 ? Array.from({ length: r.stats.players }, (_, k) => v.seatLabelAt(k)) : [],
    hiddenWakeUps: p.hiddenWakeUps?.() ?? 0,
  };
}

/** Steps `n` frames now (keys as held), draws and renders once. */
function advance(p: ScriptedPage, n: number): void {
  for (let i = 0; i < n; i++) if (!p.loop.stepOnce()) break;
  render(p);
}

/** Draws and renders the current state (no step). */
function render(p: ScriptedPage): void {
  p.pageView().draw();
  p.map().render();
}

/** Everything the tests read of the page. */
function state(p: ScriptedPage): Record<string, unknown> {
  const s = p.session()!;
  const sim = s.sim;
  const pos = sim.ecs.components.Position;
  const h = sim.hash();
  const v = p.pageView().view;
  const cam = v?.camera;
  const map = p.map();
  const canvas = map.canvas;
  const sound = p.sound();
  const vc = p.viewControls();
  const ins = p.inspection;
  const sel = ins.selection;
  return {
    kind: sim.world.kind,
    name: sim.world.name,
    // Whether the world's line-of-sight walk runs in WebAssembly (the Piney field's kernel, where auto takes it).
    wasm: 'wasmKernels' in sim.world ? (sim.world as { wasmKernels: boolean }).wasmKernels : false,
    source: s.opened.identity.source,
    frame: sim.frame,
    hash: hex64(h.hi, h.lo),
    mode: s.mode,
    recording: s.recording,
    paused: p.loop.paused,
    player: [pos.x[sim.player], pos.y[sim.player], pos.z[sim.player]],
    heading: sim.ecs.components.Heading.angle[sim.player],
    agents: sim.agentsPlaced,
    settingsAgents: s.settings.agents,
    fieldrand: sim.rng.fieldrand.count,
    ccrand: sim.rng.ccrand.draws,
    desyncFrame: s.desyncFrame,
    divergence: s.divergence,
    checked: s.check?.frame ?? 0,
    replayLength: s.replayLength,
    keyframes: s.replay?.keyframes.map((k) => k.frame) ?? [],
    buttons: p.keys.buttons,
    weather: v?.lastAmbient?.counts ?? null,
    weatherHuman: v?.lastAmbient ? weatherCounts(v.lastAmbient.counts) : [],
    ambience: v?.ambience ?? null,
    sky: v ? { ...v.lastSky } : null,
    sounds: { ...sound.started },
    soundsLoaded: sound.loaded(),
    renderer: map.rendererName,
    error: p.messages.error,
    info: p.messages.info,
    fps: p.loop.fps,
    speed: p.loop.clock.speed,
    clock: p.loop.clock.report(),
    menu: p.worldMenu().value,
    menuLabel: p.worldMenu().label,
    menuBrowsing: p.worldMenu().browsing,
    camera: cam ? { cx: cam.cx, cy: cam.cy, zoom: cam.zoom, width: cam.width, height: cam.height, framed: cam.framed, following: cam.following, fitZoom: cam.fitZoom } : null,
    worldRect: v ? { ...v.rect } : null,
    worldOnScreen: v ? [...v.toScreen(v.rect.x, v.rect.y), ...v.toScreen(v.rect.x + v.rect.width, v.rect.y + v.rect.height)] : null,
    resolution: map.app.renderer.resolution,
    canvas: { width: canvas.width, height: canvas.height, cssWidth: canvas.clientWidth, cssHeight: canvas.clientHeight },
    tiles: v ? { kept: v.tiles.size, drawnLast: v.tiles.drawnLastUpdate, drawnTotal: v.tiles.drawnTotal } : null,
    hover: ins.hover,
    hoverAt: ins.hoverAt,
    selection: sel,
    pointed: v?.pointed ?? -1,
    linesDrawn: v?.linesDrawn ?? 0,
    tile: ins.tile,
    entity: ins.entity,
    sees: v && sel?.kind === 'entity' && v.probe.from === sel.id ? v.probe.lists() : null,
    scenario: sim.scenario.name,
    canSend: s.canSend,
    sending: s.sending,
    navBuilding: p.navBuilding?.() ?? null,
    navBuilds: p.navBuilds?.() ?? null,
    // The selected agent's planned path as last drawn: map points, the first (where it stands) and the last (its goal).
    plan: v && v.planned.length >= 4 ? { points: v.planned.length / 2, first: [v.planned[0], v.planned[1]], last: v.planned.slice(-2) } : null,
    trail: v ? { on: v.trailOn, entity: v.trail.id, points: v.trail.count, first: v.trail.count ? v.trail.point(0) : null, last: v.trail.count ? v.trail.point(v.trail.count - 1) : null } : null,
    heat: v?.heat.grid ? { frame: v.heat.grid.frame, max: v.heat.grid.max, rays: v.heat.grid.rays, cols: v.heat.grid.cols, rows: v.heat.grid.rows } : null,
    heatOn: vc.heat,
    rays: vc.rays,
    legend: p.panels.legendEntries.map((e) => ({ group: e.group, label: e.label, colour: e.colour, symbol: e.symbol, colours: e.colours ?? null, ground: e.ground ?? null })),
    worldScale: sim.world.scale,
    focus: document.activeElement?.id || document.activeElement?.tagName || '',
    helpShown: vc.helpShown,
    layout: p.layout(),
    url: location.search,
    fragment: location.hash,
    timeline: s.timeline ? { start: s.timeline.start, end: s.timeline.end } : null,
    record: s.liveRecord ? { start: s.liveRecord.start, head: s.liveRecord.head, bytes: s.liveRecord.bytes, keyframes: s.liveRecord.keyframes().length, complete: s.liveRecord.complete } : null,
    moment: p.moment?.() ?? null,
    placementsMissing: p.placementsMissing?.() ?? false,
  };
}

/** The timeline's marks as drawn. */
function timelineState(p: ScriptedPage): Record<string, unknown> {
  const s = p.session();
  const marks = $('marks');
  const t = s?.timeline;
  const m = t ? timelineMarks(s!.mode === 'live' ? liveSpan(t.end) : t.end, t.keyframes, s!.divergence, marks.clientWidth) : null;
  const dom = Array.from(marks.children).map((c) => ({ cls: (c as HTMLElement).className, frame: (c as HTMLElement).dataset['frame'] ?? null, text: c.textContent ?? '' }));
  const speed = p.loop.clock.speed;
  return { marks: m, dom, speed, speedLabel: speedLabel(speed), frameLabel: $('frame-label').textContent };
}

/** The interface over `p`; `ready` settles once the page has started. */
export function scriptingApi(ready: Promise<void>, p: ScriptedPage) {
  let frameTimes: FrameTimes | null = null;
  return {
    ready,
    catalog: CATALOG.map((e) => ({ id: e.id, label: e.label, source: catalogSource(e) })),
    /** Opens a catalog world, with `agents` when given (null: the sandbox's default). */
    open: (id: string, agents?: number | null) => {
      if (agents !== undefined) p.link.agents = agents;
      return p.openCatalog(id);
    },
    pause: () => {
      p.loop.paused = true;
    },
    resume: () => {
      p.loop.paused = false;
    },
    /** Stops (false) or restarts (true) the page's own animation frames: tests then drive every frame. */
    ticker: (on: boolean) => {
      if (on) p.map().app.ticker.start();
      else p.map().app.ticker.stop();
    },
    /** One animation frame with `ms` elapsed: the clock's steps, the draw and the render. Returns frames run. */
    tick: (ms: number) => {
      const n = p.loop.frame(ms);
      p.map().render();
      return n;
    },
    advance: (n: number) => advance(p, n),
    render: () => render(p),
    measure: (n: number) => measureFrames(p.map(), n, () => p.loop.stepOnce(), () => p.pageView().draw()),
    startFrameTimes: () => {
      frameTimes = new FrameTimes(p.map());
      frameTimes.start();
    },
    stopFrameTimes: () => frameTimes?.stop() ?? [],
    state: () => state(p),
    timeline: () => timelineState(p),
    legend: () => p.panels.legendEntries.map((e) => ({ ...e })),
    link: () => p.syncUrl(),
    hover: (sx: number, sy: number) => p.pageView().hoverAt(sx, sy),
    click: (sx: number, sy: number) => p.pageView().clickAt(sx, sy),
    select: (id: number | null) => p.pageView().select(id === null ? null : { kind: 'entity', id }),
    selectTile: (x: number, y: number) => p.pageView().select({ kind: 'tile', x, y }),
    screenOf: (x: number, y: number) => p.pageView().view?.toScreen(x, y) ?? null,
    entityScreen: (id: number) => {
      const v = p.pageView().view;
      if (!v) return null;
      const [x, y] = v.positionOf(id);
      return Number.isFinite(x) ? v.toScreen(x, y) : null;
    },
    setHeat: (on: boolean) => p.viewControls().setHeat(on),
    setRays: (d: RayDensity) => p.viewControls().setRays(d),
    setSpeed: (s: number) => p.setSpeed(s),
    startRecording: () => p.startRecording(),
    /**
     * Keeps the live run as a timeline (on, the page's default) or not, from frame 0 again on the same world (the
     * frame-time benchmark measures both).
     */
    keepTimeline: async (on: boolean) => {
      const s = p.session();
      if (!s) return;
      s.keepTimeline = on;
      await p.startRecording();
      p.pageView().show(s, false);
    },
    finishRecording: () => Array.from(p.finishRecording()),
    recordedHashes: () => [...(p.session()?.recordedHashes ?? [])],
    loadReplay: (bytes: number[], name?: string) => p.loadReplay(Uint8Array.from(bytes), name),
    /** Finishes checking the loaded replay ahead of playback. */
    checkNow: () => {
      let s = p.session();
      while (s && !s.checkAhead(1000)) s = p.session();
      render(p);
      return p.session()?.divergence ?? -1;
    },
    playReplay: (n: number) => {
      const out: (boolean | null)[] = [];
      for (let i = 0; i < n; i++) {
        const r = p.session()!.stepReplay();
        if (!r) break;
        out.push(r.matches);
      }
      p.pageView().draw();
      return out;
    },
    seek: (f: number) => p.pageView().seek(f),
    goLive: () => p.session()?.goLive(),
    zoom: (factor: number) => p.pageView().view?.camera.zoomAt(factor),
    overview: () => p.pageView().view?.frameWorld(),
    /** Every entity where the last draw put it: screen CSS pixels on the map canvas, and what it is. */
    entitiesOnScreen: () => {
      const v = p.pageView().view;
      if (!v) return [];
      const e = v.entities;
      // watches/sees: the body whose sight is drawn for it (in a room, this page's player) and whether it sees it
      const out: { id: number; x: number; y: number; agent: boolean; player: boolean; watches: number; sees: boolean }[] = [];
      for (let i = 0; i < e.count; i++) {
        const [x, y] = v.toScreen(e.x[i]!, e.y[i]!);
        out.push({ id: e.ids[i]!, x, y, agent: e.agent[i] === 1, player: e.player[i] === 1, watches: e.target[i]!, sees: e.visible[i] === 1 });
      }
      return out;
    },
    heatGrid: () => {
      const g = p.pageView().view?.heat.grid;
      return g ? { ...g, counts: Array.from(g.counts), floor: Array.from(g.floor) } : null;
    },
    setSight: (on: boolean) => {
      const v = p.pageView().view;
      if (v) v.showSight = on;
    },
    setOverlay: (on: boolean) => p.pageView().view?.setOverlayVisible(on),
    setLayer: (name: string, on: boolean) => p.pageView().view?.setLayerVisible(name, on),
    /** "Play together": the room's state (null: in no room). */
    room: () => roomState(p),
    /** The hashes of confirmed frames `from`..`to` (null where not confirmed or no longer kept). */
    roomHashes: (from: number, to: number) => {
      const r = p.room?.().room;
      const out: (string | null)[] = [];
      for (let f = from; f <= to; f++) out.push(r ? r.hashOf(f) : null);
      return out;
    },
    /** The session replay (format 4) as base64; ends its recording. */
    roomReplay: () => {
      const r = p.room?.().room;
      return r ? bytesToBase64(r.replay()) : null;
    },
    createRoom: (relay: string, name: string, players: number) => p.room?.().create(relay, name, players) ?? '',
    joinRoom: (relay: string, name: string) => p.room?.().join(relay, name) ?? '',
    leaveRoom: () => p.room?.().leave(),
  };
}

export type RetrosimApi = ReturnType<typeof scriptingApi>;

declare global {
  interface Window {
    retrosim: RetrosimApi;
  }
}

/** Puts the interface on `window.retrosim`. */
export function installScriptingApi(ready: Promise<void>, p: ScriptedPage): void {
  window.retrosim = scriptingApi(ready, p);
}
