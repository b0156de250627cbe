// Writes web/public/favicon.svg from the studio's mark (web/src/brand/mark.ts), then
// web/public/favicon.ico from that SVG: 16, 32 and 48 px PNG images in one ICO file. The page
// links the SVG; the ICO is for clients that ask for /favicon.ico whatever the page says (older
// browsers, bookmarks, feed readers). Both are committed, so building the web app needs no
// ffmpeg; run `bun scripts/favicon.ts` again after changing the mark or the studio's name.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { faviconSvg } from '../web/src/brand/mark.ts'

const PUBLIC = join(import.meta.dir, '..', 'web', 'public')
const SIZES = [16, 32, 48]

writeFileSync(join(PUBLIC, 'favicon.svg'), faviconSvg())

const split = `[0:v]split=${SIZES.length}${SIZES.map((s) => `[in${s}]`).join('')}`
const scales = SIZES.map((s) => `[in${s}]scale=${s}:${s}:flags=lanczos[out${s}]`)
const proc = Bun.spawn(
  [
    'ffmpeg',
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    // ffmpeg's librsvg decoder draws the SVG at its own size (64 px); each image scales down.
    ...['-i', join(PUBLIC, 'favicon.svg')],
    ...['-filter_complex', [split, ...scales].join(';')],
    ...SIZES.flatMap((s) => ['-map', `[out${s}]`]),
    ...['-c:v', 'png', '-pix_fmt', 'rgba', '-frames:v', '1', '-f', 'ico'],
    join(PUBLIC, 'favicon.ico'),
  ],
  { stderr: 'inherit' },
)
if ((await proc.exited) !== 0) {
  console.error('ffmpeg failed: it needs the librsvg decoder (ffmpeg -decoders | grep svg)')
  process.exit(1)
}
console.log(`web/public/favicon.svg, web/public/favicon.ico: ${SIZES.join(', ')} px`)
