/**
 * Builds the sandbox once for the whole browser run (vite build, as `npm run build:web`, into a folder of
 * this run's own, so that another run of the suite cannot empty it under this one) and gives its folder to
 * the test files (`inject('sandboxBuild')`); each file serves it with a preview server of its own. Building
 * once instead of in every file saves a build per file; the folder is removed when the run ends.
 *
 * It also starts Firefox once (about 5 s to start and stop on this machine, against half a second to connect)
 * and gives its WebDriver BiDi endpoint to the files (`inject('firefoxEndpoint')`); each file connects, works
 * in a browser context of its own and disconnects. The run's end stops it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { launchFirefox } from './firefox.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the sandbox was built into for this run. */
    sandboxBuild: string;
    /** The WebDriver BiDi endpoint of the run's Firefox (no session attached between files). */
    firefoxEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = mkdtempSync(join(tmpdir(), 'retrosim-web-'));
  try {
    await build({ configFile: 'vite.sandbox.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
  let firefox;
  try {
    firefox = await launchFirefox();
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
  const endpoint = firefox.browser.wsEndpoint();
  // Firefox takes one session at a time: the files each open their own.
  await firefox.browser.disconnect();
  project.provide('sandboxBuild', outDir);
  project.provide('firefoxEndpoint', endpoint);
  return async () => {
    await firefox.close();
    rmSync(outDir, { recursive: true, force: true });
  };
}
