/**
 * The browser tests (test/browser/): node-environment tests that build the sandbox, serve it on 127.0.0.1 and
 * drive Debian's Chromium with playwright-core. Separate from vitest.config.ts, which leaves them out.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    // The sandbox is built once for the run, and each file serves that build.
    globalSetup: ['test/browser/global-setup.ts'],
    environment: 'node',
    // A net for a hang, not a speed check (see vitest.config.ts).
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // One browser at a time: the machine is small (two files at once measured slower: 586 s against about 500).
    fileParallelism: false,
  },
});
