// Named steps of a video change where a crash is most harmful: between verifying uploads, taking
// them into the store, writing the row and releasing them. In the app they do nothing. The crash
// test (tests/videos/crash.test.ts) preloads a hook that SIGKILLs the server at a chosen step, to
// prove that after a crash at any of them the uploads are still usable or the video exists.

export const CRASH_POINTS = [
  /** REST multipart: a received part was registered as a finished upload (once per file). */
  'rest:registered',
  /** Every upload of the change is verified; nothing is in the store yet. */
  'intake:verified',
  /** One upload's file is in the store (once per file). */
  'intake:linked',
  /** All files are in the store and flushed; the row is not written yet. */
  'intake:flushed',
  /** The row change has committed; the uploads are not released yet. */
  'videos:written',
  /** One upload is released (once per file). */
  'intake:released',
] as const

export type CrashPoint = (typeof CRASH_POINTS)[number]

let hook: ((point: CrashPoint) => void) | undefined

/** For the crash test's preload only. */
export function setCrashHook(fn: (point: CrashPoint) => void): void {
  hook = fn
}

export function crashPoint(point: CrashPoint): void {
  hook?.(point)
}
