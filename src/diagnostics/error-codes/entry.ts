/** One runtime error of the catalogue: what it means, and its message and hint from the facts of the case. */
export interface ErrorEntry<A> {
  /** One line for the list of codes (docs/cli.md#errors). */
  summary: string;
  message: (args: A) => string;
  hint: (args: A) => string | undefined;
  /** Process exit code when not 1 (docs/cli.md#exit-codes), e.g. 64 for a usage error. */
  exitCode?: number;
}

/** Declare an entry; `A` is the facts its message and hint need. */
export function entry<A = Record<string, never>>(
  summary: string,
  message: (args: A) => string,
  hint: (args: A) => string | undefined,
  exitCode?: number,
): ErrorEntry<A> {
  return exitCode === undefined ? { summary, message, hint } : { summary, message, hint, exitCode };
}

/** `n thing` / `n things`. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
