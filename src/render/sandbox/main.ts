/**
 * The browser sandbox: pick a world (or drop world files on the page) and see it whole, walk the player with
 * the keyboard through the same simulation code Node runs, inspect any point, tile or entity by hovering and
 * clicking, read line of sight (the selected agent's rays, a visibility heat map), share the view by its link,
 * record a replay and download it, load one and scrub, step and speed it like a video, and hear the field.
 *
 * The simulation runs at a fixed 60 frames per second of simulated time times the playback speed, stepped
 * from requestAnimationFrame by the SimClock (a few frames per animation frame at most, so a slow machine
 * slows the game down rather than spiral, and the status panel says so). The page exposes `window.retrosim`
 * for the browser tests and for scripting from the console; its `tick(ms)` drives a frame with a given
 * elapsed time, so tests need no clock.
 */
import { Application } from 'pixi.js';
import type { OpenedWorld } from '../../replay/world-identity.js';
import { hex64, readReplay } from '../../replay/format.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import { parseParamText } from '../../sim/params.js';
import type { ParamValue } from '../../systems/system.js';
import type { ScenarioSettings } from '../../sim/scenario.js';
import { scenarioForWorld } from '../../scenarios/builtin.js';
import { loadPineyTables, type PineyTables } from '../../worlds/piney/tables.js';
import { WorldView } from '../pixi/world-view.js';
import { behaviours, describeAt, describeEntity, pickEntity, probeAt, type EntityInfo, type ProbeAnswer, type TileInfo } from '../scene/inspect.js';
import { legendFor, type LegendEntry } from '../scene/legend.js';
import { SimClock, SIM_HZ } from '../scene/sim-clock.js';
import { faster, slower, speedLabel, timelineMarks } from '../scene/timeline.js';
import { formatViewLink, linkBounds, parseViewLink, RAY_DENSITIES, type RayDensity, type ViewLink } from '../scene/view-link.js';
import { weatherCounts } from '../scene/weather-look.js';
import { $, download } from './dom.js';
import { openFirstWorld } from './first-world.js';
import { fillHelp } from './help-overlay.js';
import { InspectorPanel } from './inspector-panel.js';
import { KeyboardButtons } from './keyboard.js';
import { fillLegend } from './legend-panel.js';
import { insetSize, OverviewMap } from './overview-map.js';
import { SandboxSession } from './session.js';
import { actionForKey, type PageAction } from './shortcuts.js';
import { SoundPlayer } from './sound.js';
import { TimelineBar } from './timeline-bar.js';
import { autoAgents, CATALOG, PINEY_TABLES_FILE, catalogEntry, catalogSource, entryForSource, openWorldBytes, variantFileName, variantSpecBytes, type CatalogEntry } from './world-catalog.js';

export { SIM_HZ };

/** Frames between footsteps while the player walks. */
const FOOTSTEP_FRAMES = 18;
/** Animation frames between two writes of the link into the address bar (browsers limit the rate). */
const URL_FRAMES = 30;
/** Replay frames checked ahead of playback per animation frame. */
const CHECK_FRAMES_PER_TICK = 8;
/** Simulation frames between two reads of the controller's behaviours for the inspector. */
const BEHAVIOUR_FRAMES = 30;
/** The world menu's entry for a world opened from files. */
const FILE_ENTRY = 'file';

const parsed = parseViewLink(location.search, { worlds: CATALOG.map((e) => e.id), bounds: linkBounds() });
const base = new URL('./', location.href).href;

