/** Worlds shipped with the runtime, by the id a replay records as "builtin:<id>" (paths from the package root). */
export const BUILTIN_WORLDS: Readonly<Record<string, string>> = {
  'piney-default': 'assets/worlds/piney/default.field.json',
  'rugrats-demo': 'assets/worlds/rugrats/demo.col',
};

/** The world `retrosim run` uses when none is given. */
export const DEFAULT_WORLD = 'piney-default';

/**
 * The built-in world `given` names, or undefined when it names a file. One rule wherever a world is named
 * (`openWorld`, every CLI command, a batch file): `given` is a built-in id when it is one of BUILTIN_WORLDS'
 * keys, no file of that name exists (a file of the name wins: `fileExists` answers, relative to wherever the
 * caller resolves paths) and no MAP is given with it (a MAP goes with a Llama file).
 */
export function builtinWorldId(given: string, fileExists: (path: string) => boolean, map?: string): string | undefined {
  return Object.hasOwn(BUILTIN_WORLDS, given) && map === undefined && !fileExists(given) ? given : undefined;
}
