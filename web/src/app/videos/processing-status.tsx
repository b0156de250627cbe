// A video's processing state in its Manage row or card (docs/media.md): progress while it is worked
// on, with the rungs its growing stream can already play, 'Queued' while it waits, the reason and a
// Retry action when it failed, and quietly its length and size once ready.
import type { Video } from '../../api.ts'
import { icon, Meter, wholePercent } from '../components/ui.tsx'
import { growingOf, rungsLine } from '../lib/growing.ts'
import { formatDuration } from './processing.ts'

type Props = {
  video: Video
  onRetry: (video: Video) => void
  /** This video's retry is on its way to the server. */
  retrying: boolean
}

const RetryIcon = icon('M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7')

export function ProcessingStatus({ video, onRetry, retrying }: Props) {
  switch (video.status) {
    case 'processing': {
      const value = wholePercent(video.progress ?? 0)
      const growing = growingOf(video)
      return (
        <div className="mt-1.5 flex max-w-64 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300">
          <Meter
            label={`Processing ${video.title}`}
            value={value}
            className="h-1.5 min-w-16 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-ink-700"
            fillClassName="h-full rounded-full bg-accent transition-[width] duration-500 motion-reduce:transition-none"
          />
          <span aria-hidden="true" className="shrink-0 tabular-nums">
            Processing {value}%
          </span>
          {growing ? <p className="basis-full">{rungsLine(growing)}</p> : null}
        </div>
      )
    }
    case 'queued':
      return (
        <p className="mt-1.5">
          <span className="inline-flex items-center gap-1.5 rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-ink-800 dark:text-zinc-300">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-zinc-400" />
            Queued
          </span>
        </p>
      )
    case 'failed':
      return (
        <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
          <p className="min-w-0 break-words text-red-700 dark:text-red-400">
            <span className="font-medium">Processing failed</span>
            {video.error ? `: ${video.error}` : ''}
          </p>
          {/* A 44 px target where the Manage cards show it (below md), as every card action. */}
          <button
            type="button"
            onClick={() => onRetry(video)}
            disabled={retrying}
            aria-label={`Retry ${video.title}`}
            className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md border border-zinc-300 px-2 py-0.5 font-medium md:min-h-0 md:min-w-0 text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-50 dark:border-ink-700 dark:text-zinc-100 dark:hover:bg-ink-800"
          >
            <RetryIcon className="size-3.5" /> {retrying ? 'Retrying...' : 'Retry'}
          </button>
        </div>
      )
    case 'ready':
      // Nothing noisy: the length and the master's size, for the admin's own check.
      return video.duration ? (
        <p className="mt-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
          <span className="sr-only">Ready, </span>
          {formatDuration(video.duration)}
          {video.width && video.height ? ` · ${video.width}×${video.height}` : ''}
        </p>
      ) : null
    default:
      return null
  }
}
