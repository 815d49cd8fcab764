// `npm test` runs this first (the `pretest` script): the browser tests drive Debian's Chromium
// (no browser download works on every machine), so a fresh machine gets it here. When it is
// missing and we run as root with apt-get at hand, `apt-get install chromium` installs it;
// otherwise this stops the test run with the command to run, so no browser test is skipped.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const path = process.env.COURSESYNC_TEST_CHROMIUM ?? '/usr/bin/chromium';

function present() {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function stop(message) {
  process.stderr.write(`pretest: ${message}\n`);
  process.exit(1);
}

/** Run apt-get quietly; its own output is shown only when it fails. */
function aptGet(args) {
  const r = spawnSync('apt-get', args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.error?.code === 'ENOENT') stop(`no Chromium at ${path} and no apt-get to install it: install Chromium, then set COURSESYNC_TEST_CHROMIUM to its path`);
  if (r.status !== 0) stop(`apt-get ${args.join(' ')} failed:\n${(r.stdout + r.stderr).trim().split('\n').slice(-10).join('\n')}`);
}

if (!present()) {
  if (process.getuid?.() !== 0) stop(`no Chromium at ${path}: the browser tests need it; run \`sudo apt-get install chromium\` (Debian, Ubuntu), or set COURSESYNC_TEST_CHROMIUM to a Chromium's path`);
  process.stderr.write(`pretest: no Chromium at ${path}; installing Debian's chromium with apt-get (the browser tests need it)\n`);
  aptGet(['update', '-qq']);
  aptGet(['install', '-y', '-qq', 'chromium']);
  if (!present()) stop(`apt-get installed chromium, yet there is no Chromium at ${path}`);
}
