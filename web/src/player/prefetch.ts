// The start of a stream fetched before the click
// (docs/decisions/076-a-streams-start-fetched-ahead-and-on-the-press.md): the master playlist, the
// lowest rung's video and audio playlists and their init segments ahead, for a few KB a work; the
// first media segments on intent (a finger or a button pressed on the player), with every file the
// page named as the stream's start asked for at once
// (docs/decisions/079-a-streams-first-files-named-in-the-page.md). What was fetched is kept here by
// URL, with its timing, and hls.js takes it from here (prefetch-loader.ts) instead of asking the
// network again; a browser that plays HLS itself finds it in its HTTP cache. Part of the public
// pages' first script: no React, no hls.js.

import type { StreamStart } from '@contract/stream-start.ts'

/** A file fetched ahead or on intent, as hls.js's loaders would report it. */
export type Fetched = {
  /** The final URL (after a redirect to a bucket): relative URIs inside resolve against it. */
  url: string
  data: ArrayBuffer
  /** performance.now() at the request, at its headers, at its last byte. */
  start: number
  first: number
  end: number
}

/** Where a stream starts: the files fetched ahead, and the first media segments. */
type StartPlan = { inits: string[]; firstSegments: string[] }

/** Bytes fetched ahead (before any intent) and whether more may be. */
export type AheadBudget = { spent: number; limit: number }

/** A playlist larger than this is not a playlist we wrote: it is not parsed. */
const MAX_PLAYLIST_BYTES = 512 * 1024
/** Ahead, no single file over this is fetched (a long film's playlist, an odd init). */
const MAX_AHEAD_FILE_BYTES = 24 * 1024

const kept = new Map<string, Promise<Fetched | null>>()
const plans = new Map<string, Promise<StartPlan | null>>()

const absolute = (url: string, base: string = location.href) => new URL(url, base).href

/** What was fetched for `url` (resolved against the page), if it was. */
export function prefetched(url: string): Promise<Fetched | null> | undefined {
  return kept.get(absolute(url))
}

/** A budget that refuses the next file once `limit` bytes were fetched through it. */
export function aheadBudget(limit: number): AheadBudget {
  return { spent: 0, limit }
}

type Mode = { budget?: AheadBudget; signal?: AbortSignal }

/**
 * Fetches `url` once and keeps it. With a budget (ahead): refused once the budget is spent, and a
 * file that says it is larger than MAX_AHEAD_FILE_BYTES is dropped unread. A failure keeps
 * nothing, so the player's own loader asks again.
 */
function fetchKept(url: string, mode: Mode): Promise<Fetched | null> {
  const key = absolute(url)
  const known = kept.get(key)
  if (known) return known
  const { budget, signal } = mode
  if (budget && budget.spent >= budget.limit) return Promise.resolve(null)
  const start = performance.now()
  let alias: string | null = null
  const fetched: Promise<Fetched | null> = fetch(key, {
    credentials: 'same-origin',
    priority: budget ? 'low' : 'high',
    ...(signal ? { signal } : {}),
  })
    .then(async (response): Promise<Fetched | null> => {
      const first = performance.now()
      // Redirected (to a bucket's public address): the master's relative URIs resolve there.
      if (response.url && response.url !== key && !kept.has(response.url)) {
        kept.set(response.url, fetched)
        alias = response.url
      }
      const length = Number(response.headers.get('content-length') ?? 0)
      if (!response.ok || (budget && length > MAX_AHEAD_FILE_BYTES)) {
        await response.body?.cancel()
        return null
      }
      const data = await response.arrayBuffer()
      if (budget) budget.spent += data.byteLength
      return { url: response.url || key, data, start, first, end: performance.now() }
    })
    .catch(() => null)
    .then((result) => {
      for (const name of [key, alias]) {
        if (!result && name && kept.get(name) === fetched) kept.delete(name)
      }
      return result
    })
  kept.set(key, fetched)
  return fetched
}

/** The attribute list of an HLS tag line (`#EXT-X-…:A=1,B="x,y"`). */
function attributes(line: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of line.slice(line.indexOf(':') + 1).matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
    found.set(match[1] ?? '', (match[2] ?? '').replace(/^"|"$/g, ''))
  }
  return found
}

function lines(file: Fetched): string[] | null {
  if (file.data.byteLength > MAX_PLAYLIST_BYTES) return null
  return new TextDecoder()
    .decode(file.data)
    .split('\n')
    .map((line) => line.trim())
}

/**
 * The lowest rung of a master playlist and the audio rendition it plays with, as absolute URLs:
 * hls.js starts there (hls-config.ts, startLevel 0, its levels sorted by bandwidth).
 */
