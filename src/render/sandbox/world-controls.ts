/**
 * The world group of the top bar: the world menu (the catalog, and a "your file" entry once a world came
 * from files), the agent count, the "Open file…" button (the native file input stays hidden), Restart, and the
 * download of a variant field's spec. It
 * shows what it is told and passes the user's choices on; the page decides what they do.
 *
 * The world menu browses from the keyboard without loading each world it passes: ↑ and ↓ (and Home, End) on
 * the closed menu move its choice only, Enter opens the world chosen, and leaving the menu without Enter
 * shows the open world again. A choice from the opened list (the mouse, or Enter in it) opens at once.
 */
import { $ } from './dom.js';
import type { CatalogEntry } from './world-catalog.js';

/** The keys that browse the closed world menu (by how far they move its choice; Infinity: to an end). */
export const BROWSE_KEYS: Readonly<Record<string, number>> = { ArrowDown: 1, ArrowUp: -1, ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity, PageDown: Infinity, PageUp: -Infinity };

/** The index the menu's choice moves to from `at` of `count` on `key` (null: not a browsing key). */
export function browseTo(key: string, at: number, count: number): number | null {
  const step = BROWSE_KEYS[key];
  if (step === undefined || count <= 0) return null;
  return Math.max(0, Math.min(count - 1, at + (Number.isFinite(step) ? step : step > 0 ? count : -count)));
}

/** The world menu's entry for a world opened from files. */
export const FILE_ENTRY = 'file';

/** What the world group asks of the page. */
export interface WorldControlsHost {
  openCatalog(id: string): void;
  /** The "your file" entry chosen again. */
  openFileWorld(): void;
  /** The agent count chosen (null: the sandbox's default). */
  setAgents(agents: number | null): void;
  openFiles(files: File[]): void;
  restart(): void;
  downloadSpec(): void;
  focusMap(): void;
}

export class WorldControls {
  private readonly world = $<HTMLSelectElement>('world');
  private readonly agents = $<HTMLSelectElement>('agents');
  private readonly specButton = $<HTMLButtonElement>('download-world');
  private readonly files = $<HTMLInputElement>('files');
  /** The world menu's value for the world shown (what the menu returns to when browsed and left). */
  private opened = '';
  /** Whether the menu shows a world browsed to, not yet opened. */
  private browsing = false;

  constructor(catalog: readonly CatalogEntry[], host: WorldControlsHost) {
    for (const e of catalog) {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.label;
      this.world.appendChild(o);
    }
    const choose = () => {
      const id = this.world.value;
      this.browsing = false;
      host.focusMap();
      if (id === this.opened) return;
      if (id === FILE_ENTRY) host.openFileWorld();
      else host.openCatalog(id);
    };
    this.world.addEventListener('change', choose);
    this.world.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return; // Alt+↓ opens the list
      if (e.key === 'Enter') {
        e.preventDefault();
        choose();
        return;
      }
      const to = browseTo(e.key, this.world.selectedIndex, this.world.options.length);
      if (to === null) return;
      // The menu's own move would fire "change" (and load every world passed): the choice moves here instead.
      e.preventDefault();
      this.world.selectedIndex = to;
      this.browsing = this.world.value !== this.opened;
    });
    this.world.addEventListener('blur', () => {
      if (!this.browsing) return;
      this.browsing = false;
      this.world.value = this.opened;
    });
    this.agents.addEventListener('change', () => {
      host.focusMap();
      host.setAgents(this.agents.value === '' ? null : Number(this.agents.value));
    });
    const files = this.files;
    $('open-file').addEventListener('click', () => this.pickFiles());
    files.addEventListener('change', () => {
      const chosen = Array.from(files.files ?? []);
      // Emptied once read: the menu names what opened, and choosing the same file again opens it again.
      files.value = '';
      host.openFiles(chosen);
      host.focusMap();
    });
    $('restart').addEventListener('click', () => host.restart());
    this.specButton.addEventListener('click', () => host.downloadSpec());
  }

  /** The world menu shows the open world: its catalog entry, or a "your file: <label>" entry. */
  showWorld(shown: { catalogId?: string; label: string } | null): void {
    const select = this.world;
    let fileOption = Array.from(select.options).find((o) => o.value === FILE_ENTRY);
    if (shown && !shown.catalogId) {
      if (!fileOption) {
        fileOption = document.createElement('option');
        fileOption.value = FILE_ENTRY;
        select.appendChild(fileOption);
      }
      fileOption.textContent = `your file: ${shown.label}`;
      select.value = FILE_ENTRY;
    } else if (shown?.catalogId) select.value = shown.catalogId;
    this.opened = select.value;
    this.browsing = false;
  }

  /** Shows the agent count: "auto: N agents" for the sandbox's default (N once a world is open), else the count (added if unlisted). */
  showAgents(asked: number | null, auto: number | null): void {
    const menu = this.agents;
    menu.options[0]!.textContent = auto !== null && asked === null ? `auto: ${auto} agents` : 'auto';
    const v = asked === null ? '' : String(asked);
    if (!Array.from(menu.options).some((o) => o.value === v)) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = `${v} agents`;
      menu.appendChild(o);
    }
    menu.value = v;
  }

  /** Opens the browser's file picker (the hidden file input's). */
  pickFiles(): void {
    this.files.click();
  }

  /** Offers the spec download (a variant field) or not. */
  offerSpec(on: boolean): void {
    this.specButton.hidden = !on;
  }

  /** The world menu's value and label, and whether it shows a world browsed to and not opened (for the scripting interface). */
  get menu(): { value: string; label: string; browsing: boolean } {
    return { value: this.world.value, label: this.world.selectedOptions[0]?.textContent ?? '', browsing: this.browsing };
  }
}
