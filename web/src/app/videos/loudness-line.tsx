// A work's loudness in its Manage row or card and in the edit dialog (docs/dashboard.md,
// "Loudness"): how loud it was mastered and how it plays on the site, in the words of
// loudness-text.ts.
import type { Video } from '../../api.ts'
import { cn } from '../lib/cn.ts'
import { trpc } from '../trpc.ts'
import { loudnessText } from './loudness-text.ts'

/** The site's reference (null: levelling off); undefined until the site's settings arrive. */
export function useLoudnessReference(): number | null | undefined {
  const site = trpc.site.get.useQuery(undefined, { staleTime: 60_000 })
  return site.data?.content.playback.loudnessReference
}

export function LoudnessLine({ video, className }: { video: Video; className?: string }) {
  const reference = useLoudnessReference()
  // Said once the file is processed: before that, nothing is known to say.
  if (video.status !== 'ready' || reference === undefined) return null
  const text = loudnessText(video.loudness, video.hasAudio, reference)
  if (!text) return null
  return (
    <p
      data-testid="loudness"
      className={cn('mt-0.5 text-xs text-zinc-500 tabular-nums dark:text-zinc-400', className)}
    >
      <span className="sr-only">Loudness: </span>
      {text.level}
      {text.warning ? (
        <span className="block text-amber-700 dark:text-amber-400">{text.warning}</span>
      ) : null}
    </p>
  )
}
