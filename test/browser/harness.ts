/**
 * The browser tests' harness: serves the sandbox built for this run (global-setup.ts: vite build, the same
 * as `npm run build:web`, but into a folder of this run's own, so that another run of the suite cannot empty
 * it under this one) with
 * `vite preview` on 127.0.0.1 (a free port), and drives Debian's Chromium through playwright-core and Debian's
 * Firefox ESR through puppeteer-core over WebDriver BiDi (never a downloaded browser), each on a new empty
 * profile.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import puppeteer, { type Browser as FirefoxBrowser, type BrowserContext as FirefoxContext, type Page as FirefoxPage } from 'puppeteer-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchFirefox } from './firefox.js';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chrome 144+ no longer falls back to SwiftShader for WebGL by itself (playwright-core adds it too).
  '--enable-unsafe-swiftshader',
  '--autoplay-policy=no-user-gesture-required',
];

const CONFIG = 'vite.sandbox.config.ts';

export interface Harness {
  url: string;
  /** The browser's profile folder (a new empty one). */
  profile: string;
  /** A persistent context on a new empty profile (playwright-core's way of passing --user-data-dir). */
  browser: BrowserContext;
  close(): Promise<void>;
}

/** The built sandbox served on 127.0.0.1. */
export interface SandboxServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the sandbox: the run's build (test/browser/global-setup.ts builds it once for every file), or, run
 * without that setup, a build of its own into a new temporary folder that close() removes.
 */
