// The built web app: hashed assets cached for a year, everything else revalidated, and
// index.html for any other path (SPEC §2: unknown paths show the landing page), except a missing
// file in one of the build's own asset folders.
import { existsSync, statSync } from 'node:fs'
import { join, normalize, resolve } from 'node:path'

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Studio</title></head>
<body><main><h1>Studio</h1><p>The web app is not built yet: run <code>bun run build</code>.</p></main></body></html>`

// Inside the build's asset folders a path names a file, never a page: in place of a missing one
// (an old hashed chunk after a deploy) the app's HTML would be a script the browser refuses, with
// status 200. Everywhere else an unknown path is the landing page, as SPEC §2 says.
const ASSET_FOLDER = /^\/(assets|fonts|hero|clients)\//

export function createStaticHandler(distDir: string) {
  const root = resolve(distDir)
  const indexPath = join(root, 'index.html')

  return async function serveStatic(req: Request): Promise<Response> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })
    }
    let pathname: string
    try {
      pathname = decodeURIComponent(new URL(req.url).pathname)
    } catch {
      pathname = '/'
    }
    const filePath = resolve(root, `.${normalize(`/${pathname}`)}`)
    if (filePath.startsWith(`${root}/`) && isFile(filePath)) {
      const immutable = pathname.startsWith('/assets/')
      return fileResponse(
        req,
        filePath,
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
    }
    if (ASSET_FOLDER.test(pathname)) {
      return new Response('Not found', {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
      })
    }
    if (!existsSync(indexPath)) {
      return new Response(PLACEHOLDER, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
    }
    return fileResponse(req, indexPath, 'no-cache')
  }
}

/** The file, or its build-time .br/.gz twin when the client accepts that encoding. */
function fileResponse(req: Request, filePath: string, cacheControl: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': Bun.file(filePath).type,
    'Cache-Control': cacheControl,
  }
  const accepted = req.headers.get('accept-encoding') ?? ''
  for (const [encoding, ext] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (new RegExp(`\\b${encoding}\\b`).test(accepted) && isFile(filePath + ext)) {
      return new Response(Bun.file(filePath + ext), {
        headers: { ...headers, 'Content-Encoding': encoding, Vary: 'Accept-Encoding' },
      })
    }
  }
  const hasTwin = isFile(`${filePath}.br`) || isFile(`${filePath}.gz`)
  return new Response(Bun.file(filePath), {
    headers: hasTwin ? { ...headers, Vary: 'Accept-Encoding' } : headers,
  })
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile()
  } catch {
    return false
  }
}
