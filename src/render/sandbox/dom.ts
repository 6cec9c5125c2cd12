/** Small DOM helpers of the page. */

/** The element with this id (the page's own markup always has it). */
export function $<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** A new element with a class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** A table of (label, value) rows. */
export function rowsTable(rows: readonly (readonly [string, string])[]): HTMLTableElement {
  const t = el('table');
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.append(el('td', '', k), el('td', '', v));
    t.append(tr);
  }
  return t;
}

/** Saves bytes as a download. */
export function download(bytes: Uint8Array, name: string, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
