import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    reporters: ["default", "./test/summaryReporter.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the built CLI; keep the 2-core machines from thrashing.
    maxWorkers: 2,
  },
});
