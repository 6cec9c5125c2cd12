/**
 * The browser sandbox: pick a world (or drop world files on the page) and see it whole, walk the player with
 * the keyboard through the same simulation code Node runs, inspect any point, tile or entity by hovering and
 * clicking, read line of sight (the selected agent's rays, a visibility heat map), share the view by its link,
 * record a replay and download it, load one and scrub, step and speed it like a video, and hear the field.
 *
 * This module only puts the page together: each part is a module of its own (the world, view and replay
 * controls, the map and its pointer, the side panels, the status, the banner, the link, the run loop, the
 * world shown), and the functions here say what one part's news means for the others. The page exposes
 * `window.retrosim` (scripting-api.ts) for the browser tests and for scripting from the console.
 */
import type { GtaWorld } from '../../worlds/gta/collision-world.js';
import { loadPineyTables } from '../../worlds/piney/tables.js';
import { SIM_HZ } from '../scene/sim-clock.js';
import { DEFAULT_RAYS, formatViewLink, linkBounds, parseViewLink } from '../scene/view-link.js';
import { AddressBar } from './address-bar.js';
import { Banner } from './banner.js';
import { BannerMessages } from './banner-state.js';
import { $ } from './dom.js';
import { bindFileDrop } from './file-drop.js';
import { openFirstWorld } from './first-world.js';
import { fillHelp } from './help-overlay.js';
import { Inspection, type Selection } from './inspection.js';
import { KeyboardButtons } from './keyboard.js';
import { LayoutToggles } from './layout-toggles.js';
import { cameraOf, LinkState, type PendingMoment, type ViewSnapshot } from './link-state.js';
import { applyLinkView } from './link-view.js';
import { fastForward, fileWaitText, momentOutcome, progressText, type MomentOutcome } from './link-moment.js';
import { MapCanvas } from './map-canvas.js';
import { bindMapKeys } from './map-keys.js';
import { bindMapPointer, bindOverviewPointer } from './map-pointer.js';
import { runAction, type ActionHost } from './page-actions.js';
import { bindPageKeys, returnKeysToMap } from './page-keys.js';
import { PageView } from './page-view.js';
import { NavSender, sendNews } from './nav-send.js';
import { PlacementsBanner } from './placements-banner.js';
import { openPlayPanel, type PlayPanel } from './play-panel.js';
import { placementsMissingText } from './placements-offer.js';
import { linkInputsNote, ReplayControls } from './replay-controls.js';
import { RoomControl } from './room-control.js';
import { HiddenTicker } from './hidden-ticker.js';
import { roomHost } from './room-host.js';
import { parseRoomLink } from './room-link.js';
import { RunLoop } from './run-loop.js';
import { installScriptingApi } from './scripting-api.js';
import type { SandboxSession } from './session.js';
import type { PageAction } from './shortcuts.js';
import { walkButtons } from './screen-walk.js';
import { ShownWorld } from './shown-world.js';
import { TouchPad } from './touch-pad.js';
import { SidePanels } from './side-panels.js';
import { SoundPlayer } from './sound.js';
import { StatusPanel } from './status-panel.js';
import { ViewControls } from './view-controls.js';
import { Welcome } from './welcome.js';
import { WorldControls } from './world-controls.js';
import { baseName, CATALOG, FIRST_WORLD, PINEY_TABLES_FILE } from './world-catalog.js';
import { publicFolder } from './world-sources.js';
import { WorldStage } from './world-stage.js';

export { SIM_HZ };

// The room's parameters (relay=, room=, players=, frames=) are the panel's; the view link reads the rest.
const roomLink = parseRoomLink(location.search);
const parsed = parseViewLink(roomLink.rest, { worlds: CATALOG.map((e) => e.id), bounds: linkBounds() }, location.hash);
const base = new URL('./', location.href).href;
const fetchBytes = publicFolder(base);
const swallow = (p: Promise<unknown>): void => void p.catch(() => undefined); // the banner already says why

