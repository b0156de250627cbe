// While `when` holds, closing or reloading the tab asks first (the browser's own question).
import { useEffect } from 'react'

export function useLeaveWarning(when: boolean) {
  useEffect(() => {
    if (!when) return
    const ask = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', ask)
    return () => window.removeEventListener('beforeunload', ask)
  }, [when])
}
