/**
 * Builds the sandbox once for the whole browser run (vite build, as `npm run build:web`, into a folder of
 * this run's own, so that another run of the suite cannot empty it under this one) and gives its folder to
 * the test files (`inject('sandboxBuild')`); each file serves it with a preview server of its own. Building
 * once instead of in every file saves a build per file; the folder is removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the sandbox was built into for this run. */
    sandboxBuild: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const outDir = mkdtempSync(join(tmpdir(), 'retrosim-web-'));
  try {
    await build({ configFile: 'vite.sandbox.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
  project.provide('sandboxBuild', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
