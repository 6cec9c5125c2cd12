/**
 * Starting Firefox for the browser tests, with no vitest import, so that the run's global setup can use it
 * too (global-setup.ts starts one Firefox for the whole run; harness.ts connects each file to it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser as FirefoxBrowser } from 'puppeteer-core';

export const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

/** A Firefox started on its own new empty profile and HOME; `close` ends it and removes them. */
export interface LaunchedFirefox {
  browser: FirefoxBrowser;
  close(): Promise<void>;
}

/**
 * Starts headless Firefox ESR over WebDriver BiDi. Its profile and HOME are new empty folders; updates,
 * telemetry and other background traffic are off, and the only address it is sent to is the local server.
 * Timeouts are generous: on a loaded machine Firefox takes several seconds to start.
 */
export async function launchFirefox(): Promise<LaunchedFirefox> {
  const home = mkdtempSync(join(tmpdir(), 'retrosim-firefox-home-'));
  const profile = mkdtempSync(join(tmpdir(), 'retrosim-firefox-profile-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { HOME: home, MOZ_HEADLESS: '1', MOZ_CRASHREPORTER_DISABLE: '1', XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config') });
  let browser: FirefoxBrowser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      env,
      timeout: 300_000,
      protocolTimeout: 300_000,
      extraPrefsFirefox: {
        'app.update.enabled': false,
        'browser.shell.checkDefaultBrowser': false,
        'datareporting.policy.dataSubmissionEnabled': false,
        'toolkit.telemetry.enabled': false,
        'network.captive-portal-service.enabled': false,
        'network.connectivity-service.enabled': false,
        'media.autoplay.default': 0,
      },
    });
  } catch (e) {
    rmSync(home, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const proc = browser.process();
  return {
    browser,
    async close() {
      // The launching session may already be disconnected (the run's Firefox is shared by endpoint).
      if (browser.connected) await browser.close();
      else if (proc && proc.exitCode === null) {
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill();
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

