import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    environment: 'node',
    // A timeout is a net for a hang, not a speed check: on a loaded machine (load average 20 on 2 cores) a
    // test that takes 10 s on a quiet one can take minutes. Speed is measured by the benchmarks.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine, every file in turn. The tests
    // hold under load (nothing in them is timed), so two run at once there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/setup/fast-check.ts'],
    // Scenario modules are imported from sealed copies of their module graph, and Node's loader hooks resolve
    // 'retrosim' inside them (src/node/scenario-hooks.ts): they must load natively, as in a user's program,
    // not through Vite's transform.
    server: { deps: { external: [/[\\/]retrosim-sealed-/] } },
  },
});
