// `bun scripts/layers.ts [repo]`: the house's figures, read from every import of src/ and web/src/
// (type-only ones included), and the rules dependency-cruiser cannot say (.dependency-cruiser.cjs
// says the rest): no two rooms of src/ import each other, no knot of rooms (a cycle through
// several), at most six loose files in src/, every file name in kebab-case. Prints the figures; exits 1 when a rule is broken.
// A room is a folder directly under src/ (or a loose file, which is a room of its own).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(process.argv[2] ?? join(import.meta.dir, '..'))
const ALIASES: [string, string][] = [
  ['@contract/', 'src/contract/'],
  ['@shared/', 'src/schemas/'],
]
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g

const files = (dir: string) =>
  existsSync(join(root, dir))
    ? [...new Bun.Glob(`${dir}/**/*.{ts,tsx}`).scanSync({ cwd: root })].filter(
        (f) => !/\.test\.tsx?$/.test(f),
      )
    : []

/** The repository file an import names, when it is one. */
function target(from: string, spec: string): string | undefined {
  let base: string | undefined
  if (spec.startsWith('.')) base = join(dirname(from), spec)
  for (const [alias, dir] of ALIASES)
    if (spec.startsWith(alias)) base = dir + spec.slice(alias.length)
  if (base === undefined) return undefined
  for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx'])
    if (existsSync(join(root, base + ext)) && /\.tsx?$/.test(base + ext)) return base + ext
  return undefined
}

function graph(dir: string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  for (const file of files(dir)) {
    const out = new Set<string>()
    for (const m of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      const to = target(file, (m[1] ?? m[2])!)
      if (to) out.add(to)
    }
    edges.set(file, out)
  }
  return edges
}

/** Strongly connected components of more than one node (Tarjan). */
function knots(edges: Map<string, Set<string>>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const found: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        part.push(w)
      } while (w !== v)
      if (part.length > 1) found.push(part.sort())
    }
  }
  for (const v of edges.keys()) if (!idx.has(v)) visit(v)
  return found
}

const roomOf = (file: string) => {
  const rest = relative('src', file).split('/')
  return rest.length === 1 ? rest[0]! : `${rest[0]}/`
}

const src = graph('src')
const rooms = new Map<string, Set<string>>()
for (const [from, tos] of src) {
  const a = roomOf(from)
  if (!rooms.has(a)) rooms.set(a, new Set())
  for (const to of tos) if (to.startsWith('src/') && roomOf(to) !== a) rooms.get(a)!.add(roomOf(to))
}
const pairs = [...rooms].flatMap(([a, tos]) =>
  [...tos].filter((b) => a < b && rooms.get(b)?.has(a)).map((b) => `${a} ↔ ${b}`),
)
const roomKnots = knots(rooms)
const fileCircles = knots(new Map([...src, ...graph('web/src')]))
const loose = [...rooms.keys()].filter((r) => !r.endsWith('/'))

const web = graph('web/src')
const feature = (file: string) => /^web\/src\/app\/([^/]+)\//.exec(file)?.[1]
const SHARED_FEATURES = new Set(['components', 'layout', 'lib', 'stores'])
const sideways = [...web].flatMap(([from, tos]) =>
  [...tos]
    .filter((to) => {
      const a = feature(from)
      const b = feature(to)
      return a && b && a !== b && !SHARED_FEATURES.has(b)
    })
    .map((to) => `${from} → ${to}`),
)
const looseTests = existsSync(join(root, 'tests'))
  ? [...new Bun.Glob('tests/*.test.ts').scanSync({ cwd: root })]
  : []
// One file-name convention: kebab-case, everywhere code lives (font files and licences keep theirs).
const misnamed = ['src', 'web/src', 'tests', 'testkit', 'e2e', 'bench', 'scripts'].flatMap((dir) =>
  existsSync(join(root, dir))
    ? [...new Bun.Glob(`${dir}/**/*.{ts,tsx,css,mjs}`).scanSync({ cwd: root })].filter((f) =>
        /[A-Z_]/.test(f.split('/').pop()!),
      )
    : [],
)
const readme = existsSync(join(root, 'README.md'))
  ? readFileSync(join(root, 'README.md'), 'utf8').split('\n').length - 1
  : 0

console.log(`rooms of src/:                   ${rooms.size}`)
console.log(
  `room pairs importing each other: ${pairs.length}${pairs.length ? `  (${pairs.join(', ')})` : ''}`,
)
console.log(
  `knots of rooms:                  ${roomKnots.length}${roomKnots.map((k) => `  (${k.length}: ${k.join(' ')})`).join('')}`,
)
console.log(`import circles between files:    ${fileCircles.length}`)
for (const circle of fileCircles) console.log(`  ${circle.join(' ')}`)
console.log(`loose files in src/:             ${loose.length}  (${loose.join(', ')})`)
console.log(`sideways imports between features: ${sideways.length}`)
for (const s of sideways) console.log(`  ${s}`)
console.log(`loose test files in tests/:      ${looseTests.length}`)
console.log(
  `files not in kebab-case:         ${misnamed.length}${misnamed.length ? `  (${misnamed.join(', ')})` : ''}`,
)
console.log(`README.md lines:                 ${readme}`)

const broken =
  pairs.length > 0 ||
  roomKnots.length > 0 ||
  fileCircles.length > 0 ||
  loose.length > 6 ||
  sideways.length > 0 ||
  misnamed.length > 0
process.exit(broken && !process.argv.includes('--figures') ? 1 : 0)
