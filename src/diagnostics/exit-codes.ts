/** Named exit codes, in one place (docs/cli.md#exit-codes). */
export const ExitCode = {
  /** Success; for plan: no changes. */
  Ok: 0,
  /** An error: invalid input, failed call, refused action. */
  Error: 1,
  /**
   * `plan --detailed-exitcode` (and `webhooks plan --detailed-exitcode`): changes are present,
   * Terraform's meaning, kept so CI scripts written for Terraform read it the same way.
   */
  Changes: 2,
  /** Answered no (or Ctrl-D) at a confirmation prompt: nothing was changed. */
  Cancelled: 3,
  /**
   * A usage error: an unknown command or option, a missing or malformed argument, options that
   * cannot be combined. EX_USAGE of sysexits.h: its own number, so a mistyped flag in CI never
   * reads as "changes present".
   */
  Usage: 64,
  /** Stopped by SIGINT (Ctrl-C): at the prompt, or during apply after the calls in flight finished. */
  Interrupted: 130,
  /** Stopped by SIGTERM: at a prompt, or during apply after the calls in flight finished (128 + 15, as shells report it). */
  Terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
