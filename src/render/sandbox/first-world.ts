/**
 * Opening the page's first world so that the page always ends up showing one. The link is checked against
 * the simulation's own limits before anything is built (view-link.ts), but should the simulation still
 * refuse what the link asked for, the page says so in its banner and falls back, as it does for any other
 * bad link value: first to the link's world with that world's default settings, then to the default world.
 *
 * No DOM here: Node tests drive it with real sessions.
 */

/** What `openFirstWorld` needs of the page. */
export interface FirstWorldHost {
  /** Opens a catalog world with the settings currently asked for; rejects when it cannot. */
  open(id: string): Promise<void>;
  /**
   * Forgets the settings the link gave (agent count, seeds, ccRand init, scenario parameters), so that the
   * worlds opened from then on take their defaults. Returns whether there were any.
   */
  dropLinkSettings(): boolean;
  /** Adds a line to the banner's report on the link. */
  report(line: string): void;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Opens `first` (the link's world, or the default one) with the link's settings; if that fails, the same
 * world with its defaults (when the link gave settings), then `fallback` with its defaults. Each fallback
 * is reported with the reason. Resolves to the world opened, or null when not even `fallback` opens.
 */
export async function openFirstWorld(host: FirstWorldHost, first: string, fallback: string): Promise<string | null> {
  let why: unknown;
  try {
    await host.open(first);
    return first;
  } catch (e) {
    why = e;
  }
  if (host.dropLinkSettings()) {
    try {
      await host.open(first);
      host.report(`the simulation refused the link's settings (${messageOf(why)}); the world's default settings are used`);
      return first;
    } catch (e) {
      why = e;
    }
  }
  if (first === fallback) {
    host.report(`cannot open ${first}: ${messageOf(why)}`);
    return null;
  }
  try {
    await host.open(fallback);
    host.report(`cannot open ${first} (${messageOf(why)}); showing the default world with its default settings`);
    return fallback;
  } catch (e) {
    host.report(`cannot open ${first} (${messageOf(why)}), nor the default world ${fallback} (${messageOf(e)})`);
    return null;
  }
}