// The parts that need nothing of the page's start.
const link = new LinkState(parsed.link);
const messages = new BannerMessages();
const banner = new Banner(messages, $('banner'), $('banner-text'), $('banner-close'));
const inspection = new Inspection();
const keys = new KeyboardButtons();
const panels = new SidePanels({ side: $('side'), inspector: $('inspector'), legend: $('legend'), minimap: $<HTMLCanvasElement>('minimap'), marks: $('marks') });
// the inspector's links select the body they name; its button shows the selection's path trail
panels.inspector.onSelect = (id) => pageView.select({ kind: 'entity', id });
panels.inspector.onTrail = (on) => void (view() && (view()!.trailOn = on));
const status = new StatusPanel({ world: $('status-world'), session: $('status-session'), numbers: $('hud'), paceDot: $('pace-dot') });
const address = new AddressBar();
/** A room's session while the page plays together (null: the page's own world). */
let roomShown: SandboxSession | null = null;
const current = () => roomShown ?? shown.session;
const loop = new RunLoop({ session: current, buttons: () => walkButtons(keys.buttons | (touchPad?.buttons ?? 0), viewControls?.screenWalk ?? false, current(), view()?.plane, view()?.you), footstep: () => sound.footstep(), draw: () => (pageView?.draw(), playPanel?.show(rooms.view())), roomStep: (b) => rooms.step(b), inRoom: () => rooms.active });
const shown = new ShownWorld(fetchBytes, {
  settingsFor: (world) => link.settingsFor(world, (line) => messages.reportLink(line)),
  install,
  showWorld: (source) => worldControls.showWorld(source),
  replayLoaded,
  setError: (message) => banner.setError(message),
  placementsMissing: (missing, src) => placementsOffer.show(missing ? placementsMissingText(baseName(src.fileName), (shown.session!.opened.world as GtaWorld).scene.models.length) : ''),
});
const placementsOffer = new PlacementsBanner($('placements-banner'), $('placements-text'), $<HTMLButtonElement>('add-placements'), $<HTMLInputElement>('placements-file'), $('placements-close'), (f) =>
  swallow(shown.addPlacements(f)),
);

// The parts made at start (they need the renderer, the sound, or the page's controls filled).
let map!: MapCanvas;
let pageView!: PageView;
let sound!: SoundPlayer;
let worldControls!: WorldControls;
let viewControls!: ViewControls;
let replayControls!: ReplayControls;
let layout!: LayoutToggles;
let welcome!: Welcome;
let touchPad: TouchPad | undefined;
let playPanel: PlayPanel | undefined;
let hiddenTicker: HiddenTicker | undefined;
const rooms = new RoomControl(roomHost({ shown, showRoom, view: () => view() }), roomLink.room.frames);
/** Replay controls and speed are the page's own; in a room every player runs the same frames at 60 Hz. */
const ROOM_OFF: readonly PageAction[] = ['pause', 'step-forward', 'step-back', 'slower', 'faster', 'first-frame', 'last-frame'];
const view = () => pageView?.view ?? null;
/** The fast-forward to the link's frame under way (null: none), its session, and how the last one ended. */
let fastForwarding: Promise<void> | null = null;
let reaching: SandboxSession | null = null;
let moment: MomentOutcome | null = null;

const navSender = new NavSender();
/** Of each animation frame, the milliseconds a navigation graph a send waits for is built on (the run and drawing keep the rest). */
const NAV_BUILD_MS_PER_FRAME = 6;

/** A Shift+click on the map (or a click after the inspector's send button): the selected agent sent there (nav-send.ts); the banner says what happened. */
function sendAt(sx: number, sy: number): void {
  const s = current();
  const v = view();
  if (!s || !v) return;
  const [mx, my] = v.toMap(sx, sy);
  panels.inspector.armSend(false);
  const out = navSender.send(s, inspection.selection, mx, my, v.plane);
  messages.info = out.text;
  lastSend = out.sent ? { ...out.sent, text: out.text } : null;
  banner.show();
  pageView.draw();
}

/** The last send that went out, and the line that said so: replaced when the agent arrives or finds no way. */
let lastSend: { entity: number; node: number; text: string } | null = null;

/** The banner's "is sent there" line gives way to what became of the agent (while the line is still shown). */
function followSend(): void {
  const s = current();
  if (lastSend === null || !s) return;
  if (messages.info !== lastSend.text) {
    lastSend = null;
    return;
  }
  const news = sendNews(s, lastSend);
  if (news === null) return;
  lastSend = null;
  messages.info = news;
  banner.show();
}

