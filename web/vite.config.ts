// Vite config for the single web entry: the public page and the dashboard share one index.html.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3000}`
const proxied = ['/trpc', '/api', '/uploads', '/media', '/healthz']

/**
 * Writes `.br` and `.gz` beside every text file of the build, once, at maximum compression, so
 * the server can answer `Accept-Encoding` without compressing per request.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json|txt|webmanifest)$/
  let outDir = ''
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
      for (const name of files.filter((file) => compressible.test(file))) {
        const path = join(outDir, name)
        const source = readFileSync(path)
        if (source.length < 1024) continue
        const brotli = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        })
        writeFileSync(`${path}.br`, brotli)
        writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }))
      }
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The e2e check reads the manifest to prove `/` never requests the dashboard's chunks.
    manifest: true,
    target: 'es2022',
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, ws: false }])),
  },
})
