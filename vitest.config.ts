import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The JSON report feeds the one-line `N passed, N failed` summary that .ci/run prints.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    // Builds dist/ once when src/ is newer, so CLI tests never run an old build.
    globalSetup: ['test/global-build.ts'],
    // At least two test files at once. Vitest's default is one worker per core minus one: a
    // single worker on a 2-core machine, so the files ran one after another while most of them
    // wait on a spawned CLI, an emulator or Chromium (one worker kept about half of the two
    // cores busy). Two workers fill both cores; see docs/development.md.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Headroom for a loaded 2-core machine (spawned CLIs, emulators, Chromium): a test that
    // takes 20 s on a quiet machine may take a minute there. A hung test still fails, later.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
