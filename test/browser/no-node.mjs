// Stands in for the Node entry in page bundles: the page gives the field tables and the levels' bytes itself.
export function defaultPineyTables() {
  throw new Error('no Node assets in a page');
}
export function loadWorldFile() {
  throw new Error('no Node files in a page');
}
export function packageRoot() {
  throw new Error('no Node files in a page');
}
