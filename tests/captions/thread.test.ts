// Caption files are read on a worker thread: the answer is the one the reader gives on the main
// thread, refusals keep their line, and the server's own thread keeps running meanwhile.
import { describe, expect, test } from 'bun:test'
import { CaptionsError, CaptionsTooLarge, toWebVtt } from '../../src/captions/index.ts'
import { toWebVttOffThread } from '../../src/captions/thread.ts'
import { CAPTIONS_MAX_BYTES } from '../../src/contract/captions.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

/** As many one-word SRT cues as fit in the size limit: the reader's longest file. */
function largestSrt(): Uint8Array {
  const cues: string[] = []
  let size = 0
  for (let i = 1; ; i++) {
    const two = (n: number) => String(n).padStart(2, '0')
    const at = `00:${two(Math.floor(i / 60) % 60)}:${two(i % 60)}`
    const cue = `${i}\n${at},000 --> ${at},500\nw\n\n`
    if (size + cue.length > CAPTIONS_MAX_BYTES) break
    cues.push(cue)
    size += cue.length
  }
  return bytes(cues.join(''))
}

const refusalOf = async (read: Promise<unknown>) => {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (error instanceof CaptionsError)
    return { kind: 'error', message: error.message, line: error.line }
  if (error instanceof CaptionsTooLarge) return { kind: 'too large', message: error.message }
  throw new Error(`not refused as captions: ${String(error)}`)
}

describe('reading captions on a worker thread', () => {
  test('the same WebVTT as on the main thread', async () => {
    const srt = bytes('1\r\n00:00:01,000 --> 00:00:04,000\r\nHello there.\r\n')
    expect(await toWebVttOffThread(srt)).toEqual(toWebVtt(srt))
    const large = largestSrt()
    const off = await toWebVttOffThread(large)
    expect(off).toEqual(toWebVtt(large))
    expect(off.cues).toBeGreaterThan(15_000)
  })

  test('refusals come back as caption errors, with their line', async () => {
    const bad = bytes('WEBVTT\n\n00:00:05.000 --> 00:00:04.000\nBackwards\n')
    const refused = await refusalOf(toWebVttOffThread(bad))
    expect(refused).toEqual({
      kind: 'error',
      line: 3,
      message: 'Line 3: the cue timing "00:00:05.000 --> 00:00:04.000" ends before it starts',
    })
    const big = new Uint8Array(CAPTIONS_MAX_BYTES + 1).fill(0x41)
    expect(await refusalOf(toWebVttOffThread(big))).toEqual({
      kind: 'too large',
      message: 'Captions must be at most 1 MB',
    })
  })

  test('the main thread keeps running while the largest file is read', async () => {
    const large = largestSrt()
    await toWebVttOffThread(bytes('WEBVTT\n')).catch(() => {}) // the worker loaded
    // The reader's time on this thread, for comparison.
    const inline: number[] = []
    for (let i = 0; i < 3; i++) {
      const start = performance.now()
      toWebVtt(large)
      inline.push(performance.now() - start)
    }
    const onMain = inline.sort((a, b) => a - b)[1]!
    // The longest this thread went without running a timer, while the worker read the file.
    const gaps: number[] = []
    for (let i = 0; i < 3; i++) {
      let last = performance.now()
      let longest = 0
      const ticks = setInterval(() => {
        const now = performance.now()
        longest = Math.max(longest, now - last)
        last = now
      }, 1)
      await toWebVttOffThread(large)
      clearInterval(ticks)
      gaps.push(longest)
    }
    console.log(
      `[captions] the largest file: ${onMain.toFixed(0)} ms on this thread; its longest pause while on the worker: ${Math.min(...gaps).toFixed(0)} ms`,
    )
    expect(Math.min(...gaps)).toBeLessThan(onMain / 2)
  }, 30_000)
})
