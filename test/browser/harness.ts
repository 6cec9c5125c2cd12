/**
 * The browser tests' harness: builds the sandbox (vite build, the same as `npm run build:web`), serves the
 * static build with `vite preview` on 127.0.0.1 (a free port), and drives Debian's Chromium through
 * playwright-core (never a downloaded browser), with the flags of ../shared/reference/ecosystem.md §5 and a
 * new empty profile each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';

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
  /** A persistent context on a new empty profile (playwright-core's way of passing --user-data-dir). */
  browser: BrowserContext;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  await build({ configFile: CONFIG, logLevel: 'error' });
  const server: PreviewServer = await preview({ configFile: CONFIG, logLevel: 'error', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const addr = server.httpServer.address() as AddressInfo;
  const url = `http://127.0.0.1:${addr.port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'retrosim-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, acceptDownloads: true }).catch(async (e: unknown) => {
    await server.close();
    throw e;
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the sandbox on a world and waits until the app is ready (errors on the page fail the wait). */
export async function openSandbox(h: Harness, query: Record<string, string>, size = { width: 1024, height: 720 }): Promise<Page> {
  const page = await h.browser.newPage();
  await page.setViewportSize(size);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const q = new URLSearchParams({ mute: '1', ...query }).toString();
  await page.goto(`${h.url}?${q}`);
  await page.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, null, { timeout: 60_000 });
  await page.evaluate(() => window.retrosim.ready);
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  return page;
}
