// Lint for the whole tree: typescript-eslint's recommended rules, plus the size limits the
// project keeps (docs/cli.md is the contract; this file is the house style). Prettier formats.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

// One now: the wall clock is read by src/clock.ts alone, handed down as the run's clock, so a test can fix it.
const ONE_NOW = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: "read the time from the run's clock (ctx.clock, or a Clock passed in), not Date.now(): src/clock.ts alone reads it",
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "new Date() reads the wall clock: use new Date(clock.now()) with the run's clock (src/clock.ts alone reads it)",
  },
];
// One printer: a command hands stdout's text to the context (ctx.print, or ctx.printRaw for text as it comes), never writes it itself.
const ONE_PRINTER = [
  "CallExpression[callee.property.name='write'][callee.object.property.name='stdout']",
  "CallExpression[callee.property.name='write'][callee.object.name='stdout']",
].map((selector) => ({
  selector,
  message: "a command prints through the one printer: ctx.print (the Shown forms) or ctx.printRaw (src/context.ts), not stdout.write",
}));
/**
 * Which folder of src/ may import which (docs: commands → change → journal, batch, api, output →
 * intake → records): for each folder, the folders above it or beside it that it must not reach
 * into. test/unit/layers.test.ts checks that lint says each of these.
 */
const notInto = (folders, why) => ({ regex: `^(\\.\\./)+(${folders.join("|")})/`, message: why });
const EMULATOR = "the CLI runs the emulator only from the sandbox's commands and src/sandboxes/";
const SIBLING = {
  regex: "^\\.\\./[^./][^/]*/",
  message: "a command folder imports no other: share through change/, output/ or commands/*.ts",
};
const LAYERS = {
  // A command's folder reaches no other noun's: what two commands share is a use case, a presenter or a helper at commands/*.ts.
  "src/commands/*/**": [SIBLING],
  // The emulator runs only from the sandbox's commands and src/sandboxes/ (the rest of the CLI never imports it).
  "src/commands/!(sandbox)/**": [SIBLING, notInto(["sandbox"], EMULATOR)],
  "src/*.ts": [{ regex: "^\\./sandbox/", message: EMULATOR }],
  "src/{config,topics,commands}/*.ts": [notInto(["sandbox"], EMULATOR)],
  "src/change/**": [notInto(["commands", "sandbox"], "the use cases never import a command, nor the emulator")],
  "src/intake/**": [
    notInto(["commands", "change", "journal", "batch", "output", "config", "api", "sandbox"], "the domain imports nothing above it"),
  ],
  "src/api/**": [
    notInto(
      ["output", "commands", "change", "journal", "batch", "sandbox", "sandboxes"],
      "the client imports no printer and nothing above it",
    ),
  ],
  "src/output/**": [notInto(["commands", "change", "sandbox"], "a printer imports no command, no use case and not the emulator")],
  "src/{journal,batch}/**": [
    notInto(["commands", "change", "sandbox"], "the journal and the batch readers import no command, no use case and not the emulator"),
  ],
  "src/sandbox/**": [
    notInto(["api", "commands", "change", "output", "sandboxes"], "the sandbox takes the contract from records/, never the client's code"),
  ],
  // The sandboxes this machine runs (records, starting one detached, stopping one): below the commands, beside the client.
  "src/sandboxes/**": [
    notInto(["commands", "change", "api"], "the sandboxes' lifecycle imports no command, no use case and not the client"),
  ],
  "src/records/**": [
    notInto(
      ["intake", "api", "commands", "change", "sandbox"],
      "records/ is the contract: the rules, the client and the sandbox import it, not the other way",
    ),
  ],
};

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".test-build/", ".bench/", "coverage/", "src/records/validators/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-control-regex": "off",
    },
  },
  {
    // The bin is CommonJS: it loads the code-cached bundle with require().
    files: ["bin/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", __dirname: "readonly", module: "writable", WebAssembly: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read deep into JSON answers; `any` there keeps those reads short.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["src/**/*.ts"],
    rules: {
      "max-lines": ["error", { max: 300, skipBlankLines: false, skipComments: false }],
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
      "max-len": ["error", { code: 160, ignoreUrls: true, ignoreStrings: false, ignoreTemplateLiterals: false }],
      // Required on first use, so a run that needs none of them never loads them (start-up): colour, tables and node:os.
      "@typescript-eslint/no-require-imports": ["error", { allow: ["^chalk$", "^cli-table3$", "^node:os$"] }],
      "no-restricted-syntax": ["error", ...ONE_NOW],
    },
  },
  {
    files: ["src/clock.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    // A command hands what it found to the one printer (Context.print); JSON is written there and by the presenters in src/output/.
    files: ["src/commands/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...ONE_NOW,
        {
          selector: "CallExpression[callee.object.name='JSON'][callee.property.name='stringify']",
          message: "commands do not write JSON: return it through ctx.print (src/context.ts) or a presenter in src/output/",
        },
        ...ONE_PRINTER,
      ],
    },
  },
  ...Object.entries(LAYERS).map(([files, patterns]) => ({ files: [files], rules: { "no-restricted-imports": ["error", { patterns }] } })),
);
