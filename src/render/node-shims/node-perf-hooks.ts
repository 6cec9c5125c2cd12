/** node:perf_hooks in the browser bundle: the page's own performance clock (only timing reports read it). */
export const performance: Performance = globalThis.performance;
export default { performance };
