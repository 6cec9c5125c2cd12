/**
 * Module resolution hooks (registered by scenario-file.ts with `module.register`) for scenario modules,
 * which are always imported from a sealed copy of their module graph (sealed-module.ts):
 *
 * - inside a copy, `import ... from 'retrosim'` and its subpaths resolve to the runtime that is loading it,
 *   wherever the file came from: one copy of the runtime runs the scenario's systems and the built-in ones,
 *   whatever is (or is not) installed beside the file;
 * - an import from inside a copy that leads out of it (to a file the graph does not hold, a URL, data) is
 *   refused: the graph and Node's resolver agree, or nothing runs.
 *
 * Modules outside the copies (the program's own, the runtime's) are resolved as Node resolves them.
 */
interface HookData {
  /** URL of the running runtime's dist/src/ folder (ending in "/"). */
  base: string;
  /** Path every sealed copy's folder starts with (the temporary folder and the copies' prefix). */
  sealedPrefix: string;
}

let base = '';
let sealedPrefix = '';

export function initialize(data: HookData): void {
  base = data.base;
  sealedPrefix = data.sealedPrefix;
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

/** The sealed copy's folder (as a file: URL prefix ending in "/") a URL lies in, or null. */
function sealedFolderOf(url: string | undefined): string | null {
  if (!url || !url.startsWith('file:') || !sealedPrefix) return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (!path.startsWith(sealedPrefix)) return null;
  const end = path.indexOf('/', sealedPrefix.length);
  return end < 0 ? null : path.slice(0, end + 1);
}

type Next = (specifier: string, context: { parentURL?: string }) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<{ url: string; format?: string | null; shortCircuit?: boolean }> {
  const folder = sealedFolderOf(context.parentURL);
  if (folder === null) return next(specifier, context);
  const file = SUBPATHS[specifier];
  if (file && base) return { url: new URL(file, base).href, format: 'module', shortCircuit: true };
  const r = await next(specifier, context);
  if (r.url.startsWith('node:')) return r;
  const into = sealedFolderOf(r.url);
  if (into !== folder) {
    throw new Error(`${context.parentURL} imports ${JSON.stringify(specifier)}, which leads to ${r.url}, outside the files of its module graph: nothing outside the graph is loaded`);
  }
  return r;
}
