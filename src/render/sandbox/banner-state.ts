/**
 * What the page's banner says, without any DOM: what was wrong with the link the page was opened with (kept
 * until dismissed), the last error (replaced by the next action's), and a note (a link that waits for a
 * replay file). Errors show red; a note alone shows blue.
 */
export class BannerMessages {
  private linkErrors: string[] = [];
  private lastError = '';
  /** A note, shown after the errors. */
  info = '';

  /** Adds a line about the link the page was opened with. */
  reportLink(line: string): void {
    this.linkErrors.push(line);
  }

  /** Sets the error of the last action ('' clears it). */
  setError(message: string): void {
    this.lastError = message;
  }

  /** Every error, one a line. */
  get error(): string {
    return this.errors().join('\n');
  }

  /** The banner's text ('' hides it). */
  get text(): string {
    return [...this.errors(), ...(this.info ? [this.info] : [])].join('\n');
  }

  /** True when the banner shows only a note (no error). */
  get isInfo(): boolean {
    return this.errors().length === 0 && this.info !== '';
  }

  /** The banner closed: everything is forgotten. */
  dismiss(): void {
    this.linkErrors = [];
    this.lastError = '';
    this.info = '';
  }

  private errors(): string[] {
    return this.lastError ? [...this.linkErrors, this.lastError] : [...this.linkErrors];
  }
}
