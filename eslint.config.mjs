// Lint = dprint formatting through @effect/eslint-plugin, with Effect's own settings.
import * as effectEslint from "@effect/eslint-plugin"
import tsParser from "@typescript-eslint/parser"

export default [
  { ignores: ["**/dist/**", "**/build/**", "**/node_modules/**", "docs/**", "**/*.md", "**/*.mjs"] },
  ...effectEslint.configs.dprint,
  {
    files: ["**/*.ts"],
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  }
]
