// Module resolve hook (registered with `module.register`): any import that resolves
// into @effect/platform-node (or the undici it brings) fails, naming who imported it.
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context)
  if (/\/node_modules\/(@effect\/platform-node(-shared)?|undici)\//.test(result.url)) {
    throw new Error(`DENIED platform-node: ${specifier} imported by ${context.parentURL}`)
  }
  return result
}
