/** Named exit codes, in one place (docs/cli.md). */
export const ExitCode = {
  /** Success; for plan: no changes. */
  Ok: 0,
  /** An error: invalid input, failed call, refused action. */
  Error: 1,
  /** `plan --detailed-exitcode`: changes are present. */
  Changes: 2,
  /** Stopped by SIGINT after finishing the calls in flight. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
