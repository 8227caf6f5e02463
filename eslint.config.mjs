// ESLint for every TypeScript and JavaScript file of ours: typescript-eslint's recommended rules,
// and, for the product's code (provider/, cli/, emulator/), the size limits docs/design/code.md
// sets. Formatting is Prettier's (.prettierrc.json); this config turns off what would fight it.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "sdk/**",
      "release/**",
      "tools/**",
      "benchmarks/**",
      "node_modules/**",
      "examples/*/node_modules/**",
      "examples/**/bin/**",
      "test/e2e/upgrade/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.mocha } },
    rules: {
      // Unused arguments keep a callback's documented shape; a leading underscore says so.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // `require` is how this code loads late (a program that only declares resources never loads
      // axios) and how the forwarders name the package literally for the serializer.
      "@typescript-eslint/no-require-imports": "off",
      // Tests match the CLI's tables, whose columns are runs of spaces.
      "no-regex-spaces": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
  },
  {
    // The emulator's dashboard runs in a browser, as a module, not in Node.js.
    files: ["emulator/dashboard/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // Tests reach into gRPC messages and engine JSON, whose shapes they assert rather than declare.
    files: ["test/**/*.ts", "harness/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The harness and the scripts: comments and code within 120 columns; their tables and
    // commands, written as strings, may run longer.
    files: ["harness/**/*.ts", "scripts/**/*.ts"],
    rules: {
      "max-len": [
        "error",
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    files: ["provider/**/*.ts", "cli/**/*.ts", "emulator/**/*.ts", "contract/**/*.ts"],
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: false, skipComments: false }],
      "max-len": ["error", { code: 120, ignoreUrls: false, ignoreStrings: false, ignoreTemplateLiterals: false }],
    },
  },
);
