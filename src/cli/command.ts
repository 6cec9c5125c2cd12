/** What every CLI command module exports (src/cli/commands/<name>.ts). */
export interface Command {
  /** One line for `retrosim --help`. */
  summary: string;
  /** The full usage text for `retrosim <name> --help`. */
  usage: string;
  /** Runs the command; returns the exit code (0 ok, 1 a failed check, 2 usage). Throws UsageError for usage. */
  run(argv: string[]): Promise<number> | number;
}
