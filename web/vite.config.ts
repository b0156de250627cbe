// Vite config for the single web entry: the public page and the dashboard share one index.html.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite'
import { documentTitle } from '../src/contract/brand.ts'
import { escapeHtml, putInPlace } from '../src/contract/html.ts'

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

/**
 * `<link rel="preload" as="font">` in the head for each of `faces` (paths under web/), at the URL
 * the build gave it: the hashed file the CSS points at, so the preload and the @font-face rule
 * are one request. A listed face no stylesheet uses fails the build.
 */
function preloadFonts(faces: string[]): Plugin {
  let root = ''
  const link = (href: string): HtmlTagDescriptor => ({
    tag: 'link',
    attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href, crossorigin: true },
    injectTo: 'head',
  })
  return {
    name: 'preload-fonts',
    configResolved(config) {
      root = config.root
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        // The dev server serves the source file where the CSS names it.
        if (!ctx.bundle) return faces.map((face) => link(`/${face}`))
        const assets = Object.values(ctx.bundle).filter((output) => output.type === 'asset')
        return faces.map((face) => {
          const source = resolve(root, face)
          // Rolldown names originals relative to the root.
          const asset = assets.find((a) =>
            a.originalFileNames.some((name) => resolve(root, name) === source),
          )
          if (!asset) throw new Error(`preload-fonts: no stylesheet uses ${face}`)
          return link(`/${asset.fileName}`)
        })
      },
    },
  }
}

/** The studio's name (src/contract/brand.ts) in the HTML's title, from the one place it lives. */
function brandTitle(): Plugin {
  return {
    name: 'brand-title',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => putInPlace(html, '%BRAND_TITLE%', escapeHtml(documentTitle())),
    },
  }
}

// `vite build --ssr src/public/server.tsx` builds the public pages' server render into dist-ssr/:
// one file with React inside, so the server needs no web dependency at run time.
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The one alias of tsconfig.base.json: the web app reaches the contract (the schemas both sides share) through it.
  resolve: { alias: { '@contract': fileURLToPath(new URL('../src/contract', import.meta.url)) } },
  plugins: [
    react(),
    tailwindcss(),
    brandTitle(),
    // The faces every page's first screen draws with (web/src/fonts/faces.css): header, titles;
    // their core files (English text). public/server.tsx adds what only some pages need: the
    // hero line's italic on the landing page, and the ext files.
    preloadFonts([
      'src/fonts/inter-wght-normal-core.woff2',
      'src/fonts/instrument-serif-400-normal-core.woff2',
    ]),
    isSsrBuild ? null : precompress(),
  ],
  ssr: { noExternal: true, target: 'node' },
  // The server render gets React's production build whatever NODE_ENV the server runs with, and
  // no copy of public/ (the browser build has it).
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  publicDir: isSsrBuild ? false : 'public',
  build: {
    outDir: isSsrBuild ? 'dist-ssr' : 'dist',
    emptyOutDir: true,
    // The e2e check reads the manifest to prove `/` never requests the dashboard's chunks.
    manifest: !isSsrBuild,
    target: 'es2022',
    // hls.js's full build is one 578 KB chunk (178 KB gzip), imported only when a stream is about
    // to play (web/src/player/load-hls.ts): a size that is known and deliberate, not a warning.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, ws: false }])),
  },
}))