/** A send waiting for its world's graph: the graph built on for a few milliseconds of each animation frame. */
function buildForSend(): void {
  if (navSender.building === null) return;
  const until = performance.now() + NAV_BUILD_MS_PER_FRAME;
  const out = navSender.pump(current(), () => performance.now() >= until);
  if (!out) return;
  messages.info = out.text;
  lastSend = out.sent ? { ...out.sent, text: out.text } : null;
  banner.show();
  pageView.draw();
}

/** The name of the file the world shown came from (null: a catalog world). */
const shownFile = (): string | null => (shown.source && !shown.source.catalogId ? baseName(shown.source.fileName) : null);

/** Fast-forwards the session just opened to the link's frame, paused there, and says whether the hash is the link's. */
async function reachMoment(s: SandboxSession, m: PendingMoment): Promise<void> {
  loop.paused = true;
  reaching = s;
  try {
    await reachMomentOf(s, m);
  } finally {
    if (reaching === s) reaching = null;
  }
}

async function reachMomentOf(s: SandboxSession, m: PendingMoment): Promise<void> {
  const reached = await fastForward(s, m.frame, {
    now: () => performance.now(),
    pause: () => new Promise((r) => setTimeout(r, 0)),
    progress: (done, total) => {
      messages.info = progressText(m.frame, done, total);
      banner.show();
    },
    stopped: () => shown.session !== s,
  }, m.inputs);
  if (shown.session !== s) return;
  reaching = null; // the link now says this frame
  moment = momentOutcome(m, reached, s.hash);
  messages.info = moment.isError ? '' : moment.note;
  if (moment.isError) banner.setError(moment.note);
  else banner.show();
  loop.clock.reset();
  pageView.draw();
  syncUrl();
}

/** A session opened: shown from the whole world, with the link's view the first time. */
function install(session: SandboxSession): void {
  inspection.reset();
  loop.clock.reset();
  pageView.show(session, true);
  worldControls.offerSpec(!!shown.source?.spec);
  worldControls.showAgents(link.agents, session.settings.agents);
  // The link's view, once: on the first world opened (a file's view: on that file, once dropped).
  const file = shownFile();
  const l = link.takeView(file);
  if (l && link.file !== undefined) messages.info = ''; // the file the link asked for is here
  const v = view();
  if (l && v) applyLinkView(l, v, link.waitingFrame, { select: (sel: Selection) => pageView.select(sel), setSpeed, viewControls, showLegend: (on) => panels.showLegend(on), messages });
  const m = link.takeMoment(file);
  if (m) fastForwarding = reachMoment(session, m);
  syncUrl();
}

/** A replay loaded: paused at its start, or at the frame the link named for it. */
function replayLoaded(length: number, name: string): void {
  loop.clock.reset();
  pageView.show(shown.session!, false);
  replayControls.showReplay(length);
  loop.paused = true;
  const frame = link.takeFrame(name);
  if (frame !== null) {
    messages.info = '';
    pageView.seek(frame);
    banner.show();
  }
  syncUrl();
}

/** Shows a room's session (null: the page's own world again). */
function showRoom(s: SandboxSession | null): void {
  roomShown = s;
  loop.clock.reset();
  const now = current();
  if (now) pageView.show(now, false);
  if (s) {
    loop.paused = false;
    setSpeed(1);
    welcome.hide();
  }
  focusMap();
  // The address says the room's link as soon as the page is in it (or the view's again when it left).
  syncUrl();
}

function setSpeed(speed: number): void {
  loop.clock.speed = speed;
  replayControls.showSpeed(speed);
}

/** Back to frame 0 on a fresh world (paused or running as before); the record starts again there. */
async function startRecording(): Promise<void> {
  await shown.session!.restart();
  loop.clock.reset();
  pageView.show(shown.session!, false);
}

