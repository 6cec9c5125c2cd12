/**
 * The browser sandbox: pick a world (or drop world files on the page), walk the player with the keyboard
 * through the same simulation code Node runs, watch the HUD (frame, frames per second, the state hash and
 * the RNG draws), record a replay and download it, load a replay and play, pause, step and seek it with the
 * scrubber, and hear the field's sounds.
 *
 * The simulation runs at a fixed 60 frames per second of simulated time, stepped from requestAnimationFrame
 * (at most a few frames per animation frame, so a slow machine slows the game down rather than spiral). The
 * page exposes `window.retrosim` for the browser tests and for scripting from the console.
 */
import { Application } from 'pixi.js';
import type { OpenedWorld } from '../../replay/world-identity.js';
import { hex64, readReplay } from '../../replay/format.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import { loadPineyTables, type PineyTables } from '../../worlds/piney/tables.js';
import { WorldView } from '../pixi/world-view.js';
import { KeyboardButtons } from './keyboard.js';
import { SandboxSession } from './session.js';
import { SoundPlayer } from './sound.js';
import { CATALOG, PINEY_TABLES_FILE, catalogEntry, catalogSource, entryForSource, openWorldBytes, variantFileName, variantSpecBytes, type CatalogEntry } from './world-catalog.js';

/** Simulated frames per second. */
export const SIM_HZ = 60;
/** Most simulation frames run per animation frame. */
const MAX_CATCH_UP = 4;
/** Frames between footsteps while the player walks. */
const FOOTSTEP_FRAMES = 18;

const params = new URLSearchParams(location.search);
const base = new URL('./', location.href).href;

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
};

