// A tiny external store with optional localStorage persistence in the `{ state, version }` shape,
// so web/public/theme.js can read 'theme-storage' before React starts.
import { useSyncExternalStore } from 'react'

export interface Store<T> {
  get(): T
  set(next: Partial<T> | ((state: T) => Partial<T>)): void
  subscribe(listener: () => void): () => void
  /** Subscribe a component to a slice; the selector must return a stable value (not a new object). */
  use<U>(selector: (state: T) => U): U
}

interface PersistOptions<T> {
  key: string
  /** Which fields are written to storage (default: all). */
  pick?: (state: T) => Partial<T>
}

function readPersisted<T>(key: string): Partial<T> {
  try {
    const raw = localStorage.getItem(key)
    if (!raw) return {}
    const parsed = JSON.parse(raw) as { state?: Partial<T> }
    return parsed && typeof parsed.state === 'object' && parsed.state ? parsed.state : {}
  } catch {
    return {}
  }
}

export function createStore<T extends object>(initial: T, persist?: PersistOptions<T>): Store<T> {
  let state: T = persist ? { ...initial, ...readPersisted<T>(persist.key) } : initial
  const listeners = new Set<() => void>()
  const emit = () => {
    for (const listener of listeners) listener()
  }

  const write = () => {
    if (!persist) return
    try {
      const picked = persist.pick ? persist.pick(state) : state
      localStorage.setItem(persist.key, JSON.stringify({ state: picked, version: 0 }))
    } catch {
      // Storage full or blocked: the in-memory state still works.
    }
  }

  if (persist && typeof window !== 'undefined') {
    // Another tab changed the same key (e.g. signed out there): follow it.
    window.addEventListener('storage', (event) => {
      if (event.key !== persist.key) return
      state = { ...initial, ...readPersisted<T>(persist.key) }
      emit()
    })
  }

  const store: Store<T> = {
    get: () => state,
    set(next) {
      const patch = typeof next === 'function' ? next(state) : next
      state = { ...state, ...patch }
      write()
      emit()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    use(selector) {
      // biome-ignore lint/correctness/useHookAtTopLevel: `use` is itself a hook, called from components
      return useSyncExternalStore(store.subscribe, () => selector(state))
    },
  }
  return store
}