function viewSnapshot(): ViewSnapshot {
  const v = view();
  const s = shown.session;
  const sel = inspection.selection;
  return {
    world: shown.source?.catalogId,
    agents: link.agents,
    camera: v ? cameraOf(v) : null,
    selectedEntity: sel?.kind === 'entity' ? sel.id : null,
    replay: s?.mode === 'replay' ? { name: shown.replayName, frame: s.sim.frame } : null,
    // While the link's frame is being reached, the link still says the link's moment, not a frame on the way.
    live: s?.mode === 'live' && reaching !== s ? { frame: s.sim.frame, hash: s.hash, steered: s.steered, inputs: s.steered ? s.linkInputs() : '' } : null,
    file: shownFile() ?? undefined,
    speed: loop.clock.speed,
    ...viewControls.linkPart(),
    muted: sound?.isMuted ?? false,
  };
}

/** Writes the view's link into the address bar (when it changed). */
function syncUrl(): string {
  // In a room the address is the room's link (what the others open), not a view of a moment.
  if (rooms.active) return address.write(new URL(rooms.link).search);
  const snap = viewSnapshot();
  replayControls?.showLinkNote(linkInputsNote(snap.live?.inputs, snap.live ? current()?.sent === true : false));
  return address.write(formatViewLink(link.linkOf(snap)));
}

const actions: ActionHost = {
  get toggles() {
    return viewControls;
  },
  clearSelection: () => pageView.select(null),
  cancelSend: () => {
    if (!panels.inspector.sendArmed) return false;
    panels.inspector.armSend(false);
    return true;
  },
  get paused() {
    return loop.paused;
  },
  set paused(on: boolean) {
    loop.paused = on;
  },
  stepForward: () => {
    loop.paused = true;
    loop.stepOnce();
    pageView.draw();
  },
  replay: () => {
    const t = shown.session?.timeline;
    return t ? { frame: shown.session!.sim.frame, length: t.end } : null;
  },
  seek: (f) => pageView.seek(f),
  speed: () => loop.clock.speed,
  setSpeed,
  camera: () => view()?.camera ?? null,
  overview: () => view()?.frameWorld(),
  syncUrl,
};
const act = (a: PageAction) => (rooms.active && ROOM_OFF.includes(a) ? undefined : runAction(a, actions));
/** Files picked or dropped: opened, and the welcome has done its job. */
const openFiles = (files: File[]) => {
  if (files.length && rooms.active) return banner.setError('leave the room first: files cannot be opened while playing together');
  if (files.length) welcome?.hide();
  swallow(shown.openFiles(files));
};
const focusMap = () => map?.focus();

