// The page's side of the path comparison (determinism.test.ts): a navigation graph given as its file's bytes,
// and paths between pairs of its nodes drawn with integer operations, by a default search (through the coarse
// layer where the ends are far apart) and by a cheapest one; bundled with the runtime's sources.
import { nodePosition } from '../../src/nav/graph.ts';
import { parseNavGraph } from '../../src/nav/graph-file.ts';
import { findPath, PathSearch } from '../../src/nav/path.ts';

/** Each pair's two paths as `cost:nodes` (or `none`), and how many default paths are not the cheapest. */
export function run(graphBase64, pairs) {
  const g = parseNavGraph(Uint8Array.from(atob(graphBase64), (c) => c.charCodeAt(0)));
  const fast = new PathSearch(g);
  const cheapest = new PathSearch(g, { cheapest: true });
  let seed = 20261206;
  const draw = (m) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % m);
  const paths = [];
  let dearer = 0;
  for (let k = 0; k < pairs; k++) {
    const a = nodePosition(g, draw(g.nodeCount));
    const b = nodePosition(g, draw(g.nodeCount));
    const [p, q] = [fast, cheapest].map((s) => findPath(g, a, b, s));
    paths.push(p === null ? 'none' : `${p.cost}:${p.nodes.join(',')}`, q === null ? 'none' : `${q.cost}:${q.nodes.join(',')}`);
    if (p !== null && q !== null && p.cost > q.cost) dearer++;
  }
  return { paths, dearer };
}
