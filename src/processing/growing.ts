// A run's stream published while the encoder makes it (docs/media.md#growing-streams). The one
// ffmpeg run writes every rung and the audio side by side, each as an EVENT playlist it rewrites
// (atomically) after every segment; this follower reads those playlists a few times a second and
// hands each new segment, its rung's init and a playlist naming only what was handed over to a
// sink (the job's stores them under a folder of their own). Once every rung and the audio have a
// first segment it writes a master, and from then on the stream plays: an admin watches a new
// upload seconds after it lands, the player following the playlists as they grow. The final
// folder, made as before, replaces it; this one is never cached as immutable and never public.
import { join } from 'node:path'
import { AUDIO_DIR, OUTPUT_FILES, RENDITION_FILES, segmentName } from '../storage/layout.ts'
import { AUDIO, outputFrameRate, type PlannedRung, SEGMENTS } from './ladder.ts'
import {
  avcCodecString,
  type MediaPlaylist,
  masterPlaylist,
  mediaPlaylistText,
  parseMediaPlaylist,
  type Rendition,
  type Variant,
} from './playlists.ts'

/** What the ladder's run will make, as it starts. */
export type LadderPlan = {
  /** Lowest first. */
  rungs: readonly PlannedRung[]
  hasAudio: boolean
  /** The master's frame rate (null when unknown). */
  frameRate: number | null
  /** The master's length (null when it states none). */
  duration: number | null
}

/** What a growing stream holds so far. */
export type GrowingProgress = {
  /** Rungs that play (every one with a segment, once the master exists), lowest first. */
  rungs: string[]
  /** Seconds of picture published (the lowest rung's). */
  seconds: number
}

export type GrowingSink = {
  /** Stores one file under the growing folder (`path` relative to it, e.g. `360p/seg_000.m4s`). */
  put(path: string, body: { path: string } | { text: string }): Promise<void>
  /** Told after each look that published something. */
  progress(state: GrowingProgress): Promise<void>
}

/** How often the playlists are read: a segment is published within this of being written. */
export const GROWING_LOOK_MS = 250

type Followed = {
  dir: string
  /** ffmpeg's template for this folder's segments (the audio's are its 1 s pieces). */
  template: string
  /** A target duration no published segment can exceed (it never changes while growing). */
  targetDuration: number
  published: { uri: string; duration: number }[]
  initPublished: boolean
}

/** A media file of ffmpeg's template: its number, or undefined for any other name. */
function indexOf(template: string, name: string): number | undefined {
  const [stem = '', ext = ''] = template.split(/%0\d+d/)
  if (!name.startsWith(stem) || !name.endsWith(ext)) return undefined
  const digits = name.slice(stem.length, name.length - ext.length)
  return /^\d{3,6}$/.test(digits) ? Number(digits) : undefined
}

/**
 * Follows the run writing into `outDir` and publishes its stream through `sink` until `stop()`,
 * which makes one last look (what the encoder wrote last is published too) and resolves once
 * nothing is in flight. A failing look is logged and tried again at the next: the run itself
 * never fails for its growing stream.
 */
export function followGrowing(
  outDir: string,
  plan: LadderPlan,
  sink: GrowingSink,
  opts: { everyMs?: number } = {},
): { stop(): Promise<void> } {
  const followed: Followed[] = [
    ...(plan.hasAudio
      ? [
          {
            dir: AUDIO_DIR,
            template: AUDIO.pieces,
            targetDuration: Math.ceil(AUDIO.pieceSeconds) + 1,
          },
        ]
      : []),
    ...plan.rungs.map((rung) => ({
      dir: rung.name,
      template: RENDITION_FILES.segments,
      targetDuration: SEGMENTS.seconds + 1,
    })),
  ].map((f) => ({ ...f, published: [], initPublished: false }))
  let masterPublished = false
  let stopped = false
  let running: Promise<void> = Promise.resolve()

  async function publishNew(f: Followed): Promise<boolean> {
    let playlist: MediaPlaylist
    try {
      playlist = parseMediaPlaylist(
        await Bun.file(join(outDir, f.dir, RENDITION_FILES.playlist)).text(),
      )
    } catch {
      return false // not written yet
    }
    const fresh = playlist.segments.slice(f.published.length)
    if (fresh.length === 0) return false
    if (!f.initPublished) {
      await sink.put(`${f.dir}/${RENDITION_FILES.init}`, {
        path: join(outDir, f.dir, playlist.init ?? RENDITION_FILES.init),
      })
      f.initPublished = true
    }
    for (const segment of fresh) {
      const index = indexOf(f.template, segment.uri)
      if (index === undefined) throw new Error(`${f.dir}: unexpected segment ${segment.uri}`)
      // Published under the folder's one segment name (the audio's pieces are segments here).
      const uri = segmentName(RENDITION_FILES.segments, index)
      await sink.put(`${f.dir}/${uri}`, { path: join(outDir, f.dir, segment.uri) })
      f.published.push({ uri, duration: segment.duration })
    }
    // EVENT: segments are only ever added, and a player may start from the first one.
    await sink.put(`${f.dir}/${RENDITION_FILES.playlist}`, {
      text: mediaPlaylistText({
        type: 'EVENT',
        targetDuration: f.targetDuration,
        init: RENDITION_FILES.init,
        segments: f.published,
      }),
    })
    return true
  }

  async function publishMaster(): Promise<void> {
    const frameRate = outputFrameRate(plan.frameRate)
    const variants: Variant[] = await Promise.all(
      plan.rungs.map(async (rung) => ({
        uri: `${rung.name}/${RENDITION_FILES.playlist}`,
        width: rung.width,
        height: rung.height,
        frameRate,
        videoCodecs: await avcCodecString(join(outDir, rung.name, RENDITION_FILES.init)),
        // What the encoder is held to: the files' own figures exist only once it is done.
        bandwidth: { peak: rung.maxrate, average: rung.bitrate },
      })),
    )
    const audio: Rendition | null = plan.hasAudio
      ? {
          dir: AUDIO_DIR,
          targetDuration: 0,
          init: RENDITION_FILES.init,
          segments: [],
          bandwidth: { peak: AUDIO.bitrate, average: AUDIO.bitrate },
        }
      : null
    await sink.put(OUTPUT_FILES.master, { text: masterPlaylist(variants, audio) })
    masterPublished = true
  }

  async function look(): Promise<void> {
    let changed = false
    for (const f of followed) if (await publishNew(f)) changed = true
    if (!masterPublished && followed.every((f) => f.published.length > 0)) {
      await publishMaster()
      changed = true
    }
    if (!changed || !masterPublished) return
    const video = followed.filter((f) => f.dir !== AUDIO_DIR)
    await sink.progress({
      rungs: video.filter((f) => f.published.length > 0).map((f) => f.dir),
      seconds: (video[0]?.published ?? []).reduce((sum, s) => sum + s.duration, 0),
    })
  }

  const safeLook = () =>
    look().catch((error) => console.error(`[media] growing stream: ${(error as Error).message}`))

  const loop = async () => {
    while (!stopped) {
      running = safeLook()
      await running
      if (!stopped) await Bun.sleep(opts.everyMs ?? GROWING_LOOK_MS)
    }
  }
  void loop()

  return {
    async stop() {
      stopped = true
      await running
      await safeLook()
    },
  }
}