async function fetchBytes(path: string): Promise<Uint8Array> {
  const r = await fetch(new URL(path, base));
  if (!r.ok) throw new Error(`cannot fetch ${path}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

function download(bytes: Uint8Array, name: string, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
function choosePreference(asked: string | null): 'webgl' | 'webgpu' | 'canvas' {
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
}

class SandboxApp {
  app!: Application;
  session: SandboxSession | null = null;
  view: WorldView | null = null;
  source: WorldSource | null = null;
  readonly keys = new KeyboardButtons();
  sound!: SoundPlayer;
  agents = Number(params.get('agents') ?? NaN);

  /** Shows the agent count in its menu, adding it when it is not one of the listed counts (e.g. ?agents=40). */
  showAgents(): void {
    const menu = document.getElementById('agents') as HTMLSelectElement | null;
    if (!menu) return;
    const v = Number.isInteger(this.agents) && this.agents >= 0 ? String(this.agents) : '';
    if (!Array.from(menu.options).some((o) => o.value === v)) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      menu.appendChild(o);
    }
    menu.value = v;
  }
  paused = false;
  /** Render frames per second (measured over the last second) and the last simulation step's cost. */
  fps = 0;
  stepMs = 0;
  private acc = 0;
  private last = 0;
  private fpsFrames = 0;
  private fpsStart = 0;
  private lastPlayer: [number, number, number] = [NaN, NaN, NaN];
  private walkFrames = 0;
  private lastReplay: Uint8Array | null = null;
  private error = '';
  /** The Piney field tables (assets/piney/field-tables.json), fetched once: a field spec is generated with them. */
  private tables: PineyTables | null = null;

  async start(): Promise<void> {
    this.tables = loadPineyTables(await fetchBytes(PINEY_TABLES_FILE));
    const host = $('view');
    const preference = choosePreference(params.get('renderer'));
    this.app = new Application();
    await this.app.init({ resizeTo: host, background: '#10141a', preference, antialias: params.get('aa') === '1', preserveDrawingBuffer: true, autoDensity: true, resolution: 1 });
    host.appendChild(this.app.canvas);
    this.sound = new SoundPlayer(base);
    this.sound.setMuted(params.get('mute') === '1');
    this.keys.attach(window);
    this.bindUi();
    await this.openCatalog(params.get('world') ?? CATALOG[0]!.id);
    this.app.ticker.add(() => this.tick());
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
    await this.openSource({ label: e.label, source: catalogSource(e), fileName, bytes, ...(map ? { map } : {}), ...(placements ? { placements } : {}), ...(spec ? { spec } : {}) });
    ($('world') as HTMLSelectElement).value = id;
  }

  /** Files dropped or picked: one world file, or a Llama TRAK with its MAP. */
  async openFiles(files: File[]): Promise<void> {
    if (files.length === 0) return;
    // The runtime's limits (src/limits.ts): a huge file is refused before it is read; the parsers apply the rest.
    const tooBig = files.find((f) => f.size > DEFAULT_LIMITS.fileBytes);
    if (tooBig) return this.setError(`cannot open ${tooBig.name}: ${tooBig.size} bytes is over the limit of ${DEFAULT_LIMITS.fileBytes} bytes (limits.fileBytes)`);
    const read = async (f: File) => new Uint8Array(await f.arrayBuffer());
    const replay = files.find((f) => /\.(rsr|replay|rply)$/i.test(f.name));
    if (replay) {
      await this.loadReplay(await read(replay));
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

  async openSource(src: WorldSource): Promise<void> {
    this.setError('');
    try {
      const over = Number.isInteger(this.agents) && this.agents >= 0 ? { agents: this.agents } : {};
      const session = await SandboxSession.create(this.opener(src), over);
      this.source = src;
      this.install(session);
    } catch (e) {
      this.setError(`cannot open ${src.label}: ${(e as Error).message}`);
      throw e;
    }
  }

  private install(session: SandboxSession): void {
    this.session = session;
    this.rebuildView();
    ($('download-world') as HTMLButtonElement).hidden = !this.source?.spec;
  }

  /** A new view on the session's current simulation (after it was rebuilt). */
  private rebuildView(): void {
    const s = this.session!;
    if (this.view) {
      this.app.stage.removeChild(this.view.stage);
      this.view.destroy();
    }
    this.view = new WorldView(s.sim, this.app.renderer.width, this.app.renderer.height, {
      showSight: ($('sight') as HTMLInputElement).checked,
      showOverlay: ($('overlay') as HTMLInputElement).checked,
      pixelSource: this.app.renderer.name === 'canvas' ? 'canvas' : 'buffer',
    });
    this.app.stage.addChild(this.view.stage);
    this.sound.attach(s.sim.events);
    this.lastPlayer = [NaN, NaN, NaN];
    this.view.draw();
    this.updateHud();
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
    if (!this.last) this.last = now;
    const dt = Math.min(250, now - this.last);
    this.last = now;
    this.fpsFrames++;
    if (now - this.fpsStart >= 1000) {
      this.fps = (this.fpsFrames * 1000) / (now - this.fpsStart);
      this.fpsFrames = 0;
      this.fpsStart = now;
    }
    if (!this.paused && this.session) {
      this.acc += dt;
      let n = 0;
      while (this.acc >= 1000 / SIM_HZ && n < MAX_CATCH_UP) {
        this.acc -= 1000 / SIM_HZ;
        if (!this.stepOnce()) break;
        n++;
      }
      if (n === MAX_CATCH_UP) this.acc = 0;
    } else this.acc = 0;
    this.drawFrame();
  }

  /** Updates the view and the HUD from the current state (no rendering: Pixi's ticker renders). */
  drawFrame(): void {
    if (!this.view || !this.session) return;
    this.view.draw();
    this.updateHud();
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

  // ---------- recording and replays ----------

  /** Back to frame 0 on a fresh world, recording (paused or running as before). */
  async startRecording(): Promise<void> {
    await this.session!.restart(true);
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

  async loadReplay(bytes: Uint8Array): Promise<void> {
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
      this.rebuildView();
      const scrub = $('scrub') as HTMLInputElement;
      scrub.max = String(rp.frames.count);
      scrub.value = '0';
      this.paused = true;
    } catch (err) {
      this.setError(`cannot load the replay: ${(err as Error).message}`);
      throw err;
    }
  }

  seek(frame: number): void {
    const s = this.session;
    if (!s || s.mode !== 'replay') return;
    s.seek(frame);
    this.drawFrame();
  }

  // ---------- page ----------

  private setError(msg: string): void {
    this.error = msg;
    const el = $('error');
    el.textContent = msg;
    el.hidden = msg === '';
  }

  private updateHud(): void {
    const s = this.session!;
    const sim = s.sim;
    const a = this.view?.lastAmbient;
    const weather = a ? Object.entries(a.counts).map(([k, v]) => `${k.replace(/^EFF_/, '')}×${v}`).join(' ') : '';
    const lines = [
      `${s.opened.world.kind}  ${s.opened.world.name}`,
      `frame ${sim.frame}${s.mode === 'replay' ? ` / ${s.replayLength}` : ''}   ${this.fps.toFixed(0)} fps   step ${this.stepMs.toFixed(1)} ms   draw ${(this.view?.lastDrawMs ?? 0).toFixed(1)} ms`,
      `hash ${s.hash}`,
      `fieldrand ${sim.rng.fieldrand.count}   ccRand ${sim.rng.ccrand.draws}   agents ${sim.agentsPlaced}`,
      `${s.mode === 'replay' ? (s.desyncFrame < 0 ? 'replay: every frame matches' : `replay: DESYNC at frame ${s.desyncFrame}`) : s.recording ? 'recording' : 'live'}${this.paused ? '  (paused)' : ''}`,
      weather ? `weather ${weather}` : '',
    ];
    $('hud').textContent = lines.filter(Boolean).join('\n');
    const scrub = $('scrub') as HTMLInputElement;
    scrub.disabled = s.mode !== 'replay';
    if (s.mode === 'replay' && document.activeElement !== scrub) scrub.value = String(sim.frame);
    ($('record') as HTMLButtonElement).textContent = s.recording ? 'Stop & download' : 'Record';
    ($('play') as HTMLButtonElement).textContent = this.paused ? 'Play' : 'Pause';
    ($('download-replay') as HTMLButtonElement).disabled = !this.lastReplay;
  }

  private bindUi(): void {
    const select = $('world') as HTMLSelectElement;
    for (const e of CATALOG) {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.label;
      select.appendChild(o);
    }
    select.addEventListener('change', () => void this.openCatalog(select.value));
    const agents = $('agents') as HTMLSelectElement;
    this.showAgents();
    agents.addEventListener('change', () => {
      this.agents = agents.value === '' ? NaN : Number(agents.value);
      if (this.source) void this.openSource(this.source);
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
    $('play').addEventListener('click', () => {
      this.paused = !this.paused;
    });
    $('step').addEventListener('click', () => {
      this.paused = true;
      this.stepOnce();
      this.drawFrame();
    });
    $('live').addEventListener('click', () => {
      this.session?.goLive();
      this.paused = false;
    });
    const scrub = $('scrub') as HTMLInputElement;
    scrub.addEventListener('input', () => {
      this.paused = true;
      this.seek(Number(scrub.value));
    });
    const files = $('files') as HTMLInputElement;
    files.addEventListener('change', () => void this.openFiles(Array.from(files.files ?? [])));
    ($('mute') as HTMLInputElement).checked = this.sound.isMuted;
    $('mute').addEventListener('change', () => this.sound.setMuted(($('mute') as HTMLInputElement).checked));
    $('sight').addEventListener('change', () => {
      if (this.view) this.view.showSight = ($('sight') as HTMLInputElement).checked;
    });
    $('overlay').addEventListener('change', () => this.view?.setOverlayVisible(($('overlay') as HTMLInputElement).checked));
    $('follow').addEventListener('click', () => this.view?.camera.follow());
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      void this.openFiles(Array.from(e.dataTransfer?.files ?? []));
    });
    // Zoom with the wheel, pan by dragging.
    const canvasHost = $('view');
    canvasHost.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = canvasHost.getBoundingClientRect();
        this.view?.camera.zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
    let drag: [number, number] | null = null;
    canvasHost.addEventListener('pointerdown', (e) => {
      drag = [e.clientX, e.clientY];
    });
    window.addEventListener('pointerup', () => {
      drag = null;
    });
    window.addEventListener('pointermove', (e) => {
      if (!drag || !this.view) return;
      this.view.camera.panPixels(e.clientX - drag[0], e.clientY - drag[1]);
      drag = [e.clientX, e.clientY];
    });
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === '+' || e.key === '=') this.view?.camera.zoomAt(1.25);
      else if (e.key === '-') this.view?.camera.zoomAt(0.8);
      else if (e.key === 'f' || e.key === 'F') this.view?.camera.follow();
      else if (e.key === 'p' || e.key === 'P') this.paused = !this.paused;
    });
    this.app.renderer.on('resize', (w: number, h: number) => this.view?.resize(w, h));
  }

  // ---------- scripting and tests ----------

  /** Steps `n` frames now (keys as held), draws and renders once; for tests and the console. */
  advance(n: number): void {
    for (let i = 0; i < n; i++) if (!this.stepOnce()) break;
    this.drawFrame();
    this.app.renderer.render(this.app.stage);
  }

  /**
   * Runs `n` frames synchronously, each stepped, drawn and rendered, and reports the mean milliseconds of each
   * part (the GPU work is forced to finish by reading a pixel back each frame, so "render" is its true cost).
   */
  measure(n: number): { frames: number; stepMs: number; drawMs: number; renderMs: number; frameMs: number; fps: number; renderer: string } {
    let step = 0;
    let draw = 0;
    let render = 0;
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
      step += t1 - t0;
      draw += t2 - t1;
      render += t3 - t2;
    }
    const frameMs = (step + draw + render) / n;
    return { frames: n, stepMs: step / n, drawMs: draw / n, renderMs: render / n, frameMs, fps: 1000 / frameMs, renderer: this.app.renderer.name };
  }

  state(): Record<string, unknown> {
    const s = this.session!;
    const sim = s.sim;
    const p = sim.ecs.components.Position;
    const h = sim.hash();
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
      fieldrand: sim.rng.fieldrand.count,
      ccrand: sim.rng.ccrand.draws,
      desyncFrame: s.desyncFrame,
      replayLength: s.replayLength,
      buttons: this.keys.buttons,
      weather: this.view?.lastAmbient?.counts ?? null,
      sounds: { ...this.sound.started },
      soundsLoaded: this.sound.loaded(),
      renderer: this.app.renderer.name,
      error: this.error,
      fps: this.fps,
    };
  }
}

const sandbox = new SandboxApp();

/** The page's scripting interface (tests, console). */
const api = {
  ready: sandbox.start(),
  catalog: CATALOG.map((e) => ({ id: e.id, label: e.label, source: catalogSource(e) })),
  open: (id: string, agents?: number) => {
    if (agents !== undefined) {
      sandbox.agents = agents;
      sandbox.showAgents();
    }
    return sandbox.openCatalog(id);
  },
  pause: () => {
    sandbox.paused = true;
  },
  resume: () => {
    sandbox.paused = false;
  },
  advance: (n: number) => sandbox.advance(n),
  measure: (n: number) => sandbox.measure(n),
  state: () => sandbox.state(),
  startRecording: () => sandbox.startRecording(),
  finishRecording: () => Array.from(sandbox.finishRecording()),
  recordedHashes: () => [...(sandbox.session?.recordedHashes ?? [])],
  loadReplay: (bytes: number[]) => sandbox.loadReplay(Uint8Array.from(bytes)),
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