async function start(): Promise<void> {
  for (const line of [...roomLink.errors, ...parsed.errors]) messages.reportLink(line);
  shown.tables = loadPineyTables(await fetchBytes(PINEY_TABLES_FILE));
  const host = $('view');
  const m = (map = await MapCanvas.create(host, { renderer: parsed.link.renderer, antialias: parsed.link.aa === true }));
  sound = new SoundPlayer(base);
  sound.setMuted(parsed.link.mute === true);
  keys.attach(window);
  worldControls = new WorldControls(CATALOG, {
    openCatalog: (id) => swallow(shown.openCatalog(id)),
    openFileWorld: () => swallow(shown.openFileWorld()),
    setAgents: (n) => {
      link.agents = n;
      if (shown.source) swallow(shown.openSource(shown.source));
    },
    openFiles,
    restart: () => void shown.session?.restart().then(() => pageView.show(shown.session!, false)),
    downloadSpec: () => shown.downloadSpec(),
    focusMap,
  });
  viewControls = new ViewControls({ heat: parsed.link.heat ?? false, rays: parsed.link.rays ?? DEFAULT_RAYS, muted: sound.isMuted }, { view, setMuted: (on) => sound.setMuted(on), action: act, focusMap, syncUrl });
  replayControls = new ReplayControls({
    record: () => {
      try {
        shown.finishRecording();
        shown.downloadReplay();
      } catch (e) {
        banner.setError(`cannot save the replay: ${(e as Error).message}`);
      }
    },
    downloadReplay: () => shown.downloadReplay(),
    action: act,
    setSpeed,
    goLive: () => {
      if (shown.session?.mode === 'live') pageView.seek(shown.session.timeline?.end ?? shown.session.frame);
      else shown.goLive();
      loop.paused = false;
      syncUrl();
    },
    scrubTo: (frame) => {
      loop.paused = true;
      pageView.seek(frame);
    },
    focusMap,
    syncUrl,
  });
  pageView = new PageView({
    stage: new WorldStage(m),
    inspection,
    panels,
    status,
    replayControls,
    viewControls,
    sound,
    loop,
    session: current,
    recorded: () => shown.lastReplay !== null,
    selectionChanged: () => syncUrl(),
    frameDrawn: () => {
      if (address.frameDrawn()) syncUrl();
    },
  });
  welcome = new Welcome({ box: $('welcome'), open: $('welcome-open'), close: $('welcome-close'), keys: $('welcome-keys'), side: $('side'), view: host }, () => worldControls.pickFiles());
  touchPad = new TouchPad({ box: $('touch-pad'), pause: $('pad-pause'), step: $('pad-step') }, { pause: () => act('pause'), step: () => act('step-forward') });
  returnKeysToMap([document.querySelector('header')!, $('replay-bar'), $('welcome')], focusMap);
  bindFileDrop(window, openFiles, $('drop-cue'));
  bindMapKeys(m.canvas, { view, select: (sel) => pageView.select(sel), draw: () => pageView.draw() });
  bindMapPointer(m.canvas, { camera: () => view()?.camera ?? null, hover: (x, y) => pageView.hoverAt(x, y), leave: () => inspection.leave(), click: (x, y) => (panels.inspector.sendArmed ? sendAt(x, y) : void pageView.clickAt(x, y)), send: (x, y) => sendAt(x, y) });
  bindOverviewPointer($<HTMLCanvasElement>('minimap'), {
    mapAt: (x, y) => panels.overview.mapAt(x, y),
    camera: () => view()?.camera ?? null,
    done: () => {
      focusMap();
      syncUrl();
    },
  });
  bindPageKeys(window, act);
  layout = new LayoutToggles({ body: document.body, view: host, panelsButton: $<HTMLButtonElement>('panels-toggle'), menuButton: $<HTMLButtonElement>('menu-toggle') }, { changed: () => pageView.resize(), focusMap });
  fillHelp($('help-box'));
  new ResizeObserver(() => pageView.resize()).observe(host);
  pageView.resize();
  window.addEventListener('resize', () => pageView.resize());
  await openFirstWorld(
    { open: (id) => shown.openCatalog(id), dropLinkSettings: () => link.dropSettings(), report: (line) => messages.reportLink(line) },
    parsed.link.world ?? FIRST_WORLD,
    FIRST_WORLD,
  );
  await fastForwarding;
  playPanel = openPlayPanel(rooms, roomLink.room, focusMap);
  if (link.file !== undefined && shownFile() === null) messages.info = fileWaitText(link.file, link.waitingMoment);
  banner.show();
  // a hidden page in a room keeps ticking on a worker's timer (its animation frames stop): hidden-ticker.ts
  hiddenTicker = new HiddenTicker({ active: () => rooms.active, tick: () => loop.tick(false), hidden: (h) => rooms.setHidden(h) });
  const ticker = hiddenTicker;
  m.app.ticker.add(() => {
    if (!ticker.hidden) loop.tick();
    buildForSend();
    followSend();
  });
  m.measureRender((ms) => (loop.renderMs = ms));
  m.canvas.focus();
}

installScriptingApi(start(), {
  map: () => map,
  loop,
  keys,
  sound: () => sound,
  messages,
  inspection,
  panels,
  session: current,
  pageView: () => pageView,
  room: () => rooms,
  hiddenWakeUps: () => hiddenTicker?.wakeUps ?? 0,
  navBuilding: () => navSender.building,
  navBuilds: () => ({ builds: navSender.builds, lastFrames: navSender.lastBuildFrames }),
  worldMenu: () => worldControls.menu,
  layout: () => layout.shown,
  viewControls: () => viewControls,
  link,
  openCatalog: (id) => shown.openCatalog(id),
  syncUrl,
  setSpeed,
  startRecording,
  finishRecording: () => shown.finishRecording(),
  loadReplay: (bytes, name) => shown.loadReplay(bytes, name),
  moment: () => moment,
  placementsMissing: () => placementsOffer.shown,
});
