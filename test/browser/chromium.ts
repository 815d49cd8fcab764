/**
 * Headless Chromium for tests that check what a learner or an author sees in a page.
 * Debian's `chromium` is driven by playwright-core (no browser download): `npm test` installs
 * the package when it is missing (its pretest step, scripts/ensure-chromium.mjs). The flags keep Chromium off the network and quiet.
 */
import { chromium, type Browser } from 'playwright-core';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.COURSESYNC_TEST_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Start the browser. Fails with a message that says how to install it when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium), as npm test does when run as root`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, headless: true });
}
