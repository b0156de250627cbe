// The house rules for imports, checked by `bun run lint` (docs/architecture.md draws the house).
// src/ has floors: the ground (config, errors, the contract, the database, storage, signing, telemetry, the
// HTTP helpers, mail, the parser threads), the domains on it, the composition of the domains
// (services.ts, with its housekeeping), the surfaces on top (api, pages, media, ops), and the entry points
// (app.ts, server.ts, worker.ts). A file imports only its own floor's neighbours or floors below.
// scripts/layers.ts checks what this file cannot say: no two rooms import each other, no knot of
// rooms, at most six loose files.
const GROUND =
  '^src/(config|errors)\\.ts$|^src/(contract|db|storage|signing|http|mail|telemetry|parser-threads)/'
const DOMAINS =
  '^src/(accounts|activity|videos|uploads|processing|captions|site|review-links|backup)/'
const COMPOSITION = '^src/services\\.ts$'
const SURFACES = '^src/(api|pages|media|ops)/'
const ENTRIES = '^src/(app|server|worker)\\.ts$'

/** A rule that keeps a floor's files from importing any floor above it. */
const floor = (name, from, above) => ({
  name: `floor-${name}`,
  comment: `${name} imports nothing from a floor above it`,
  severity: 'error',
  from: { path: from },
  to: { path: above },
})

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import circle between files, type-only imports included',
      severity: 'error',
      from: { path: '^(src|web/src)/' },
      to: { circular: true },
    },
    floor('ground', GROUND, [DOMAINS, COMPOSITION, SURFACES, ENTRIES].join('|')),
    floor('domains', DOMAINS, [COMPOSITION, SURFACES, ENTRIES].join('|')),
    floor('composition', COMPOSITION, [SURFACES, ENTRIES].join('|')),
    floor('surfaces', SURFACES, ENTRIES),
    {
      name: 'web-takes-only-the-contract',
      comment:
        'the web app reaches the server only through src/contract (and types via web/src/api.ts)',
      severity: 'error',
      from: { path: '^web/src/', pathNot: '^web/src/api\\.ts$|^web/src/public/server\\.tsx$' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'features-side-by-side',
      comment:
        'a dashboard feature never imports another feature: what two share lives in app/components',
      severity: 'error',
      from: { path: '^web/src/app/([^/]+)/' },
      to: {
        path: '^web/src/app/([^/]+)/',
        pathNot: '^web/src/app/$1/|^web/src/app/(components|layout|lib|stores)/',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
}
