// TypeDoc plugin of `npm run docs`.
//
// 1. A namespace made by `export * as X from "./X.js"` takes the
// module's own header comment (the first doc comment of the file: its summary
// and example), so each module is documented once, at its top, rather than again
// in every barrel. The barrel's own tags on the export (`@since`) are kept. Each
// entry point (a package's barrel) is named after its package.
//
// 2. Stricter than `validation.notDocumented` (which accepts a comment holding
// only `@since`): every public export needs a description, and every module an
// `@example`. Each miss is a warning, so `treatWarningsAsErrors` fails the build.
// Files listed in `solfxPendingDocs` (under active work elsewhere) are reported
// as one info line each instead: empty that list once they are documented.
import { Application, Comment, CommentTag, Converter, ParameterType, ReflectionKind } from "typedoc"
import { existsSync, readFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import ts from "typescript"

/** The first `/** … *\/` of a file, as summary text and block tags. */
const headerOf = (file) => {
  const range = ts.getLeadingCommentRanges(file.text, 0)?.[0]
  const raw = range === undefined ? "" : file.text.slice(range.pos, range.end)
  if (!raw.startsWith("/**")) return undefined
  const lines = raw.replace(/^\/\*\*/, "").replace(/\*\/$/, "").split("\n").map((l) => l.replace(/^\s*\* ?/, ""))
  const summary = []
  const tags = []
  for (const line of lines) {
    // Only known tags: a summary may well begin with "@solfx/core: ...".
    const tag = /^@(since|example|category|deprecated|see|remarks|module|packageDocumentation)\b\s?(.*)$/.exec(line)
    if (tag && (tag[1] === "module" || tag[1] === "packageDocumentation")) continue
    if (tag) tags.push({ tag: `@${tag[1]}`, lines: tag[2] ? [tag[2]] : [] })
    else if (tags.length > 0) tags.at(-1).lines.push(line)
    else summary.push(line)
  }
  const text = summary.join("\n").trim()
  if (text === "") return undefined
  return new Comment(
    [{ kind: "text", text }],
    tags.map(({ lines, tag }) => {
      const body = lines.join("\n").trim()
      return new CommentTag(tag, tag === "@example" ? [{ kind: "code", text: "```ts\n" + body + "\n```" }] : [{ kind: "text", text: body }])
    })
  )
}

/** The name of the package a file belongs to. */
const packageOf = (fileName) => {
  for (let dir = dirname(fileName); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).name
  }
  return undefined
}

const CHECKED = ReflectionKind.Module | ReflectionKind.Namespace | ReflectionKind.Class | ReflectionKind.Interface |
  ReflectionKind.TypeAlias | ReflectionKind.Function | ReflectionKind.Variable | ReflectionKind.Enum
const MODULES = ReflectionKind.Module | ReflectionKind.Namespace

const commentOf = (reflection) => reflection.comment ?? reflection.signatures?.[0]?.comment
const described = (comment) => comment?.summary.some((part) => part.text.trim() !== "") === true

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: "solfxPendingDocs",
    help: "Path prefixes (from the working directory) whose documentation misses are reported, not warned.",
    type: ParameterType.Array,
    defaultValue: []
  })
  /** Where each reflection was declared, for the warnings. */
  const declaredIn = new Map()
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0]
    if (declaration !== undefined) declaredIn.set(reflection.id, declaration.getSourceFile().fileName)
  })

  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    const pending = app.options.getValue("solfxPendingDocs")
    const deferred = new Map()
    for (const reflection of project.getReflectionsByKind(CHECKED)) {
      if (reflection.kindOf(ReflectionKind.Module) && reflection.parent?.kindOf(ReflectionKind.Project) !== true) continue
      const file = (declaredIn.get(reflection.id) ?? "").replace(`${process.cwd()}/`, "")
      const misses = []
      const comment = commentOf(reflection)
      if (!described(comment)) misses.push("has no description, only tags")
      if (reflection.kindOf(MODULES) && comment?.getTag("@example") === undefined) misses.push("has no @example")
      if (misses.length === 0) continue
      if (pending.some((prefix) => file.startsWith(prefix))) {
        deferred.set(file, (deferred.get(file) ?? 0) + misses.length)
        continue
      }
      const name = `${reflection.getFriendlyFullName()} (${ReflectionKind.singularString(reflection.kind)}, ${file})`
      for (const miss of misses) app.logger.warn(`${name} ${miss}`)
    }
    for (const [file, count] of deferred) app.logger.info(`pending documentation (solfxPendingDocs): ${count} in ${file}`)
  })

  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const file = context.getSymbolFromReflection(reflection)?.declarations?.find(ts.isSourceFile)
    // An entry point: a package's barrel is named after its package, another entry (`neutral.ts`)
    // after its subpath (`@solfx/sdk/neutral`); documented by its header.
    if (reflection.kind === ReflectionKind.Module && file !== undefined) {
      const pkg = packageOf(file.fileName)
      const entry = basename(file.fileName, ".ts")
      reflection.name = pkg === undefined ? reflection.name : entry === "index" ? pkg : `${pkg}/${entry}`
      reflection.comment ??= headerOf(file)
      return
    }
    if (reflection.kind !== ReflectionKind.Namespace) return
    const header = file === undefined ? undefined : headerOf(file)
    if (header === undefined) return
    const own = reflection.comment
    if (own !== undefined && own.summary.some((part) => part.text.trim() !== "")) return
    for (const tag of own?.blockTags ?? []) if (!header.getTag(tag.tag)) header.blockTags.push(tag.clone())
    reflection.comment = header
  })
}
