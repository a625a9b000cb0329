// ESLint's configuration for the report page's script (report/page/report.js), which
// `make lint-js` runs. It lives here beside the browser test because its packages come
// from the same lockfile. The script is a classic one, inlined into every report's
// <script> element, so it runs in the browser's global scope, not as a module.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["report/page/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: globals.browser,
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
  },
];
