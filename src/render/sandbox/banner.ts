/** The banner over the map: the messages of banner-state.ts, red for errors, blue for a note; × dismisses. */
import type { BannerMessages } from './banner-state.js';

export class Banner {
  constructor(
    readonly messages: BannerMessages,
    private readonly box: HTMLElement,
    private readonly text: HTMLElement,
    close: HTMLElement,
  ) {
    close.addEventListener('click', () => {
      this.messages.dismiss();
      this.show();
    });
  }

  /** Sets the last action's error ('' clears it) and shows the banner. */
  setError(message: string): void {
    this.messages.setError(message);
    this.show();
  }

  /** Shows the messages as they are now. */
  show(): void {
    const text = this.messages.text;
    this.text.textContent = text;
    this.box.classList.toggle('info', this.messages.isInfo);
    this.box.hidden = text === '';
  }
}
