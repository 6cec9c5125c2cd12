/**
 * Module resolution hooks (registered by scenario-file.ts with `module.register`): inside a scenario module
 * (imported with a `?content=<hash>` query), `import ... from 'retrosim'` and its subpaths resolve to the
 * runtime that is loading it, wherever the file lives. One copy of the runtime runs the scenario's systems
 * and the built-in ones, whatever is (or is not) installed beside the file.
 */
interface HookData {
  /** URL of the running runtime's dist/src/ folder (ending in "/"). */
  base: string;
}

let base = '';

export function initialize(data: HookData): void {
  base = data.base;
}

const SUBPATHS: Readonly<Record<string, string>> = {
  'retrosim': 'index.js',
  'retrosim/core': 'core.js',
  'retrosim/worlds/rugrats': 'worlds/rugrats/index.js',
  'retrosim/worlds/llama': 'worlds/llama/index.js',
  'retrosim/worlds/colbin': 'worlds/colbin/index.js',
  'retrosim/worlds/gta': 'worlds/gta/index.js',
  'retrosim/worlds/piney': 'worlds/piney/index.js',
};

type Next = (specifier: string, context: { parentURL?: string }) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<{ url: string; format?: string | null; shortCircuit?: boolean }> {
  const file = SUBPATHS[specifier];
  if (file && base && context.parentURL && /[?&]content=0x[0-9a-f]{16}$/.test(context.parentURL)) {
    return { url: new URL(file, base).href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}