export function lowestRung(master: Fetched): { video: string; audio: string | null } | null {
  const all = lines(master)
  if (!all) return null
  const audioOf = new Map<string, string>()
  let lowest: { bandwidth: number; uri: string; audio: string | undefined } | null = null
  for (let i = 0; i < all.length; i++) {
    const line = all[i] ?? ''
    if (line.startsWith('#EXT-X-MEDIA:')) {
      const media = attributes(line)
      const group = media.get('GROUP-ID')
      const uri = media.get('URI')
      if (media.get('TYPE') !== 'AUDIO' || !group || !uri) continue
      if (!audioOf.has(group) || media.get('DEFAULT') === 'YES') audioOf.set(group, uri)
    } else if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const stream = attributes(line)
      const uri = all.slice(i + 1).find((next) => next && !next.startsWith('#'))
      const bandwidth = Number(stream.get('BANDWIDTH'))
      if (!uri || !Number.isFinite(bandwidth)) continue
      if (!lowest || bandwidth < lowest.bandwidth) {
        lowest = { bandwidth, uri, audio: stream.get('AUDIO') }
      }
    }
  }
  if (!lowest) return null
  const audio = lowest.audio ? audioOf.get(lowest.audio) : undefined
  return {
    video: absolute(lowest.uri, master.url),
    audio: audio ? absolute(audio, master.url) : null,
  }
}

/** A media playlist's init segment and first media segment, as absolute URLs. */
export function startOf(playlist: Fetched): { init: string | null; first: string } | null {
  const all = lines(playlist)
  if (!all) return null
  let init: string | null = null
  let inSegment = false
  for (const line of all) {
    if (line.startsWith('#EXT-X-MAP:')) {
      const uri = attributes(line).get('URI')
      if (uri) init = absolute(uri, playlist.url)
    } else if (line.startsWith('#EXTINF:')) {
      inSegment = true
    } else if (inSegment && line && !line.startsWith('#')) {
      return { init, first: absolute(line, playlist.url) }
    }
  }
  return null
}

async function plan(hlsUrl: string, mode: Mode): Promise<StartPlan | null> {
  const master = await fetchKept(hlsUrl, mode)
  const rung = master && lowestRung(master)
  if (!rung) return null
  const playlists = await Promise.all(
    [rung.video, rung.audio].flatMap((url) => (url ? [fetchKept(url, mode)] : [])),
  )
  const starts = playlists.map((playlist) => playlist && startOf(playlist))
  if (starts.some((start) => !start)) return null
  return {
    inits: starts.flatMap((start) => (start?.init ? [start.init] : [])),
    firstSegments: starts.flatMap((start) => (start ? [start.first] : [])),
  }
}

/** The plan for `hlsUrl`, made once; a plan cut short (budget, failure) may be made again. */
function planOnce(hlsUrl: string, mode: Mode): Promise<StartPlan | null> {
  const key = absolute(hlsUrl)
  const known = plans.get(key)
  if (known) return known
  const made = plan(key, mode).then((result) => {
    if (!result && plans.get(key) === made) plans.delete(key)
    return result
  })
  plans.set(key, made)
  return made
}

/**
 * Fetches what a stream's start needs but its media segments, within `budget`: the master, the
 * lowest rung's playlists and init segments. Resolves once they are kept (false: not all).
 */
export async function fetchAhead(hlsUrl: string, budget: AheadBudget): Promise<boolean> {
  const made = await planOnce(hlsUrl, { budget })
  if (!made) return false
  const inits = await Promise.all(made.inits.map((init) => fetchKept(init, { budget })))
  return inits.every(Boolean)
}

/** How the visitor's press asks for a stream's start. */
type StartRequest = {
  /** The files the page named as the stream's start: all asked for at once, with the master. */
  start?: StreamStart | null
  /** Aborts the media segments' fetch (the touch became a scroll) and forgets them. */
  signal?: AbortSignal
}

/**
 * The visitor means to play `hlsUrl`: the init and first media segments are fetched together as
 * soon as their names are known: at once when the page named them or the playlists were fetched
 * ahead, else once the master and playlists say. The master is followed either way, so a named
 * file the stream does not have is only a wasted request.
 */
export async function fetchStart(hlsUrl: string, request: StartRequest = {}): Promise<void> {
  const { start, signal } = request
  const segments: Mode = signal ? { signal } : {}
  const planned = planOnce(hlsUrl, {})
  const master = absolute(hlsUrl)
  for (const files of start ?? []) {
    void fetchKept(absolute(files.playlist, master), {})
    void fetchKept(absolute(files.init, master), {})
    void fetchKept(absolute(files.segment, master), segments)
  }
  // A plan made ahead may have stopped at the budget: made again without one.
  const made = (await planned) ?? (await planOnce(hlsUrl, {}))
  if (!made || signal?.aborted) return
  await Promise.all([
    ...made.inits.map((url) => fetchKept(url, {})),
    ...made.firstSegments.map((url) => fetchKept(url, segments)),
  ])
}
