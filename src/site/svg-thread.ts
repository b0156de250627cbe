// Runs the SVG sanitiser (svg.ts) on a worker thread with a time limit
// (src/parser-threads/thread.ts), so no file can hold the server's main thread: jsdom and DOMPurify
// take whole seconds on a file of tens of thousands of nodes
// (docs/decisions/056-svg-logos-within-a-budget-sanitised-on-a-worker.md). Callers send one file at
// a time (the image queue in images.ts).
import { svgLimits } from '../contract/site.ts'
import { offThread } from '../parser-threads/thread.ts'
import type { SvgResult } from './svg.ts'

const sanitiser = offThread<Uint8Array, SvgResult>({
  url: new URL('./svg-worker.ts', import.meta.url),
  name: 'svg',
})

/**
 * Sanitises an SVG on the worker; 'timeout' when it took longer than `limitMs` (the worker is
 * ended, so nothing of it goes on running).
 */
export function sanitizeOnWorker(
  bytes: Uint8Array,
  limitMs: number = svgLimits.seconds * 1000,
): Promise<SvgResult | 'timeout'> {
  return sanitiser.run(bytes, limitMs)
}
