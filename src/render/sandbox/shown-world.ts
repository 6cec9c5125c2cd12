/**
 * The world the page shows and where it came from: opening a catalog world, files (a world, a TRAK with its
 * MAP, a COL with its placements, or a replay) or the same source again (each time a fresh session built as
 * Node builds it), loading a replay onto its own world, and the replay last recorded. Every failure is one
 * line in the banner (and a rejected promise for the caller); the page is left showing what it showed.
 */
import { readReplay } from '../../replay/format.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import type { ScenarioSettings } from '../../sim/scenario.js';
import type { CollisionWorld } from '../../worlds/world.js';
import type { PineyTables } from '../../worlds/piney/tables.js';
import { download } from './dom.js';
import { planFiles, tooBigMessage } from './file-plan.js';
import { placementsMissing } from './placements-offer.js';
import { SandboxSession } from './session.js';
import { entryForSource } from './world-catalog.js';
import { catalogWorldSource, fileSource, openerOf, readFile, trakSource, type FetchBytes, type WorldSource } from './world-sources.js';

/** What opening worlds and replays asks of the page. */
export interface ShownWorldHost {
  /** The scenario settings for a world just opened. */
  settingsFor(world: CollisionWorld): Partial<ScenarioSettings>;
  /** A new session to show (its world opened). */
  install(session: SandboxSession): void;
  /** The world menu names what is open now. */
  showWorld(source: WorldSource | null): void;
  /** The session now plays the replay `name` of `length` frames. */
  replayLoaded(length: number, name: string): void;
  /** The last action's error ('' clears it). */
  setError(message: string): void;
  /** The world just opened is a GTA COL of several models without its placements (false: it is not). */
  placementsMissing?(missing: boolean, source: WorldSource): void;
}

export class ShownWorld {
  session: SandboxSession | null = null;
  source: WorldSource | null = null;
  /** The last world opened from files (the menu's "your file" entry). */
  fileSource: WorldSource | null = null;
  /** The name of the replay loaded (for the link). */
  replayName: string | null = null;
  /** The replay last saved from the live run. */
  lastReplay: Uint8Array | null = null;
  /** The Piney field tables (fetched once at start). */
  tables: PineyTables | null = null;

  constructor(
    private readonly fetchBytes: FetchBytes,
    private readonly host: ShownWorldHost,
  ) {}

  async openCatalog(id: string): Promise<void> {
    await this.openSource(await catalogWorldSource(id, this.fetchBytes));
  }

  /** Files dropped or picked: one world file, a Llama TRAK with its MAP, a COL with its placements, or a replay. */
  async openFiles(files: File[]): Promise<void> {
    // The runtime's limits (src/limits.ts): a huge file is refused before it is read; the parsers apply the rest.
    const plan = planFiles(files, DEFAULT_LIMITS.fileBytes);
    if (!plan) return;
    if (plan.kind === 'too-big') return this.host.setError(tooBigMessage(plan.file, plan.limit));
    if (plan.kind === 'replay') return this.loadReplay(await readFile(plan.file), plan.file.name);
    if (plan.kind === 'placements') return this.addPlacements(plan.file);
    await this.openSource(plan.kind === 'trak' ? await trakSource(plan.trak, plan.map) : await fileSource(plan.file, plan.placements));
  }

  /** A fresh session on the world of `src` (the same source again: the settings asked for now). */
  async openSource(src: WorldSource): Promise<void> {
    this.host.setError('');
    try {
      const session = await SandboxSession.create(openerOf(src, this.tables), (first) => this.host.settingsFor(first.world));
      this.source = src;
      if (!src.catalogId) this.fileSource = src;
      this.replayName = null;
      this.session = session;
      this.host.install(session);
      this.host.showWorld(this.source);
      this.host.placementsMissing?.(placementsMissing(session.opened.world, src.placements !== undefined), src);
    } catch (e) {
      this.host.setError(`cannot open ${src.label}: ${(e as Error).message}`);
      this.host.showWorld(this.source);
      throw e;
    }
  }

  /** A placements file for the GTA COL shown: the COL opened again with it (refused when no COL from a file is shown). */
  async addPlacements(file: File): Promise<void> {
    const src = this.source;
    if (!src || src.catalogId || this.session?.opened.world.kind !== 'gta') {
      this.host.setError(`cannot use ${file.name}: placements go with a GTA .col file: open the .col first (or drop both together)`);
      return;
    }
    await this.openSource({ ...src, placements: await readFile(file) });
  }

  /** The world last opened from files again (the menu's "your file" entry), unless it is shown. */
  async openFileWorld(): Promise<void> {
    if (this.fileSource && this.source !== this.fileSource) await this.openSource(this.fileSource);
  }

  /** The replay `bytes` on its world: a catalog world by its source, or the world shown when its content matches. */
  async loadReplay(bytes: Uint8Array, name = 'replay.rsr'): Promise<void> {
    this.host.setError('');
    try {
      const rp = readReplay(bytes);
      const src = rp.header.world.source;
      const e = entryForSource(src);
      if (e && this.source?.source !== src) await this.openCatalog(e.id);
      else if (!e && this.session?.opened.identity.contentHash !== rp.header.world.contentHash) {
        throw new Error(`the replay ran on ${src}: open that world (drop its file) first`);
      }
      await this.session!.loadReplay(bytes);
      this.replayName = name;
      this.host.replayLoaded(rp.frames.count, name);
    } catch (err) {
      this.host.setError(`cannot load the replay: ${(err as Error).message}`);
      throw err;
    }
  }

  /** The live run so far as a replay file (the session goes on recording); its bytes, kept to download. */
  finishRecording(): Uint8Array {
    this.lastReplay = this.session!.finishRecording();
    return this.lastReplay;
  }

  /** Saves the replay last recorded, named by the world's kind and content. */
  downloadReplay(): void {
    if (!this.lastReplay) return;
    const o = this.session!.opened;
    download(this.lastReplay, `${o.world.kind}-${o.identity.contentHash.slice(2, 10)}.rsr`);
  }

  /** Saves a variant field's spec (for `retrosim replay verify --world`). */
  downloadSpec(): void {
    const spec = this.source?.spec;
    if (spec) download(spec.bytes, spec.name, 'application/json');
  }

  /** Leaves the replay: live from where it stands. */
  goLive(): void {
    this.session?.goLive();
    this.replayName = null;
  }
}
