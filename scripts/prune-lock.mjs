#!/usr/bin/env node
// The registry mirror this project installs from serves only the Linux builds of
// platform-specific optional packages (rollup, esbuild, msgpackr...). npm records
// the optional dependency in its parent's entry but cannot add the package itself,
// and `npm ci` then refuses the lock as out of sync. This drops, from each entry's
// `optionalDependencies`, the names the lock has no package for. Run it after
// `npm install` changes the lock; it changes nothing when the lock is complete.
import { readFileSync, writeFileSync } from "node:fs"

const path = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages
let pruned = 0

// Node resolution: look in the entry's own node_modules, then each ancestor's, then the root.
const resolves = (entryPath, name) => {
  let base = entryPath
  while (true) {
    if (packages[`${base ? `${base}/` : ""}node_modules/${name}`]) return true
    if (base === "") return false
    const cut = base.lastIndexOf("/node_modules/")
    base = cut === -1 ? "" : base.slice(0, cut)
  }
}

for (const [entryPath, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies
  if (!optional) continue
  for (const name of Object.keys(optional)) {
    if (!resolves(entryPath, name)) {
      delete optional[name]
      pruned++
    }
  }
  if (Object.keys(optional).length === 0) delete entry.optionalDependencies
}

writeFileSync(path, JSON.stringify(lock, null, 2) + "\n")
console.log(`prune-lock: removed ${pruned} optional dependencies the registry does not serve`)
