/**
 * `import 'retrosim'` inside scenario modules when the runtime runs under Bun (JavaScriptCore). Bun's
 * `node:module` has a `register` that does nothing, so the resolve hooks of scenario-hooks.ts never run
 * there: a scenario module outside a project that has retrosim installed would not load, and Bun, finding
 * no node_modules folder, would try to fetch a package named "retrosim" from the registry (its auto-install)
 * — code nobody asked for. Bun's own mechanism does the hooks' work instead: virtual modules
 * (`Bun.plugin`, `builder.module`) named 'retrosim' and its subpaths, whose exports are this runtime's
 * modules, so a scenario runs with the same copy of the runtime as the built-in systems.
 *
 * Unlike the hooks, which apply to scenario modules only, a virtual module is process-wide: once a scenario
 * file is loaded under Bun, any later `import 'retrosim'` in that process is this runtime.
 */
import { SUBPATHS } from './scenario-hooks.js';

/** What a module loader returns to Bun: an object of exports. */
interface BunModuleResult {
  exports: Record<string, unknown>;
  loader: 'object';
}

/** The part of Bun's plugin builder used here. */
interface BunPluginBuilder {
  module(specifier: string, load: () => Promise<BunModuleResult>): void;
}

/** The part of the `Bun` global used here. */
interface BunGlobal {
  plugin(plugin: { name: string; setup(builder: BunPluginBuilder): void }): void;
}

/** Whether this process runs under Bun (by its global, not by a version string that could be faked). */
export function runningUnderBun(): boolean {
  const bun = (globalThis as { Bun?: Partial<BunGlobal> }).Bun;
  return typeof bun === 'object' && bun !== null && typeof bun.plugin === 'function';
}

/**
 * Under Bun, makes 'retrosim' and its subpaths the runtime in `base` (the URL of its dist/src/ folder,
 * ending in "/"); returns false, doing nothing, elsewhere.
 */
export function registerBunScenarioModules(base: URL): boolean {
  if (!runningUnderBun()) return false;
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  bun.plugin({
    name: 'retrosim scenario modules',
    setup(builder) {
      for (const [specifier, file] of Object.entries(SUBPATHS)) {
        builder.module(specifier, async () => ({ exports: (await import(new URL(file, base).href)) as Record<string, unknown>, loader: 'object' }));
      }
    },
  });
  return true;
}
