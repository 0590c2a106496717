// ESLint for the table server's pages (rami_core/server/static/*.js): ES
// modules run by the browser, no build step. The recommended rules (real
// bugs: undefined names, unreachable code, unused variables) and a few that
// keep the pages plain: strict equality, no var, const where nothing is
// reassigned.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["rami_core/server/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      // `catch (e)` without using e is kept: the pages name the error they ignore.
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
