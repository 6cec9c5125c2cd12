/**
 * Module resolution hooks (registered by scenario-file.ts with `module.register`): inside a scenario module
 * (imported with a `?content=<hash>` query), `import ... from 'retrosim'` and its subpaths resolve to the
 * runtime that is loading it, wherever the file lives. One copy of the runtime runs the scenario's systems
 * and the built-in ones, whatever is (or is not) installed beside the file. The local modules it imports
 * (relative specifiers) get the same query, so 'retrosim' means this runtime in every module of its graph,
 * as the module graph's hash (module-graph.ts) assumes.
 */
interface HookData {
  /** URL of the running runtime's dist/src/ folder (ending in "/"). */
  base: string;
}

let base = '';

export function initialize(data: HookData): void {
  base = data.base;
}

/** The package specifiers a scenario module may import, by file under the runtime's dist/src/ folder. */
export const SUBPATHS: Readonly<Record<string, string>> = {
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
  const query = context.parentURL ? /[?&](content=0x[0-9a-f]{16})$/.exec(context.parentURL) : null;
  if (file && base && query) {
    return { url: new URL(file, base).href, format: 'module', shortCircuit: true };
  }
  const r = await next(specifier, context);
  if (query && (specifier.startsWith('./') || specifier.startsWith('../')) && r.url.startsWith('file:') && !r.url.includes('?') && !r.url.includes('#')) {
    return { ...r, url: `${r.url}?${query[1]}` };
  }
  return r;
}
