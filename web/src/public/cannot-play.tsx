// Said over a player, and announced, when nothing the work has can play (player/recover.ts).
import { CANNOT_PLAY } from '@contract/public-page.ts'

export function CannotPlay() {
  return (
    <div className="pointer-events-none absolute inset-0 grid place-items-center p-6">
      <p
        role="alert"
        className="max-w-xs rounded-sm bg-ink-950/85 px-5 py-4 text-center text-paper"
      >
        {CANNOT_PLAY}
      </p>
    </div>
  )
}
