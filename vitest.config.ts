import { defineConfig } from 'vitest/config';

// The JSON report feeds the one-line `N passed, N failed` summary that .ci/run prints.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    // Builds dist/ once when src/ is newer, so CLI tests never run an old build.
    globalSetup: ['test/global-build.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
