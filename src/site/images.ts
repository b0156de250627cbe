// Site images (hero and client logos): checked from their first bytes, decoded and converted with
// sharp (libvips) into the files the public page serves. Hero images become AVIF and WebP at the
// widths of `heroWidths`; raster logos one WebP at twice the logo box; SVG logos are sanitised
// (svg.ts) on a worker (svg-thread.ts) after a byte scan within a budget (svg-scan.ts). Files are
// written to the store's scratch space; the caller adopts them.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import {
  aspectRefusal,
  heroWidths,
  type ImagePurpose,
  imageMsg,
  LOGO_BOX,
  type SiteImageFile,
  siteImageLimits,
  svgLimits,
} from '../contract/site.ts'
import { AppError, isDiskFull } from '../errors.ts'
import { sniff } from '../uploads/sniff.ts'
import { looksLikeSvg, svgOverBudget } from './svg-scan.ts'
import { sanitizeOnWorker } from './svg-thread.ts'

// One libvips thread and one image at a time: an AVIF encode keeps a core busy for seconds, and
// the other core must go on serving the site. A few more wait; beyond that, 429.
sharp.concurrency(1)
sharp.cache(false)
const MAX_WAITING = 3
// Effort 2 of 9: a 2560 px hero takes ~7 s instead of ~25 s at the default 4, ~5 % larger.
const AVIF = { quality: 50, effort: 2 } as const
const WEBP = { quality: 75 } as const
const LOGO_WEBP = { quality: 90, alphaQuality: 100 } as const

export type ConvertedFile = { path: string; type: SiteImageFile['type']; width: number }
export type Converted = { width: number; height: number; files: ConvertedFile[] }

let queue: Promise<unknown> = Promise.resolve()
let waiting = 0

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING) throw new AppError('TOO_MANY_REQUESTS', imageMsg.busy)
  waiting++
  const turn = queue
  let done = () => {}
  queue = new Promise<void>((resolve) => {
    done = resolve
  })
  try {
    await turn
    return await work()
  } finally {
    waiting--
    done()
  }
}

const refuse = (
  code: 'BAD_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE',
  message: string,
) => new AppError(code, message, 'file')

/** Decodes `bytes`, converts them for `purpose` and writes the files under `tmpDir`. */
export async function convertImage(
  purpose: ImagePurpose,
  bytes: Uint8Array,
  tmpDir: string,
): Promise<Converted> {
  if (bytes.byteLength > siteImageLimits.bytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', imageMsg.tooLarge, 'file')
  }
  const raster = sniff(bytes)
  const isRaster = raster === 'image/jpeg' || raster === 'image/png' || raster === 'image/webp'
  if (purpose === 'logo' && !isRaster && looksLikeSvg(bytes)) return svgLogo(bytes, tmpDir)
  if (!isRaster) {
    throw refuse(
      'UNSUPPORTED_MEDIA_TYPE',
      purpose === 'logo' ? imageMsg.logoType : imageMsg.heroType,
    )
  }
  return oneAtATime(async () => {
    const written: ConvertedFile[] = []
    try {
      const { width, height } = await orientedSize(bytes)
      const misshapen = aspectRefusal(purpose, width, height)
      if (misshapen) throw refuse('BAD_REQUEST', misshapen)
      if (purpose === 'logo') {
        written.push(await rasterLogo(bytes, tmpDir))
        const [logo] = written
        return {
          width: logo!.width,
          height: Math.round((logo!.width * height) / width),
          files: written,
        }
      }
      const widths = heroWidths[purpose].filter((w) => w <= width)
      if (widths.length === 0) throw refuse('BAD_REQUEST', imageMsg.tooNarrow(purpose))
      for (const w of widths) {
        for (const type of ['image/avif', 'image/webp'] as const) {
          written.push(await heroFile(bytes, w, type, tmpDir))
        }
      }
      return { width, height, files: written }
    } catch (error) {
      await Promise.all(written.map((f) => rm(f.path, { force: true })))
      throw error instanceof AppError || isDiskFull(error) ? error : decodeError(error)
    }
  })
}

