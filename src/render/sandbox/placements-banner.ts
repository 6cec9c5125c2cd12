/**
 * The banner offering a GTA COL's placements: its words (placements-offer.ts), a button that opens the file
 * picker for a `.placements.json`, and × to dismiss. A placements file dropped on the page does the same.
 */
export class PlacementsBanner {
  constructor(
    private readonly box: HTMLElement,
    private readonly text: HTMLElement,
    pick: HTMLButtonElement,
    input: HTMLInputElement,
    close: HTMLElement,
    add: (file: File) => void,
  ) {
    pick.addEventListener('click', () => input.click());
    input.addEventListener('change', () => {
      const f = input.files?.[0];
      input.value = '';
      if (f) add(f);
    });
    close.addEventListener('click', () => this.show(''));
  }

  /** Shows the offer with `text` ('' hides it). */
  show(text: string): void {
    this.text.textContent = text;
    this.box.hidden = text === '';
  }

  get shown(): boolean {
    return !this.box.hidden;
  }
}