export async function serveSandbox(): Promise<SandboxServer> {
  const shared = inject('sandboxBuild');
  const outDir = shared ?? mkdtempSync(join(tmpdir(), 'retrosim-web-'));
  const drop = () => {
    if (!shared) rmSync(outDir, { recursive: true, force: true });
  };
  try {
    if (!shared) await build({ configFile: CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    const server: PreviewServer = await preview({ configFile: CONFIG, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const addr = server.httpServer.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${addr.port}/`,
      async close() {
        await server.close();
        drop();
      },
    };
  } catch (e) {
    drop();
    throw e;
  }
}

export async function startHarness(): Promise<Harness> {
  const server = await serveSandbox();
  const profile = mkdtempSync(join(tmpdir(), 'retrosim-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, acceptDownloads: true }).catch(async (e: unknown) => {
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    throw e;
  });
  return {
    url: server.url,
    profile,
    browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export { FIREFOX } from './firefox.js';

/**
 * Firefox for one test file: a browser context of the file's own (its own cookies and storage, closed with it)
 * in the run's Firefox, which global-setup.ts starts once for the whole run; or, run without that setup, in a
 * Firefox of the file's own.
 */
export interface FirefoxHarness {
  browser: FirefoxBrowser;
  context: FirefoxContext;
  close(): Promise<void>;
}

/**
 * Firefox for the calling test file (see FirefoxHarness). Firefox takes one WebDriver BiDi session at a time,
 * which is why the browser files run one after another (vitest.browser.config.ts).
 */
export async function startFirefox(): Promise<FirefoxHarness> {
  const endpoint = inject('firefoxEndpoint');
  if (endpoint) {
    const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, protocol: 'webDriverBiDi', protocolTimeout: 300_000 });
    const context = await browser.createBrowserContext().catch(async (e: unknown) => {
      await browser.disconnect();
      throw e;
    });
    return {
      browser,
      context,
      async close() {
        await context.close().catch(() => undefined);
        await browser.disconnect();
      },
    };
  }
  const own = await launchFirefox();
  const context = await own.browser.createBrowserContext().catch(async (e: unknown) => {
    await own.close();
    throw e;
  });
  return { browser: own.browser, context, close: () => own.close() };
}

/**
 * Chromium and Firefox for the calling test file, started side by side; if either fails to start, the other
 * is closed and the failure thrown.
 */
export async function startBothBrowsers(): Promise<{ h: Harness; ff: FirefoxHarness }> {
  const [c, f] = await Promise.allSettled([startHarness(), startFirefox()]);
  if (c.status === 'fulfilled' && f.status === 'fulfilled') return { h: c.value, ff: f.value };
  if (c.status === 'fulfilled') await c.value.close();
  if (f.status === 'fulfilled') await f.value.close();
  throw (c.status === 'rejected' ? c.reason : (f as PromiseRejectedResult).reason) as Error;
}

/**
 * Sets a Firefox page's viewport. Puppeteer's setViewport sends two BiDi commands together, the viewport and a
 * screen-orientation override; Firefox ESR 140 does not know the second and rejects it, while the first is applied.
 * So an "unknown command" for the orientation is tolerated, and the size is then waited for on the page itself,
 * which fails the set-up if the viewport did not change either.
 */
export async function setFirefoxViewport(page: FirefoxPage, size: { width: number; height: number }): Promise<void> {
  try {
    await page.setViewport(size);
    return;
  } catch (e) {
    const message = String((e as Error)?.message ?? e);
    if (!(message.includes('unknown command') && message.includes('setScreenOrientationOverride'))) throw e;
  }
  await page.waitForFunction((w: number, h: number) => window.innerWidth === w && window.innerHeight === h, { timeout: 30_000 }, size.width, size.height);
}

/** Opens the sandbox in Firefox on a world and waits until the app is ready (errors on the page fail the wait). */
export async function openSandboxInFirefox(ff: FirefoxHarness, url: string, query: Record<string, string>, size = { width: 1024, height: 720 }): Promise<FirefoxPage> {
  const page = await ff.context.newPage();
  await setFirefoxViewport(page, size);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const q = new URLSearchParams({ mute: '1', ...query }).toString();
  await page.goto(`${url}?${q}`, { timeout: 300_000 });
  await page.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, { timeout: 300_000 });
  await page.evaluate(() => window.retrosim.ready);
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  return page;
}

/** Opens the sandbox on a world and waits until the app is ready (errors on the page fail the wait). */
export async function openSandbox(h: Harness, query: Record<string, string>, size = { width: 1024, height: 720 }): Promise<Page> {
  const page = await h.browser.newPage();
  await page.setViewportSize(size);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const q = new URLSearchParams({ mute: '1', ...query }).toString();
  await page.goto(`${h.url}?${q}`);
  await page.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, null, { timeout: 300_000 });
  await page.evaluate(() => window.retrosim.ready);
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  return page;
}

/**
 * A test file's sandbox in Chromium, held still: the page's own animation frames are stopped and the simulation
 * is paused, so the file's tests drive every frame themselves. `harness` and `page` are there from the file's
 * first test on.
 */
export interface DrivenSandbox {
  readonly harness: Harness;
  readonly page: Page;
  /** The app's state, as `window.retrosim.state()` reports it. */
  state(): Promise<Record<string, any>>;
  /** Opens a catalog world with `agents` agents (null: the world's own number) and draws it once. */
  open(id: string, agents: number | null): Promise<void>;
  /** Draws a frame and returns the map canvas as PNG bytes. */
  mapCanvasPng(): Promise<Uint8Array>;
  /**
   * Selects the agents from entity 2 on, one at a time, until one sees some bodies and has its line of sight
   * to others blocked; that agent stays selected. Returns its entity, or -1 when none of entities 2 to 31 does
   * (the last one tried is then selected).
   */
  selectAgentSeeingAndBlocked(): Promise<number>;
}

/**
 * For the calling test file: before its tests, creates the output `folders`, starts the harness, opens the
 * sandbox on `query` and holds it still; after them, closes it all.
 */
export function useDrivenSandbox(query: Record<string, string>, folders: readonly string[] = []): DrivenSandbox {
  let harness: Harness | undefined;
  let page: Page | undefined;
  const ready = <T>(what: string, v: T | undefined): T => {
    if (v === undefined) throw new Error(`the driven sandbox's ${what} is not there before the file's beforeAll has run`);
    return v;
  };
  const sandbox: DrivenSandbox = {
    get harness() {
      return ready('harness', harness);
    },
    get page() {
      return ready('page', page);
    },
    state: () => sandbox.page.evaluate(() => window.retrosim.state()),
    async open(id, agents) {
      await sandbox.page.evaluate(([w, n]) => window.retrosim.open(w as string, n as number | null), [id, agents] as const);
      await sandbox.page.evaluate(() => window.retrosim.render());
    },
    async mapCanvasPng() {
      const url = await sandbox.page.evaluate(() => {
        window.retrosim.render();
        return (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png');
      });
      return new Uint8Array(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
    },
    async selectAgentSeeingAndBlocked() {
      let chosen = -1;
      for (let id = 2; id < 32 && chosen < 0; id++) {
        await sandbox.page.evaluate((e) => window.retrosim.select(e), id);
        await sandbox.page.evaluate(() => window.retrosim.render());
        const sees = (await sandbox.state())['sees'];
        if (sees && sees.sees.length > 0 && sees.blocked.length > 0) chosen = id;
      }
      return chosen;
    },
  };
  beforeAll(async () => {
    for (const f of folders) mkdirSync(f, { recursive: true });
    harness = await startHarness();
    page = await openSandbox(harness, query);
    await page.evaluate(() => {
      window.retrosim.ticker(false);
      window.retrosim.pause();
    });
  });
  afterAll(async () => {
    await harness?.close();
  });
  return sandbox;
}

/**
 * CPU milliseconds the harness's Chromium has used so far (the browser process and every process under it:
 * renderers, the GPU process), from /proc (Linux; clock ticks of 10 ms). A busy machine stretches wall time,
 * not CPU time, so a frame's CPU cost is the figure that does not depend on the load. NaN without /proc.
 */
export function chromiumCpuMs(h: Harness): number {
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return NaN;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  let root = -1;
  for (const d of dirs) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the command name (in parentheses, which may hold spaces): state ppid ... utime(14) stime(15).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
      if (root < 0 && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(`--user-data-dir=${h.profile}`) && !readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--type=')) root = Number(d);
    } catch {
      // The process ended while we looked.
    }
  }
  if (root < 0) return NaN;
  const under = (pid: number): boolean => {
    for (let p = pid, k = 0; p > 1 && k < 64; p = parent.get(p) ?? 0, k++) if (p === root) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, t] of ticks) if (under(pid)) sum += t;
  return sum * 10;
}
