/**
 * Hover docs as an editor shows them: TypeScript's language service over a consumer file that imports the
 * packages by their public names (resolved to their sources through the `@solfx/source` condition).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

/** What an editor shows on hover over a name: its signature line and its doc (text and tags). */
export interface Hover {
  readonly display: string
  readonly documentation: string
}

/**
 * A language service over one in-memory file at `file` (inside the workspace, so packages resolve), with the
 * compiler options of `configPath` (test/docs/tsconfig.json: the `@solfx/source` condition, strict).
 */
export const service = (
  file: string,
  text: string,
  configPath = path.join(import.meta.dirname, "..", "tsconfig.json")
) => {
  const options: ts.CompilerOptions = {
    ...ts.parseJsonConfigFileContent(
      JSON.parse(fs.readFileSync(configPath, "utf8")),
      ts.sys,
      path.dirname(configPath)
    ).options,
    composite: false,
    noEmit: true,
    declaration: false,
    emitDeclarationOnly: false,
    plugins: []
  }
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) =>
      name === file
        ? ts.ScriptSnapshot.fromString(text)
        : fs.existsSync(name)
        ? ts.ScriptSnapshot.fromString(fs.readFileSync(name, "utf8"))
        : undefined,
    getCurrentDirectory: () => path.dirname(file),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => name === file ? text : ts.sys.readFile(name),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath!
  }
  const languageService = ts.createLanguageService(host, ts.createDocumentRegistry())
  return {
    languageService,
    /** The hover at `position` of the file. */
    hoverAt: (position: number): Hover | undefined => {
      const info = languageService.getQuickInfoAtPosition(file, position)
      if (info === undefined) return undefined
      return {
        display: ts.displayPartsToString(info.displayParts),
        documentation: [
          ts.displayPartsToString(info.documentation),
          ...(info.tags ?? []).map((tag) => `@${tag.name} ${ts.displayPartsToString(tag.text)}`)
        ].join("\n").trim()
      }
    },
    diagnostics: () =>
      [
        ...languageService.getSyntacticDiagnostics(file),
        ...languageService.getSemanticDiagnostics(file)
      ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
  }
}
