// What the browser keeps of the dashboard's stores (docs/dashboard.md#what-the-browser-keeps), with
// zustand's `persist`: `{"state":{…},"version":0}` under the key, the format web/public/theme.js
// reads before first paint. Storage that is full or blocked never breaks the page: the in-memory
// state still works.
import type { StoreApi } from 'zustand'
import { createJSONStorage, type StateStorage } from 'zustand/middleware'

/** localStorage, or nothing where it is missing or refuses (private modes, quota, tests). */
export const safeLocalStorage: StateStorage = {
  getItem(name) {
    try {
      return localStorage.getItem(name)
    } catch {
      return null
    }
  },
  setItem(name, value) {
    try {
      localStorage.setItem(name, value)
    } catch {
      // Not kept; still works for this visit.
    }
  },
  removeItem(name) {
    try {
      localStorage.removeItem(name)
    } catch {
      // As above.
    }
  },
}

/** The JSON storage every persisted store uses. */
export const browserStorage = <T>() => createJSONStorage<T>(() => safeLocalStorage)

interface PersistedStore {
  persist: {
    rehydrate: () => Promise<void> | void
    getOptions: () => { name?: string }
  }
}

/**
 * Another tab changed the same key (e.g. signed out there): follow it. A removed key brings the
 * store back to its initial state, as a fresh start would.
 */
export function followOtherTabs<T>(store: StoreApi<T> & PersistedStore) {
  if (typeof window === 'undefined') return
  const name = store.persist.getOptions().name
  window.addEventListener('storage', (event) => {
    if (event.key !== name) return
    if (event.newValue === null) store.setState(store.getInitialState(), true)
    else void store.persist.rehydrate()
  })
}
