import { useEffect, useState } from 'react'

/** True while `active`, and for `ms` after it ends (the overlay's 300 ms tail). */
export function useLinger(active: boolean, ms: number): boolean {
  const [shown, setShown] = useState(active)
  useEffect(() => {
    if (active) {
      setShown(true)
      return
    }
    const timer = setTimeout(() => setShown(false), ms)
    return () => clearTimeout(timer)
  }, [active, ms])
  return active || shown
}
