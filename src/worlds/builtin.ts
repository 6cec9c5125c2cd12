/** Worlds shipped with the runtime, by the id a replay records as "builtin:<id>" (paths from the package root). */
export const BUILTIN_WORLDS: Readonly<Record<string, string>> = {
  'piney-default': 'assets/worlds/piney/default.field.json',
  'rugrats-demo': 'assets/worlds/rugrats/demo.col',
};

/** The world `retrosim run` uses when none is given. */
export const DEFAULT_WORLD = 'piney-default';
