// Live title uniqueness check as the user types (debounced; only the latest answer counts).
import { useEffect, useState } from 'react'
import { trpc } from '../trpc.ts'

export const TITLE_CHECK_DELAY_MS = 400

export function useTitleCheck(title: string, options: { excludeId?: string; skip?: boolean } = {}) {
  const utils = trpc.useUtils()
  const [taken, setTaken] = useState(false)
  const trimmed = title.trim()
  const { excludeId, skip = false } = options

  useEffect(() => {
    setTaken(false)
    if (skip || !trimmed) return
    let current = true
    const timer = setTimeout(() => {
      utils.client.videos.checkTitle
        .query(excludeId ? { title: trimmed, excludeId } : { title: trimmed })
        .then((answer) => {
          if (current) setTaken(answer.available === false)
        })
        // A failed check never blocks the form: the server checks again on save.
        .catch(() => undefined)
    }, TITLE_CHECK_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [trimmed, excludeId, skip, utils])

  return taken
}