/** sharp with the pixel cap; `failOn: 'error'` so a truncated file is refused, not half drawn. */
const open = (input: Uint8Array | Buffer) =>
  sharp(input, { limitInputPixels: siteImageLimits.pixels, failOn: 'error' })

async function orientedSize(bytes: Uint8Array) {
  const meta = await open(bytes).metadata()
  if (!meta.width || !meta.height) throw refuse('BAD_REQUEST', imageMsg.undecodable)
  if (meta.width * meta.height > siteImageLimits.pixels) {
    throw refuse('BAD_REQUEST', imageMsg.tooManyPixels)
  }
  // EXIF orientations 5–8 turn the picture a quarter: what visitors see is the other way round.
  const turned = (meta.orientation ?? 1) >= 5
  return turned
    ? { width: meta.height, height: meta.width }
    : { width: meta.width, height: meta.height }
}

const tmpPath = (tmpDir: string, ext: string) => join(tmpDir, `site-${crypto.randomUUID()}.${ext}`)

async function heroFile(
  bytes: Uint8Array,
  width: number,
  type: 'image/avif' | 'image/webp',
  tmpDir: string,
): Promise<ConvertedFile> {
  const path = tmpPath(tmpDir, type === 'image/avif' ? 'avif' : 'webp')
  const image = open(bytes).rotate().resize({ width })
  await (type === 'image/avif' ? image.avif(AVIF) : image.webp(WEBP)).toFile(path)
  return { path, type, width }
}

async function rasterLogo(bytes: Uint8Array, tmpDir: string): Promise<ConvertedFile> {
  const path = tmpPath(tmpDir, 'webp')
  const info = await open(bytes)
    .rotate()
    .resize({
      width: LOGO_BOX.width * 2,
      height: LOGO_BOX.height * 2,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .webp(LOGO_WEBP)
    .toFile(path)
  return { path, type: 'image/webp', width: info.width }
}

async function svgLogo(bytes: Uint8Array, tmpDir: string): Promise<Converted> {
  // Refused in milliseconds, before the queue: no parser ever reads a file over the budget.
  const over = svgOverBudget(bytes)
  if (over) {
    throw refuse(
      bytes.byteLength > svgLimits.bytes ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
      imageMsg.svgTooComplex(over),
    )
  }
  // The sanitiser takes its turn with the raster conversions: one file at a time, then 429.
  const { svg, size } = await oneAtATime(async () => {
    const result = await sanitizeOnWorker(bytes)
    if (result === 'timeout') throw refuse('BAD_REQUEST', imageMsg.svgTooSlow)
    if (!result.ok) {
      throw result.reason
        ? refuse('BAD_REQUEST', imageMsg.svgUnsafe(result.reason))
        : refuse('BAD_REQUEST', imageMsg.undecodable)
    }
    const svg = Buffer.from(result.svg)
    // librsvg must be able to draw it (and tells its size: width/height, or the viewBox).
    const size = await open(svg)
      .metadata()
      .then(async (meta) => {
        await open(svg).resize({ width: 48 }).png().toBuffer()
        return meta
      })
      .catch((error) => {
        throw decodeError(error)
      })
    return { svg, size }
  })
  if (!size.width || !size.height) throw refuse('BAD_REQUEST', imageMsg.undecodable)
  const path = tmpPath(tmpDir, 'svg')
  await Bun.write(path, svg)
  return {
    width: size.width,
    height: size.height,
    files: [{ path, type: 'image/svg+xml', width: size.width }],
  }
}

function decodeError(error: unknown): AppError {
  const text = error instanceof Error ? error.message : ''
  if (/pixel limit/i.test(text)) return refuse('BAD_REQUEST', imageMsg.tooManyPixels)
  return refuse('BAD_REQUEST', imageMsg.undecodable)
}
