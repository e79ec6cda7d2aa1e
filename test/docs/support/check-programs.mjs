// Type-checks the programs of a folder (its tsconfig.json) and prints each file's diagnostics as JSON: every
// file is checked, even when another has a syntax error (where `tsc` would stop before the semantic checks).
// Run as a child process by Examples.test.ts, so the check does not hold the test worker's event loop.
import ts from "typescript"

const dir = process.argv[2]
const configFile = ts.findConfigFile(dir, ts.sys.fileExists)
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, dir)
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
const out = {}
for (const name of config.fileNames) {
  const file = program.getSourceFile(name)
  const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
  if (diagnostics.length > 0) out[name] = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))
}
const options = config.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))
process.stdout.write(JSON.stringify({ files: out, options: [...options, ...program.getOptionsDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))] }))
