/**
 * node:url in the browser bundle: a module's URL becomes its path on the page's server, so the walks up from
 * `import.meta.url` to "assets/..." end at the virtual files registered at the root.
 */
export function fileURLToPath(url: string | URL): string {
  return decodeURIComponent(new URL(String(url)).pathname);
}

export function pathToFileURL(path: string): URL {
  return new URL(`file://${path}`);
}

export default { fileURLToPath, pathToFileURL };