async function fetchBytes(path: string): Promise<Uint8Array> {
  const r = await fetch(new URL(path, base));
  if (!r.ok) throw new Error(`cannot fetch ${path}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** The GPU's name as WebGL reports it ("" when there is no WebGL). */
function webglRendererName(): string {
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (!gl) return '';
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

/**
 * The renderer: as asked (?renderer=webgl|webgpu|canvas), else WebGL on a real GPU and the canvas renderer
 * when WebGL is only SwiftShader (a CPU emulation, as in headless Chromium without a GPU), where the canvas
 * renderer is several times faster.
 */
function choosePreference(asked: string | undefined): 'webgl' | 'webgpu' | 'canvas' {
  if (asked === 'webgl' || asked === 'webgpu' || asked === 'canvas') return asked;
  const gpu = webglRendererName();
  return gpu === '' || /swiftshader|llvmpipe|software/i.test(gpu) ? 'canvas' : 'webgl';
}

/** Where the current world's bytes came from, to rebuild it (each simulation gets a fresh world). */
interface WorldSource {
  label: string;
  source: string;
  fileName: string;
  bytes: Uint8Array;
  map?: Uint8Array;
  /** GTA placements (JSON bytes). */
  placements?: Uint8Array;
  /** For a variant field, its spec, offered for download. */
  spec?: { name: string; bytes: Uint8Array };
  /** The catalog entry, for a catalog world. */
  catalogId?: string;
}

type Selection = { kind: 'entity'; id: number } | { kind: 'tile'; x: number; y: number } | null;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

class SandboxApp {
  app!: Application;
  session: SandboxSession | null = null;
  view: WorldView | null = null;
  source: WorldSource | null = null;
  /** The last world opened from files (the menu's "your file" entry). */
  private fileSource: WorldSource | null = null;
  readonly keys = new KeyboardButtons();
  sound!: SoundPlayer;
  /** The agent count asked for (null: the sandbox's own default for the world). */
  agents: number | null = parsed.link.agents ?? null;
  rays: RayDensity = parsed.link.rays ?? 'few';
  heat = parsed.link.heat ?? false;
  paused = false;
  readonly clock = new SimClock();
  /** Render frames per second (measured over the last second) and the last simulation step's cost. */
  fps = 0;
  stepMs = 0;
  hover: ProbeAnswer | null = null;
  private hoverAt: [number, number] | null = null;
  selection: Selection = null;
  tileInfo: TileInfo | null = null;
  entityInfo: EntityInfo | null = null;
  private behaviour: Uint8Array | null = null;
  private behaviourFrame = -Infinity;
  private last = 0;
  private fpsFrames = 0;
  private fpsStart = 0;
  private lastPlayer: [number, number, number] = [NaN, NaN, NaN];
  private walkFrames = 0;
  private lastReplay: Uint8Array | null = null;
  /** The name of the replay loaded (for the link). */
  private replayName: string | null = null;
  private errors: string[] = [];
  /** What was wrong with the link the page was opened with (kept until dismissed). */
  private linkErrors: string[] = [];
  private info = '';
  private tables: PineyTables | null = null;
  private dpr = 1;
  private urlFrames = 0;
  private lastUrl = '';
  private legendKey = '';
  legendEntries: LegendEntry[] = [];
  private readonly inspector: InspectorPanel;
  private readonly timeline: TimelineBar;
  private readonly overview: OverviewMap;
  /** The link's view, applied once the first world is open; its replay frame, once that replay is loaded. */
  private pendingLink: ViewLink | null = parsed.link;
  private pendingFrame: { replay: string | undefined; frame: number } | null = parsed.link.frame !== undefined ? { replay: parsed.link.replay, frame: parsed.link.frame } : null;
  /** Scenario settings given by the link. */
  private linkSettings: Partial<ScenarioSettings> = {
    ...(parsed.link.streamSeed !== undefined ? { streamSeed: parsed.link.streamSeed } : {}),
    ...(parsed.link.ccRandInit !== undefined ? { ccRandInit: parsed.link.ccRandInit } : {}),
    ...(parsed.link.fieldSeed !== undefined ? { fieldSeed: parsed.link.fieldSeed } : {}),
  };
  private linkParams: Record<string, string> = { ...parsed.link.params };
  private frameTimes: number[] = [];

  constructor() {
    this.inspector = new InspectorPanel($('inspector'));
    this.timeline = new TimelineBar($('marks'));
    this.overview = new OverviewMap($('minimap') as HTMLCanvasElement);
  }

  async start(): Promise<void> {
    this.linkErrors.push(...parsed.errors);
    this.tables = loadPineyTables(await fetchBytes(PINEY_TABLES_FILE));
    const host = $('view');
    const preference = choosePreference(parsed.link.renderer);
    this.dpr = Math.max(1, window.devicePixelRatio || 1);
    this.app = new Application();
    await this.app.init({
      width: Math.max(1, host.clientWidth),
      height: Math.max(1, host.clientHeight),
      background: '#10141a',
      preference,
      antialias: parsed.link.aa === true,
      preserveDrawingBuffer: true,
      autoDensity: true,
      resolution: this.dpr,
    });
    const canvas = this.app.canvas as HTMLCanvasElement;
    canvas.tabIndex = 0;
    canvas.id = 'map';
    host.insertBefore(canvas, host.firstChild);
    this.sound = new SoundPlayer(base);
    this.sound.setMuted(parsed.link.mute === true);
    this.keys.attach(window);
    this.bindUi();
    fillHelp($('help-box'));
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
    window.addEventListener('resize', () => this.resize());
    await openFirstWorld(
      {
        open: (id) => this.openCatalog(id),
        dropLinkSettings: () => {
          const had = this.agents !== null || Object.keys(this.linkSettings).length + Object.keys(this.linkParams).length > 0;
          this.agents = null;
          this.linkSettings = {};
          this.linkParams = {};
          return had;
        },
        report: (line) => this.linkErrors.push(line),
      },
      parsed.link.world ?? CATALOG[0]!.id,
      CATALOG[0]!.id,
    );
    this.showBanner();
    this.app.ticker.add(() => this.tick());
    canvas.focus();
  }

  // ---------- worlds ----------

  async openCatalog(id: string): Promise<void> {
    const e: CatalogEntry = catalogEntry(id);
    let bytes = await fetchBytes(e.file);
    const map = e.map ? await fetchBytes(e.map) : undefined;
    const placements = e.placements ? await fetchBytes(e.placements) : undefined;
    let spec: WorldSource['spec'];
    if (e.variant) {
      bytes = variantSpecBytes(bytes, e);
      spec = { name: variantFileName(e), bytes };
    }
    const fileName = e.variant ? variantFileName(e) : e.file;
    await this.openSource({ label: e.label, source: catalogSource(e), fileName, bytes, catalogId: e.id, ...(map ? { map } : {}), ...(placements ? { placements } : {}), ...(spec ? { spec } : {}) });
  }

  /** Files dropped or picked: one world file, a Llama TRAK with its MAP, a COL with its placements, or a replay. */
  async openFiles(files: File[]): Promise<void> {
    if (files.length === 0) return;
    // The runtime's limits (src/limits.ts): a huge file is refused before it is read; the parsers apply the rest.
    const tooBig = files.find((f) => f.size > DEFAULT_LIMITS.fileBytes);
    if (tooBig) return this.setError(`cannot open ${tooBig.name}: ${tooBig.size} bytes is over the limit of ${DEFAULT_LIMITS.fileBytes} bytes (limits.fileBytes)`);
    const read = async (f: File) => new Uint8Array(await f.arrayBuffer());
    const replay = files.find((f) => /\.(rsr|replay|rply)$/i.test(f.name));
    if (replay) {
      await this.loadReplay(await read(replay), replay.name);
      return;
    }
    const trak = files.find((f) => /\.trak$/i.test(f.name));
    const map = files.find((f) => /\.map$/i.test(f.name));
    if (trak && map) {
      await this.openSource({ label: trak.name, source: `file:${trak.name};map:${map.name}`, fileName: trak.name, bytes: await read(trak), map: await read(map) });
      return;
    }
    // A GTA COL dropped with its placements (as Node finds `<stem>.placements.json` beside the file).
    const placements = files.find((f) => /\.placements\.json$/i.test(f.name));
    const f = files.find((x) => x !== placements) ?? files[0]!;
    await this.openSource({ label: f.name, source: `file:${f.name}`, fileName: f.name, bytes: await read(f), ...(placements && placements !== f ? { placements: await read(placements) } : {}) });
  }

  private opener(src: WorldSource): () => Promise<OpenedWorld> {
    const pineyTables = this.tables;
    return () => openWorldBytes(src.bytes, src.fileName, src.source, { ...(src.map ? { map: src.map } : {}), ...(src.placements ? { placements: src.placements } : {}), ...(pineyTables ? { pineyTables } : {}) });
  }

  /** The scenario settings the page asks for: the agent count and what the link set. */
  private settingsFor(opened: OpenedWorld): Partial<ScenarioSettings> {
    const over: Partial<ScenarioSettings> = { ...this.linkSettings };
    over.agents = this.agents ?? autoAgents(opened.world);
    const keys = Object.keys(this.linkParams);
    if (keys.length) {
      const def = scenarioForWorld(opened.world);
      const params: Record<string, ParamValue> = {};
      for (const k of keys) {
        try {
          params[k] = parseParamText(def.name, def.params ?? {}, k, this.linkParams[k]!);
        } catch (e) {
          this.linkErrors.push(`bad link parameter p.${k}: ${(e as Error).message}; ignored`);
          delete this.linkParams[k];
        }
      }
      over.params = params;
    }
    return over;
  }

  async openSource(src: WorldSource): Promise<void> {
    this.setError('');
    try {
      const session = await SandboxSession.create(this.opener(src), (first) => this.settingsFor(first));
      this.source = src;
      if (!src.catalogId) this.fileSource = src;
      this.replayName = null;
      this.install(session);
      this.showWorldInMenu();
    } catch (e) {
      this.setError(`cannot open ${src.label}: ${(e as Error).message}`);
      this.showWorldInMenu();
      throw e;
    }
  }

  /** The world menu shows the open world: its catalog entry, or a "your file" entry for files. */
  private showWorldInMenu(): void {
    const select = $('world') as HTMLSelectElement;
    let fileOption = Array.from(select.options).find((o) => o.value === FILE_ENTRY);
    if (this.source && !this.source.catalogId) {
      if (!fileOption) {
        fileOption = document.createElement('option');
        fileOption.value = FILE_ENTRY;
        select.appendChild(fileOption);
      }
      fileOption.textContent = `your file: ${this.source.label}`;
      select.value = FILE_ENTRY;
    } else if (this.source?.catalogId) select.value = this.source.catalogId;
  }

  private install(session: SandboxSession): void {
    this.session = session;
    this.selection = null;
    this.hover = null;
    this.hoverAt = null;
    this.tileInfo = null;
    this.entityInfo = null;
    this.behaviourFrame = -Infinity;
    this.clock.reset();
    this.rebuildView(true);
    ($('download-world') as HTMLButtonElement).hidden = !this.source?.spec;
    this.showAgents();
    this.applyPendingLink();
    this.syncUrl();
  }

  /** A new view on the session's current simulation (after it was rebuilt); `frame` starts at the overview. */
  private rebuildView(frame = false): void {
    const s = this.session!;
    const old = this.view;
    const cam = old && !frame ? { cx: old.camera.cx, cy: old.camera.cy, zoom: old.camera.zoom, framed: old.camera.framed, following: old.camera.following } : null;
    if (old) {
      this.app.stage.removeChild(old.stage);
      old.destroy();
    }
    const host = $('view');
    this.view = new WorldView(s.sim, Math.max(1, this.app.screen.width), Math.max(1, this.app.screen.height), {
      showSight: ($('sight') as HTMLInputElement).checked,
      showOverlay: ($('overlay') as HTMLInputElement).checked,
      resolution: this.dpr,
      rays: this.rays,
      // The canvas renderer copies pre-drawn arrow stamps (the cheapest a software canvas draws); the GPU ones batch sprites.
      bodies: this.app.renderer.name === 'canvas' ? 'stamps' : 'sprites',
    });
    this.view.heatOn = this.heat;
    if (cam && !cam.framed) {
      this.view.camera.setView(cam.cx, cam.cy, cam.zoom);
      if (cam.following) this.view.camera.follow();
    }
    this.app.stage.addChild(this.view.stage);
    this.sound.attach(s.sim.events);
    this.lastPlayer = [NaN, NaN, NaN];
    this.overview.setWorld(this.view.raster, this.view.rect, insetSize($('side').clientWidth));
    this.legendKey = '';
    this.applySelection();
    this.view.draw();
    this.updateHud();
  }

  /** Applies the link's camera, selection and follow to the first world opened. */
  private applyPendingLink(): void {
    const l = this.pendingLink;
    this.pendingLink = null;
    if (!l || !this.view) return;
    const v = this.view;
    const plane = v.plane;
    const scale = v.sim.world.scale > 0 && Number.isFinite(v.sim.world.scale) ? v.sim.world.scale : 1;
    if (l.at || l.zoom !== undefined) {
      const cx = l.at ? l.at[0] : v.camera.cx;
      const cy = l.at ? plane.ySign * l.at[1] : v.camera.cy;
      v.camera.setView(cx, cy, l.zoom !== undefined ? l.zoom / scale : v.camera.zoom);
    }
    if (l.sel !== undefined) {
      const ecs = v.sim.ecs;
      if (l.sel < ecs.alive.length && ecs.alive[l.sel]) this.select({ kind: 'entity', id: l.sel });
      else this.linkErrors.push(`bad link parameter sel=${l.sel}: no such entity in this world; nothing is selected`);
    }
    if (l.follow) v.camera.follow();
    if (l.speed !== undefined) this.setSpeed(l.speed);
    if (l.legend === false) ($('legend-on') as HTMLInputElement).checked = false;
    $('legend').hidden = !($('legend-on') as HTMLInputElement).checked;
    if (l.overlay === false) {
      ($('overlay') as HTMLInputElement).checked = false;
      v.setOverlayVisible(false);
    }
    if (l.sight === false) {
      ($('sight') as HTMLInputElement).checked = false;
      v.showSight = false;
    }
    if (this.pendingFrame) {
      const name = this.pendingFrame.replay ?? 'the replay';
      this.info = `This link shows frame ${this.pendingFrame.frame} of ${name}: drop that replay file on the page to open it there.`;
    }
  }

  /** Shows the agent count in its menu: "auto (N)" for the sandbox's default, else the count (added if unlisted). */
  showAgents(): void {
    const menu = document.getElementById('agents') as HTMLSelectElement | null;
    if (!menu) return;
    const auto = menu.options[0]!;
    auto.textContent = this.session && this.agents === null ? `auto (${this.session.settings.agents})` : 'auto';
    const v = this.agents === null ? '' : String(this.agents);
    if (!Array.from(menu.options).some((o) => o.value === v)) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      menu.appendChild(o);
    }
    menu.value = v;
  }

  // ---------- running ----------

  /** One simulation frame: the keyboard's buttons live, the recorded ones in a replay. */
  stepOnce(): boolean {
    const s = this.session;
    if (!s) return false;
    const t0 = performance.now();
    if (s.mode === 'live') s.stepLive(this.keys.buttons);
    else if (!s.stepReplay()) {
      this.paused = true;
      return false;
    }
    this.stepMs = performance.now() - t0;
    this.footsteps();
    return true;
  }

  private tick(): void {
    const now = performance.now();
    const dt = this.last ? now - this.last : 1000 / SIM_HZ;
    this.last = now;
    this.frame(dt);
  }

  /** One animation frame with `dt` real milliseconds since the last: step what the clock owes, draw. */
  frame(dt: number): number {
    const now = performance.now();
    this.fpsFrames++;
    if (now - this.fpsStart >= 1000) {
      this.fps = (this.fpsFrames * 1000) / (now - this.fpsStart);
      this.fpsFrames = 0;
      this.fpsStart = now;
    }
    const s = this.session;
    const n = this.clock.frames(dt, !this.paused && s !== null);
    let ran = 0;
    for (; ran < n; ran++) if (!this.stepOnce()) break;
    if (ran < n) this.clock.ranFewer(n - ran);
    if (s?.mode === 'replay') s.checkAhead(CHECK_FRAMES_PER_TICK);
    this.drawFrame();
    return ran;
  }

  /** Updates the view, the panels and the HUD from the current state (Pixi's ticker renders). */
  drawFrame(): void {
    if (!this.view || !this.session) return;
    this.view.draw();
    this.refreshSelection();
    this.updatePanels();
    this.updateHud();
    if (++this.urlFrames >= URL_FRAMES) this.syncUrl();
  }

  /** A footstep every FOOTSTEP_FRAMES simulated frames while the player's position changes. */
  private footsteps(): void {
    const sim = this.session!.sim;
    const P = sim.ecs.components.Position;
    const p: [number, number, number] = [P.x[sim.player]!, P.y[sim.player]!, P.z[sim.player]!];
    const l = this.lastPlayer;
    const moved = Number.isFinite(l[0]) && (p[0] !== l[0] || p[1] !== l[1] || p[2] !== l[2]);
    this.lastPlayer = p;
    if (!moved) {
      this.walkFrames = 0;
      return;
    }
    if (this.walkFrames++ % FOOTSTEP_FRAMES === 0) this.sound.footstep();
  }

  setSpeed(speed: number): void {
    this.clock.speed = speed;
    ($('speed') as HTMLSelectElement).value = String(speed);
  }

  // ---------- inspecting ----------

  /** The hover answer at a screen point (CSS pixels on the map canvas). */
  hoverAtScreen(sx: number, sy: number): ProbeAnswer | null {
    const v = this.view;
    if (!v) return null;
    this.hoverAt = [sx, sy];
    const [mx, my] = v.toMap(sx, sy);
    this.hover = probeAt(v.sim.world, mx, my, v.plane);
    this.updatePanels();
    return this.hover;
  }

  /** A click at a screen point: the entity under it if any (within its drawn size), else the tile. */
  clickAtScreen(sx: number, sy: number): Selection {
    const v = this.view;
    if (!v) return null;
    const [mx, my] = v.toMap(sx, sy);
    const i = pickEntity(v.entities, mx, my, 12 / v.camera.zoom);
    this.select(i >= 0 ? { kind: 'entity', id: v.entities.ids[i]! } : { kind: 'tile', x: mx, y: my });
    return this.selection;
  }

  select(s: Selection): void {
    this.selection = s;
    this.behaviourFrame = -Infinity;
    this.tileInfo = null;
    this.entityInfo = null;
    this.applySelection();
    this.legendKey = '';
    if (this.view && this.session) {
      this.refreshSelection();
      this.updatePanels();
    }
    this.syncUrl();
  }

  /** Tells the view what is selected, and reads the tile's description (it does not change). */
  private applySelection(): void {
    const v = this.view;
    if (!v) return;
    const s = this.selection;
    if (s?.kind === 'tile') {
      this.tileInfo = describeAt(v.sim.world, s.x, s.y);
      v.state = { selected: -1, highlights: this.tileInfo.highlights };
    } else v.state = { selected: s?.kind === 'entity' ? s.id : -1, highlights: [] };
  }

  /** The selected entity's components and sight, read each drawn frame (behaviours every BEHAVIOUR_FRAMES). */
  private refreshSelection(): void {
    const s = this.selection;
    const v = this.view!;
    if (s?.kind !== 'entity') return;
    const sim = v.sim;
    if (Math.abs(sim.frame - this.behaviourFrame) >= BEHAVIOUR_FRAMES) {
      this.behaviour = behaviours(sim);
      this.behaviourFrame = sim.frame;
    }
    this.entityInfo = describeEntity(sim, s.id, this.behaviour);
  }

  private updatePanels(): void {
    const v = this.view!;
    const sel = this.selection;
    const p = v.probe;
    this.inspector.update(this.hover, v.plane, {
      tile: this.tileInfo,
      entity: this.entityInfo,
      sees: sel?.kind === 'entity' && p.from === sel.id ? { ...p.lists(), range: p.range } : null,
    });
    // The legend, rebuilt when what it lists changes.
    const on = ($('legend-on') as HTMLInputElement).checked;
    const ctx = {
      overlay: v.overlayVisible,
      sight: v.showSight && v.rays !== 'off',
      selectedAgent: sel?.kind === 'entity' && p.count > 0,
      selectedTile: sel?.kind === 'tile',
      ambience: v.ambience,
      weatherKinds: v.weatherSeen,
      heatMax: v.heatOn && v.heat.grid ? v.heat.grid.max : v.heatOn ? 0 : null,
    };
    const key = `${on}:${ctx.overlay}:${ctx.sight}:${ctx.selectedAgent}:${ctx.selectedTile}:${[...v.weatherSeen].sort().join(',')}:${ctx.heatMax}`;
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.legendEntries = legendFor(v.sim.world, ctx);
      fillLegend($('legend'), this.legendEntries, `legend: ${v.sim.world.kind} ${v.sim.world.name}`);
    }
    $('legend').hidden = !on;
    this.overview.draw(v.camera.visibleRect(), v.playerPosition());
    const s = this.session!;
    if (s.mode === 'replay' && s.replay) {
      this.timeline.update({ length: s.replayLength, keyframes: s.replay.keyframes.map((k) => k.frame), divergence: this.divergence(), checked: s.check?.frame ?? 0 });
    } else this.timeline.update(null);
  }

  /** The first divergent frame known: found in playback or by the check ahead (−1 none). */
  divergence(): number {
    const s = this.session;
    if (!s) return -1;
    const a = s.desyncFrame;
    const b = s.check?.divergence ?? -1;
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  // ---------- recording and replays ----------

  /** Back to frame 0 on a fresh world, recording (paused or running as before). */
  async startRecording(): Promise<void> {
    await this.session!.restart(true);
    this.clock.reset();
    this.rebuildView();
  }

  finishRecording(): Uint8Array {
    const bytes = this.session!.finishRecording();
    this.lastReplay = bytes;
    return bytes;
  }

  downloadReplay(): void {
    if (!this.lastReplay) return;
    const name = `${this.session!.opened.world.kind}-${this.session!.opened.identity.contentHash.slice(2, 10)}.rsr`;
    download(this.lastReplay, name);
  }

  async loadReplay(bytes: Uint8Array, name = 'replay.rsr'): Promise<void> {
    this.setError('');
    try {
      const rp = readReplay(bytes);
      const src = rp.header.world.source;
      const e = entryForSource(src);
      // The replay's world: a catalog world by its source, or the world on the page when its content matches.
      if (e && this.source?.source !== src) await this.openCatalog(e.id);
      else if (!e && this.session?.opened.identity.contentHash !== rp.header.world.contentHash) {
        throw new Error(`the replay ran on ${src}: open that world (drop its file) first`);
      }
      await this.session!.loadReplay(bytes);
      this.replayName = name;
      this.clock.reset();
      this.rebuildView();
      const scrub = $('scrub') as HTMLInputElement;
      scrub.max = String(rp.frames.count);
      scrub.value = '0';
      this.paused = true;
      // A link's frame for this replay.
      const pf = this.pendingFrame;
      if (pf && (pf.replay === undefined || pf.replay === name)) {
        this.pendingFrame = null;
        this.info = '';
        this.seek(pf.frame);
        this.showBanner();
      }
      this.syncUrl();
    } catch (err) {
      this.setError(`cannot load the replay: ${(err as Error).message}`);
      throw err;
    }
  }

  seek(frame: number): void {
    const s = this.session;
    if (!s || s.mode !== 'replay') return;
    s.seek(frame);
    this.view?.heat.reset();
    this.drawFrame();
  }

  // ---------- page ----------

  private setError(msg: string): void {
    this.errors = msg ? [msg] : [];
    this.showBanner();
  }

  private showBanner(): void {
    const b = $('banner');
    const errors = [...this.linkErrors, ...this.errors];
    const text = [...errors, ...(this.info ? [this.info] : [])].join('\n');
    $('banner-text').textContent = text;
    b.classList.toggle('info', errors.length === 0 && this.info !== '');
    b.hidden = text === '';
  }

  get error(): string {
    return [...this.linkErrors, ...this.errors].join('\n');
  }

  private resize(): void {
    const host = $('view');
    const dpr = Math.max(1, window.devicePixelRatio || 1);
    if (!this.app?.renderer) return;
    // The canvas sits on whole device pixels (the bars above it may end between pixels), so the
    // compositor copies it without resampling: shifted back by the fraction, sized to whole pixels.
    const r = host.getBoundingClientRect();
    const fx = Math.round(r.left * dpr) / dpr - r.left;
    const fy = Math.ceil(r.top * dpr - 1e-6) / dpr - r.top;
    const w = Math.max(1, Math.floor(r.width - fx));
    const h = Math.max(1, Math.floor(r.height - fy));
    (this.app.canvas as HTMLCanvasElement).style.transform = fx || fy ? `translate(${fx}px, ${fy}px)` : '';
    if (dpr !== this.dpr) {
      this.dpr = dpr;
      this.app.renderer.resolution = dpr;
    }
    if (this.app.screen.width !== w || this.app.screen.height !== h || this.app.renderer.resolution !== dpr) this.app.renderer.resize(w, h, dpr);
    this.view?.resize(w, h, dpr);
    if (this.view) this.overview.setWorld(this.view.raster, this.view.rect, insetSize($('side').clientWidth));
    this.drawFrame();
  }

  private updateHud(): void {
    const s = this.session!;
    const sim = s.sim;
    const v = this.view;
    const a = v?.lastAmbient;
    const weather = a ? weatherCounts(a.counts).map((w) => `${w.label} ×${w.count}`).join(', ') : '';
    const amb = v?.ambience;
    const rep = this.clock.report();
    const speed = `${speedLabel(this.clock.speed)}`;
    const pace = this.paused
      ? 'paused'
      : rep.behind
        ? `BEHIND: the game runs at ${Math.round(rep.ratio * 100)}% of ${speed} speed (${rep.achieved.toFixed(0)} of ${rep.target.toFixed(0)} frames/s): this machine cannot keep up`
        : `game speed ${speed} (${rep.achieved.toFixed(0)} frames/s)`;
    const lines = [
      `${s.opened.world.kind}  ${s.opened.world.name}${amb ? `  ·  ${amb.weather}, ${amb.time}${amb.traveller ? `, ${amb.traveller}` : ''}` : ''}`,
      `frame ${sim.frame}${s.mode === 'replay' ? ` / ${s.replayLength}` : ''}   ${this.fps.toFixed(0)} fps   step ${this.stepMs.toFixed(1)} ms   draw ${(v?.lastDrawMs ?? 0).toFixed(1)} ms`,
      pace,
      `hash ${s.hash}`,
      `fieldrand ${sim.rng.fieldrand.count}   ccRand ${sim.rng.ccrand.draws}   agents ${sim.agentsPlaced}`,
      `${s.mode === 'replay' ? (this.divergence() < 0 ? `replay: every frame matches${s.check && !s.check.done ? ` (checked ${s.check.frame} of ${s.replayLength})` : ''}` : `replay: DESYNC at frame ${this.divergence()}`) : s.recording ? 'recording' : 'live'}`,
      weather ? `weather: ${weather}` : '',
    ].filter(Boolean);
    const hud = $('hud');
    const key = lines.join('\n');
    if (hud.dataset['text'] !== key) {
      hud.dataset['text'] = key;
      hud.replaceChildren(
        ...lines.flatMap((l, i) => {
          const span = document.createElement('span');
          span.textContent = l;
          if (l.startsWith('BEHIND')) span.className = 'behind';
          return i ? [document.createTextNode('\n'), span] : [span];
        }),
      );
    }
    const scrub = $('scrub') as HTMLInputElement;
    scrub.disabled = s.mode !== 'replay';
    if (s.mode === 'replay') {
      if (document.activeElement !== scrub) scrub.value = String(sim.frame);
    } else scrub.value = '0';
    $('frame-label').textContent = s.mode === 'replay' ? `${sim.frame} / ${s.replayLength}` : `frame ${sim.frame}`;
    ($('step-back') as HTMLButtonElement).disabled = s.mode !== 'replay' || sim.frame === 0;
    ($('record') as HTMLButtonElement).textContent = s.recording ? 'Stop & download' : 'Record';
    ($('play') as HTMLButtonElement).textContent = this.paused ? 'Play' : 'Pause';
    ($('download-replay') as HTMLButtonElement).disabled = !this.lastReplay;
  }

  /** The view as a link (the query string). */
  viewLink(): ViewLink {
    const ls = this.linkSettings;
    const l: ViewLink = { params: { ...this.linkParams } };
    if (ls.streamSeed !== undefined) l.streamSeed = ls.streamSeed;
    if (ls.ccRandInit !== undefined) l.ccRandInit = ls.ccRandInit;
    if (ls.fieldSeed !== undefined) l.fieldSeed = ls.fieldSeed;
    if (this.source?.catalogId) l.world = this.source.catalogId;
    if (this.agents !== null) l.agents = this.agents;
    const v = this.view;
    if (v) {
      const cam = v.camera;
      const scale = v.sim.world.scale > 0 && Number.isFinite(v.sim.world.scale) ? v.sim.world.scale : 1;
      if (!cam.framed && !cam.following) {
        l.at = [cam.cx, v.plane.ySign * cam.cy];
        l.zoom = cam.zoom * scale;
      } else if (cam.following) l.zoom = cam.zoom * scale;
      if (cam.following) l.follow = true;
    }
    if (this.selection?.kind === 'entity') l.sel = this.selection.id;
    const s = this.session;
    if (s?.mode === 'replay') {
      if (this.replayName) l.replay = this.replayName;
      l.frame = s.sim.frame;
    }
    if (this.clock.speed !== 1) l.speed = this.clock.speed;
    if (this.heat) l.heat = true;
    if (this.rays !== 'few') l.rays = this.rays;
    if (!($('overlay') as HTMLInputElement).checked) l.overlay = false;
    if (!($('sight') as HTMLInputElement).checked) l.sight = false;
    if (!($('legend-on') as HTMLInputElement).checked) l.legend = false;
    if (parsed.link.renderer) l.renderer = parsed.link.renderer;
    if (this.sound?.isMuted) l.mute = true;
    if (parsed.link.aa) l.aa = true;
    return l;
  }

  /** Writes the view's link into the address bar (when it changed). */
  syncUrl(): string {
    const q = formatViewLink(this.viewLink());
    this.urlFrames = 0;
    if (q !== this.lastUrl) {
      this.lastUrl = q;
      history.replaceState(null, '', `${location.pathname}${q}`);
    }
    return q;
  }

  private runAction(a: PageAction): void {
    const v = this.view;
    const s = this.session;
    switch (a) {
      case 'help':
        $('help-overlay').hidden = !$('help-overlay').hidden;
        break;
      case 'close':
        if (!$('help-overlay').hidden) $('help-overlay').hidden = true;
        else this.select(null);
        break;
      case 'pause':
        this.paused = !this.paused;
        break;
      case 'step-forward':
        this.paused = true;
        this.stepOnce();
        this.drawFrame();
        break;
      case 'step-back':
        if (s?.mode === 'replay' && s.sim.frame > 0) {
          this.paused = true;
          this.seek(s.sim.frame - 1);
        }
        break;
      case 'slower':
        this.setSpeed(slower(this.clock.speed));
        break;
      case 'faster':
        this.setSpeed(faster(this.clock.speed));
        break;
      case 'first-frame':
        if (s?.mode === 'replay') this.seek(0);
        break;
      case 'last-frame':
        if (s?.mode === 'replay') this.seek(s.replayLength);
        break;
      case 'zoom-in':
        v?.camera.zoomAt(1.25);
        break;
      case 'zoom-out':
        v?.camera.zoomAt(0.8);
        break;
      case 'overview':
        v?.frameWorld();
        break;
      case 'follow':
        v?.camera.follow();
        break;
      case 'legend': {
        const c = $('legend-on') as HTMLInputElement;
        c.checked = !c.checked;
        break;
      }
      case 'heat':
        this.setHeat(!this.heat);
        break;
      case 'rays':
        this.setRays(RAY_DENSITIES[(RAY_DENSITIES.indexOf(this.rays) + 1) % RAY_DENSITIES.length]!);
        break;
      case 'overlay': {
        const c = $('overlay') as HTMLInputElement;
        c.checked = !c.checked;
        v?.setOverlayVisible(c.checked);
        break;
      }
      case 'mute': {
        const c = $('mute') as HTMLInputElement;
        c.checked = !c.checked;
        this.sound.setMuted(c.checked);
        break;
      }
    }
    this.syncUrl();
  }

  setHeat(on: boolean): void {
    this.heat = on;
    ($('heat') as HTMLInputElement).checked = on;
    if (this.view) this.view.heatOn = on;
  }

  setRays(d: RayDensity): void {
    this.rays = d;
    ($('rays') as HTMLSelectElement).value = d;
    if (this.view) this.view.rays = d;
  }

  /** Gives the keyboard back to the map (after a menu or a button took it). */
  focusMap(): void {
    const c = this.app?.canvas as HTMLCanvasElement | undefined;
    if (document.activeElement instanceof HTMLElement && document.activeElement !== c) document.activeElement.blur();
    c?.focus();
  }

  private bindUi(): void {
    const select = $('world') as HTMLSelectElement;
    for (const e of CATALOG) {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.label;
      select.appendChild(o);
    }
    select.addEventListener('change', () => {
      const id = select.value;
      this.focusMap();
      if (id === FILE_ENTRY) {
        if (this.fileSource && this.source !== this.fileSource) void this.openSource(this.fileSource).catch(() => undefined);
        return;
      }
      void this.openCatalog(id).catch(() => undefined);
    });
    const agents = $('agents') as HTMLSelectElement;
    agents.addEventListener('change', () => {
      this.agents = agents.value === '' ? null : Number(agents.value);
      this.focusMap();
      if (this.source) void this.openSource(this.source).catch(() => undefined);
    });
    const rays = $('rays') as HTMLSelectElement;
    rays.value = this.rays;
    rays.addEventListener('change', () => {
      this.setRays(rays.value as RayDensity);
      this.focusMap();
      this.syncUrl();
    });
    const speed = $('speed') as HTMLSelectElement;
    speed.addEventListener('change', () => {
      this.setSpeed(Number(speed.value));
      this.focusMap();
      this.syncUrl();
    });
    ($('heat') as HTMLInputElement).checked = this.heat;
    $('heat').addEventListener('change', () => {
      this.setHeat(($('heat') as HTMLInputElement).checked);
      this.focusMap();
      this.syncUrl();
    });
    $('restart').addEventListener('click', () => void this.session?.restart(false).then(() => this.rebuildView()));
    $('record').addEventListener('click', () => {
      if (this.session?.recording) {
        this.finishRecording();
        this.downloadReplay();
      } else
        void this.startRecording().then(() => {
          this.paused = false;
        });
    });
    $('download-replay').addEventListener('click', () => this.downloadReplay());
    $('download-world').addEventListener('click', () => {
      const spec = this.source?.spec;
      if (spec) download(spec.bytes, spec.name, 'application/json');
    });
    $('play').addEventListener('click', () => this.runAction('pause'));
    $('step').addEventListener('click', () => this.runAction('step-forward'));
    $('step-back').addEventListener('click', () => this.runAction('step-back'));
    $('live').addEventListener('click', () => {
      this.session?.goLive();
      this.replayName = null;
      this.paused = false;
      this.syncUrl();
    });
    $('overview').addEventListener('click', () => this.runAction('overview'));
    $('follow').addEventListener('click', () => this.runAction('follow'));
    $('help').addEventListener('click', () => this.runAction('help'));
    $('banner-close').addEventListener('click', () => {
      this.errors = [];
      this.linkErrors = [];
      this.info = '';
      this.showBanner();
    });
    $('help-overlay').addEventListener('click', () => {
      $('help-overlay').hidden = true;
    });
    const scrub = $('scrub') as HTMLInputElement;
    scrub.addEventListener('input', () => {
      this.paused = true;
      this.seek(Number(scrub.value));
    });
    scrub.addEventListener('change', () => this.focusMap());
    const files = $('files') as HTMLInputElement;
    files.addEventListener('change', () => {
      const chosen = Array.from(files.files ?? []);
      // Emptied once read: the menu names what opened, and choosing the same file again opens it again.
      files.value = '';
      void this.openFiles(chosen).catch(() => undefined);
      this.focusMap();
    });
    ($('mute') as HTMLInputElement).checked = this.sound.isMuted;
    $('mute').addEventListener('change', () => this.sound.setMuted(($('mute') as HTMLInputElement).checked));
    $('sight').addEventListener('change', () => {
      if (this.view) this.view.showSight = ($('sight') as HTMLInputElement).checked;
    });
    $('overlay').addEventListener('change', () => this.view?.setOverlayVisible(($('overlay') as HTMLInputElement).checked));
    // Every control in the bars gives the keyboard back to the map once used.
    for (const bar of [document.querySelector('header')!, $('replay-bar')]) {
      bar.addEventListener('click', (e) => {
        if (e.target instanceof HTMLButtonElement || (e.target instanceof HTMLInputElement && e.target.type === 'checkbox')) this.focusMap();
      });
    }
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      void this.openFiles(Array.from(e.dataTransfer?.files ?? [])).catch(() => undefined);
    });
    // Zoom with the wheel, pan by dragging, hover to read, click to inspect.
    const canvas = this.app.canvas as HTMLCanvasElement;
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = canvas.getBoundingClientRect();
        this.view?.camera.zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
    let drag: { x: number; y: number; moved: number } | null = null;
    canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: 0 };
      canvas.focus();
    });
    window.addEventListener('pointerup', (e) => {
      const d = drag;
      drag = null;
      if (d && d.moved < 4 && e.target === canvas) {
        const r = canvas.getBoundingClientRect();
        this.clickAtScreen(e.clientX - r.left, e.clientY - r.top);
      }
    });
    window.addEventListener('pointermove', (e) => {
      const r = canvas.getBoundingClientRect();
      if (e.target === canvas) this.hoverAtScreen(e.clientX - r.left, e.clientY - r.top);
      if (!drag || !this.view) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      drag.moved += Math.abs(dx) + Math.abs(dy);
      if (drag.moved >= 4) this.view.camera.panPixels(dx, dy);
      drag.x = e.clientX;
      drag.y = e.clientY;
    });
    canvas.addEventListener('pointerleave', () => {
      this.hover = null;
      this.hoverAt = null;
    });
    // The overview inset: click or drag to move there.
    const mini = $('minimap') as HTMLCanvasElement;
    let miniDrag = false;
    const jump = (e: PointerEvent) => {
      const r = mini.getBoundingClientRect();
      const p = this.overview.mapAt(e.clientX - r.left - mini.clientLeft, e.clientY - r.top - mini.clientTop);
      if (p && this.view) this.view.camera.centreOn(p[0], p[1]);
    };
    mini.addEventListener('pointerdown', (e) => {
      miniDrag = true;
      jump(e);
      e.stopPropagation();
    });
    mini.addEventListener('pointermove', (e) => {
      if (miniDrag) jump(e);
    });
    window.addEventListener('pointerup', () => {
      if (miniDrag) {
        miniDrag = false;
        this.focusMap();
        this.syncUrl();
      }
    });
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const a = actionForKey(e.key);
      if (!a) return;
      e.preventDefault();
      this.runAction(a);
    });
  }

  // ---------- scripting and tests ----------

  /** Steps `n` frames now (keys as held), draws and renders once; for tests and the console. */
  advance(n: number): void {
    for (let i = 0; i < n; i++) if (!this.stepOnce()) break;
    this.drawFrame();
    this.app.renderer.render(this.app.stage);
  }

  /** Draws and renders the current state (no step). */
  render(): void {
    this.drawFrame();
    this.app.renderer.render(this.app.stage);
  }

  /**
   * Runs `n` frames synchronously, each stepped, drawn and rendered, and reports the mean and median
   * milliseconds of each part (the drawing is forced to finish by reading a pixel back each frame, so
   * "render" is its true cost).
   */
  measure(n: number): Record<string, number | string> {
    const step: number[] = [];
    const draw: number[] = [];
    const render: number[] = [];
    const frame: number[] = [];
    const gl = (this.app.renderer as unknown as { gl?: WebGL2RenderingContext }).gl;
    // The canvas renderer's 2D context: reading a pixel back makes its drawing happen now, too.
    const ctx2d = gl ? null : (this.app.canvas as HTMLCanvasElement).getContext('2d');
    const px = new Uint8Array(4);
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      this.stepOnce();
      const t1 = performance.now();
      this.drawFrame();
      const t2 = performance.now();
      this.app.renderer.render(this.app.stage);
      if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      else ctx2d?.getImageData(0, 0, 1, 1);
      const t3 = performance.now();
      step.push(t1 - t0);
      draw.push(t2 - t1);
      render.push(t3 - t2);
      frame.push(t3 - t0);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const sorted = [...frame].sort((a, b) => a - b);
    return {
      frames: n,
      stepMs: mean(step),
      drawMs: mean(draw),
      renderMs: mean(render),
      frameMs: mean(frame),
      medianStepMs: median(step),
      medianDrawMs: median(draw),
      medianRenderMs: median(render),
      medianFrameMs: median(frame),
      p90FrameMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? NaN,
      fps: 1000 / mean(frame),
      renderer: this.app.renderer.name,
    };
  }

  /** Records the real time of each animation frame while the page runs on its own (for the pace figures). */
  startFrameTimes(): void {
    this.frameTimes = [];
    const rec = () => this.frameTimes.push(performance.now());
    this.app.ticker.add(rec);
    this.stopFrameTimes = () => this.app.ticker.remove(rec);
  }
  stopFrameTimes: () => void = () => undefined;

  /** The recorded animation frames' intervals (ms). */
  frameIntervals(): number[] {
    const t = this.frameTimes;
    return t.slice(1).map((v, i) => v - t[i]!);
  }

  state(): Record<string, unknown> {
    const s = this.session!;
    const sim = s.sim;
    const p = sim.ecs.components.Position;
    const h = sim.hash();
    const v = this.view;
    const cam = v?.camera;
    return {
      kind: sim.world.kind,
      name: sim.world.name,
      source: s.opened.identity.source,
      frame: sim.frame,
      hash: hex64(h.hi, h.lo),
      mode: s.mode,
      recording: s.recording,
      paused: this.paused,
      player: [p.x[sim.player], p.y[sim.player], p.z[sim.player]],
      heading: sim.ecs.components.Heading.angle[sim.player],
      agents: sim.agentsPlaced,
      settingsAgents: s.settings.agents,
      fieldrand: sim.rng.fieldrand.count,
      ccrand: sim.rng.ccrand.draws,
      desyncFrame: s.desyncFrame,
      divergence: this.divergence(),
      checked: s.check?.frame ?? 0,
      replayLength: s.replayLength,
      keyframes: s.replay?.keyframes.map((k) => k.frame) ?? [],
      buttons: this.keys.buttons,
      weather: v?.lastAmbient?.counts ?? null,
      weatherHuman: v?.lastAmbient ? weatherCounts(v.lastAmbient.counts) : [],
      ambience: v?.ambience ?? null,
      sky: v ? { ...v.lastSky } : null,
      sounds: { ...this.sound.started },
      soundsLoaded: this.sound.loaded(),
      renderer: this.app.renderer.name,
      error: this.error,
      info: this.info,
      fps: this.fps,
      speed: this.clock.speed,
      clock: this.clock.report(),
      menu: ($('world') as HTMLSelectElement).value,
      menuLabel: ($('world') as HTMLSelectElement).selectedOptions[0]?.textContent ?? '',
      camera: cam ? { cx: cam.cx, cy: cam.cy, zoom: cam.zoom, width: cam.width, height: cam.height, framed: cam.framed, following: cam.following, fitZoom: cam.fitZoom } : null,
      worldRect: v ? { ...v.rect } : null,
      worldOnScreen: v ? [...v.toScreen(v.rect.x, v.rect.y), ...v.toScreen(v.rect.x + v.rect.width, v.rect.y + v.rect.height)] : null,
      resolution: this.app.renderer.resolution,
      canvas: { width: (this.app.canvas as HTMLCanvasElement).width, height: (this.app.canvas as HTMLCanvasElement).height, cssWidth: (this.app.canvas as HTMLCanvasElement).clientWidth, cssHeight: (this.app.canvas as HTMLCanvasElement).clientHeight },
      tiles: v ? { kept: v.tiles.size, drawnLast: v.tiles.drawnLastUpdate, drawnTotal: v.tiles.drawnTotal } : null,
      hover: this.hover,
      hoverAt: this.hoverAt,
      selection: this.selection,
      tile: this.tileInfo,
      entity: this.entityInfo,
      sees: v && this.selection?.kind === 'entity' && v.probe.from === this.selection.id ? v.probe.lists() : null,
      heat: v?.heat.grid ? { frame: v.heat.grid.frame, max: v.heat.grid.max, rays: v.heat.grid.rays, cols: v.heat.grid.cols, rows: v.heat.grid.rows } : null,
      heatOn: this.heat,
      rays: this.rays,
      legend: this.legendEntries.map((e) => ({ group: e.group, label: e.label, colour: e.colour, symbol: e.symbol })),
      focus: document.activeElement?.id || document.activeElement?.tagName || '',
      helpShown: !$('help-overlay').hidden,
      url: location.search,
    };
  }

  /** The timeline's marks as drawn (for the tests). */
  timelineState(): Record<string, unknown> {
    const s = this.session;
    const width = $('marks').clientWidth;
    const m = s?.replay ? timelineMarks(s.replayLength, s.replay.keyframes.map((k) => k.frame), this.divergence(), width) : null;
    const dom = Array.from($('marks').children).map((c) => ({ cls: (c as HTMLElement).className, frame: (c as HTMLElement).dataset['frame'] ?? null, text: c.textContent ?? '' }));
    return { marks: m, dom, speed: this.clock.speed, speedLabel: speedLabel(this.clock.speed), frameLabel: $('frame-label').textContent };
  }
}

const sandbox = new SandboxApp();

/** The page's scripting interface (tests, console). */
const api = {
  ready: sandbox.start(),
  catalog: CATALOG.map((e) => ({ id: e.id, label: e.label, source: catalogSource(e) })),
  open: (id: string, agents?: number | null) => {
    if (agents !== undefined) sandbox.agents = agents;
    return sandbox.openCatalog(id);
  },
  pause: () => {
    sandbox.paused = true;
  },
  resume: () => {
    sandbox.paused = false;
  },
  /** Stops (false) or restarts (true) the page's own animation frames: tests then drive every frame. */
  ticker: (on: boolean) => {
    if (on) sandbox.app.ticker.start();
    else sandbox.app.ticker.stop();
  },
  /** One animation frame with `ms` elapsed: the clock's steps, the draw and the render. Returns frames run. */
  tick: (ms: number) => {
    const n = sandbox.frame(ms);
    sandbox.app.renderer.render(sandbox.app.stage);
    return n;
  },
  advance: (n: number) => sandbox.advance(n),
  render: () => sandbox.render(),
  measure: (n: number) => sandbox.measure(n),
  startFrameTimes: () => sandbox.startFrameTimes(),
  stopFrameTimes: () => {
    sandbox.stopFrameTimes();
    return sandbox.frameIntervals();
  },
  state: () => sandbox.state(),
  timeline: () => sandbox.timelineState(),
  legend: () => sandbox.legendEntries.map((e) => ({ ...e })),
  link: () => sandbox.syncUrl(),
  hover: (sx: number, sy: number) => sandbox.hoverAtScreen(sx, sy),
  click: (sx: number, sy: number) => sandbox.clickAtScreen(sx, sy),
  select: (id: number | null) => sandbox.select(id === null ? null : { kind: 'entity', id }),
  selectTile: (x: number, y: number) => sandbox.select({ kind: 'tile', x, y }),
  screenOf: (x: number, y: number) => sandbox.view?.toScreen(x, y) ?? null,
  entityScreen: (id: number) => {
    const v = sandbox.view;
    if (!v) return null;
    const [x, y] = v.positionOf(id);
    return Number.isFinite(x) ? v.toScreen(x, y) : null;
  },
  setHeat: (on: boolean) => sandbox.setHeat(on),
  setRays: (d: RayDensity) => sandbox.setRays(d),
  setSpeed: (s: number) => sandbox.setSpeed(s),
  startRecording: () => sandbox.startRecording(),
  finishRecording: () => Array.from(sandbox.finishRecording()),
  recordedHashes: () => [...(sandbox.session?.recordedHashes ?? [])],
  loadReplay: (bytes: number[], name?: string) => sandbox.loadReplay(Uint8Array.from(bytes), name),
  /** Finishes checking the loaded replay ahead of playback. */
  checkNow: () => {
    while (sandbox.session && !sandbox.session.checkAhead(1000));
    sandbox.render();
    return sandbox.divergence();
  },
  playReplay: (n: number) => {
    const out: (boolean | null)[] = [];
    for (let i = 0; i < n; i++) {
      const r = sandbox.session!.stepReplay();
      if (!r) break;
      out.push(r.matches);
    }
    sandbox.drawFrame();
    return out;
  },
  seek: (f: number) => sandbox.seek(f),
  goLive: () => sandbox.session?.goLive(),
  zoom: (factor: number) => sandbox.view?.camera.zoomAt(factor),
  heatGrid: () => {
    const g = sandbox.view?.heat.grid;
    return g ? { ...g, counts: Array.from(g.counts), floor: Array.from(g.floor) } : null;
  },
  setSight: (on: boolean) => {
    if (sandbox.view) sandbox.view.showSight = on;
  },
  setOverlay: (on: boolean) => sandbox.view?.setOverlayVisible(on),
  setLayer: (name: string, on: boolean) => sandbox.view?.setLayerVisible(name, on),
};

declare global {
  interface Window {
    retrosim: typeof api;
  }
}
window.retrosim = api;
