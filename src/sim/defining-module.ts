/**
 * Where a scenario was defined: the module file that called `defineScenario`, read from the call's stack.
 * A program that imports a scenario module and the CLI that loads the same file must record one identity
 * (the module's graph, hashed in Node by src/node/scenario-identity.ts); this is how the program's side
 * learns which file that is without being told.
 *
 * Stacks differ by engine: V8 (Node, Chromium) writes "    at fn (file:///a/b.mjs:3:9)" or
 * "    at file:///a/b.mjs:3:9", JavaScriptCore (Bun) "    at fn (/a/b.mjs:3:9)" or "fn@/a/b.mjs:3:9", and
 * SpiderMonkey (Firefox) "fn@http://host/b.js:3:9". Each line's location is its last "(...)" or what
 * follows " at " or "@"; the caller is the first location that is not this runtime's scenario module. Only
 * a `file:` URL or an absolute path is kept (a query such as the CLI's `?content=` is dropped); anything
 * else (a bundle's http URL, an eval, a stack limit of 0) gives undefined, and the scenario is "inline".
 */

/** The location part of one stack line ("file:///a/b.mjs:3:9", "/a/b.mjs:3:9"), or null. */
function locationOf(line: string): string | null {
  const t = line.trim();
  const paren = /\(([^()]*)\)\s*$/.exec(t);
  if (paren) return paren[1]!;
  const at = /^at\s+(.*)$/.exec(t);
  if (at) return at[1]!;
  const i = t.lastIndexOf('@');
  return i >= 0 ? t.slice(i + 1) : null;
}

/** The file of a location without its line and column ("file:///a/b.mjs"), or null. */
function fileOf(location: string): string | null {
  const m = /^(.*?)(?::\d+){1,2}$/.exec(location);
  return m ? m[1]! : null;
}

/** A `file:` URL or absolute path as a `file:` URL without query or fragment; undefined for anything else. */
function asFileUrl(file: string): string | undefined {
  let url: URL;
  try {
    if (file.startsWith('file:')) url = new URL(file);
    else if (file.startsWith('/')) url = new URL(`file://${encodeURI(file)}`);
    else if (/^[A-Za-z]:[\\/]/.test(file)) url = new URL(`file:///${encodeURI(file.replace(/\\/g, '/'))}`);
    else return undefined;
  } catch {
    return undefined;
  }
  url.search = '';
  url.hash = '';
  return url.href;
}

/**
 * The `file:` URL of the module that called the function whose own module is `self` (a stack location's
 * file, compared without query), from an Error's stack taken inside that function; undefined when the stack
 * does not show one.
 */
export function callerModule(stack: string | undefined, self: string): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const selfFile = self.replace(/[?#].*$/, '');
  const selfPath = selfFile.startsWith('file:') ? decodeURIComponent(new URL(selfFile).pathname) : selfFile;
  let seenSelf = false;
  for (const line of stack.split('\n').slice(0, 64)) {
    const loc = locationOf(line);
    if (!loc) continue;
    const file = fileOf(loc);
    if (!file) continue;
    const bare = file.replace(/[?#].*$/, '');
    if (bare === selfFile || bare === selfPath) {
      seenSelf = true;
      continue;
    }
    if (!seenSelf) continue; // frames above the one in `self` (there are none in V8; kept for other engines)
    return asFileUrl(file);
  }
  return undefined;
}
