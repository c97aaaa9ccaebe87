import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // In-process command tests see the version the build injects, as the built CLI does.
  define: { __FOODCTL_VERSION__: JSON.stringify(version) },
  plugins: [
    {
      // The kept transforms (fsModuleCache below) hold the version: a new one transforms again.
      name: "foodctl-version-in-cache-key",
      configureVitest: ({ experimental_defineCacheKeyGenerator }) => experimental_defineCacheKeyGenerator(() => version),
    },
  ],
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    reporters: ["default", "./test/summaryReporter.ts"],
    // Threads: a worker starts and imports faster than a forked process (measured: 39.5 s against
    // 46.7 s for the whole suite, the same CPU).
    pool: "threads",
    // Test files share a worker's module cache: each file no longer re-imports the sources,
    // commander, fastify and zod (about half the suite's CPU). Tests keep no global state between files.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Four workers for two cores: many tests wait (on sockets, child processes, a sandbox's
    // latency), and the other workers run while they do. Measured on the suite alone, same CPU:
    // two workers 39.5 s, three 29–35 s, four 26–29 s.
    maxWorkers: 4,
    experimental: {
      // Transformed sources are kept between runs (by content; never committed): a run after a
      // small change transforms only what changed.
      fsModuleCache: true,
      fsModuleCachePath: "node_modules/.cache/foodctl-test/vitest",
    },
  },
});
