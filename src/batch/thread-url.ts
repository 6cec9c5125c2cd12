/** Where the batch's worker thread modules are: the compiled files beside this one. */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A compiled thread module of this folder (`pool-thread.js`, `scenario-facts-thread.js`); from the
 * TypeScript sources (tests), the one in dist/.
 */
export function threadUrl(file: string): URL {
  const here = new URL(`./${file}`, import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const path = fileURLToPath(here);
  const compiled = path.replace(/([\\/])src([\\/]batch[\\/][^\\/]+\.js)$/, '$1dist$1src$2');
  if (compiled !== path && existsSync(compiled)) return pathToFileURL(compiled);
  throw new Error(`the compiled batch thread is missing (${path}); build first: npx tsc -p tsconfig.build.json`);
}
