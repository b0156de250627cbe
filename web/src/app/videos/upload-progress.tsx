// The upload page's status while sending: the progress bar with its percentage, the bytes
// sent, the speed and the time left, and, when the connection drops, that the upload is paused
// and will go on by itself. Lives in the form's sticky bar, so it is on screen at any scroll.
import { ProgressBar } from '../components/ui.tsx'
import { formatBytes, formatDuration, formatRate } from '../lib/format.ts'

export const PAUSED_MESSAGE = 'Connection lost — the upload is paused and will resume automatically'

export interface UploadStatus {
  phase: 'uploading' | 'saving'
  sent: number
  total: number
  /** Bytes per second, when measured. */
  rate: number | null
  secondsLeft: number | null
  paused: boolean
}

export function UploadProgress({ status, percent }: { status: UploadStatus; percent: number }) {
  const { phase, sent, total, rate, secondsLeft, paused } = status
  const uploading = phase === 'uploading' && !paused
  return (
    <div className="space-y-2">
      <ProgressBar value={percent} label="Upload progress" />
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-zinc-700 tabular-nums dark:text-zinc-300">
        <span>
          {formatBytes(sent)} of {formatBytes(total)}
        </span>
        {uploading && rate !== null ? <span>{formatRate(rate)}</span> : null}
        {uploading && secondsLeft !== null ? <span>{formatDuration(secondsLeft)} left</span> : null}
      </p>
      {/* Always in the page, so that a change is announced. */}
      <p
        role="status"
        className={
          paused
            ? 'rounded-md bg-amber-100 px-3 py-2 font-medium text-amber-950 text-sm dark:bg-amber-950 dark:text-amber-100'
            : 'text-sm text-zinc-700 dark:text-zinc-300'
        }
      >
        {paused ? PAUSED_MESSAGE : phase === 'saving' ? 'Saving the video...' : ''}
      </p>
    </div>
  )
}
