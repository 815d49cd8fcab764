/**
 * The colour switches every command takes (terminal.ts reads them; the CLI entry takes them out
 * before commander parses). A module of its own so that the entry loads no more than this.
 */
export const COLOR_FLAGS = ['--color', '--no-color'] as const;
