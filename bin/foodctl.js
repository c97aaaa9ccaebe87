#!/usr/bin/env node
// Loads the built entry. The only file that sets the process's exit code.
import { run } from "../dist/main.js";

process.exitCode = await run(process.argv.slice(2));
