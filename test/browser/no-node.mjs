// Stands in for the Node entry in page bundles: the page gives the field tables itself.
export function defaultPineyTables() {
  throw new Error('no Node assets in a page');
}
