/**
 * Usage errors never show a secret. Commander quotes what was typed: `--token=VALUE` (an option
 * that does not exist, since no option takes the key) would print VALUE, and the key itself given
 * as a stray word would be quoted as an unknown command. The value after `=` of any option is
 * cut, and the API key from the environment is masked wherever it appears.
 */
export function redactUsageError(message: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = message.replace(/(--?[A-Za-z0-9][\w-]*)=[^\s'"]*/g, '$1=…');
  const token = env.COURSESYNC_TOKEN;
  if (token !== undefined && token.length >= 4) out = out.split(token).join('…');
  return out;
}
