// Live title uniqueness check as the user types (docs/dashboard.md): a tRPC query on the title once
// typing has paused for TITLE_CHECK_DELAY_MS. Only an answer for the title now in the field counts.
import { useEffect, useState } from 'react'
import { trpc } from '../trpc.ts'

export const TITLE_CHECK_DELAY_MS = 400

/** `value`, once it has stayed the same for `delayMs`. */
function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return settled
}

export function useTitleCheck(title: string, options: { excludeId?: string; skip?: boolean } = {}) {
  const { excludeId, skip = false } = options
  const trimmed = title.trim()
  const settled = useSettled(trimmed, TITLE_CHECK_DELAY_MS)
  const current = !skip && settled !== '' && settled === trimmed
  const check = trpc.videos.checkTitle.useQuery(
    excludeId ? { title: settled, excludeId } : { title: settled },
    // A failed check never blocks the form: the server checks again on save.
    { enabled: current, retry: false },
  )
  return current && check.data?.available === false
}
