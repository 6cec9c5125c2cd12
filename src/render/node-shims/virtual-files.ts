/**
 * The browser's stand-in for the few files the simulation reads with node:fs (the Piney field tables, the GTA
 * demo town): the page fetches them once and registers their bytes here under their repository path
 * ("/assets/piney/field-tables.json"), and the node:fs shim serves them. The simulation code is then the same
 * in Node and in the browser; only where its bytes come from differs.
 */
const files = new Map<string, Uint8Array>();

/** Normalises a path to "/a/b/c": forward slashes, one leading slash, no "." or ".." parts. */
export function normalisePath(path: string): string {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

export function registerVirtualFile(path: string, bytes: Uint8Array): void {
  files.set(normalisePath(path), bytes);
}

export function virtualFile(path: string): Uint8Array | undefined {
  return files.get(normalisePath(path));
}

/** True for a registered file or a folder holding one. */
export function virtualPathExists(path: string): boolean {
  const p = normalisePath(path);
  if (files.has(p)) return true;
  const prefix = p === '/' ? '/' : p + '/';
  for (const k of files.keys()) if (k.startsWith(prefix)) return true;
  return false;
}
