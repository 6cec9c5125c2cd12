/** Files dropped anywhere on the page are opened (the browser must not navigate to them). */
export function bindFileDrop(target: Window, open: (files: File[]) => void): void {
  target.addEventListener('dragover', (e) => e.preventDefault());
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    open(Array.from(e.dataTransfer?.files ?? []));
  });
}
