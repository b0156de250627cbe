// Browser-kept UI preferences: 'theme-storage' (isDarkMode) and 'sidebar-expanded' (SPEC §3).
import { createStore } from '../lib/store.ts'

export const themeStore = createStore(
  { isDarkMode: document.documentElement.classList.contains('dark') },
  { key: 'theme-storage' },
)

export function applyTheme(isDarkMode: boolean) {
  document.documentElement.classList.toggle('dark', isDarkMode)
  document.documentElement.style.colorScheme = isDarkMode ? 'dark' : 'light'
}

export function toggleTheme() {
  const isDarkMode = !themeStore.get().isDarkMode
  themeStore.set({ isDarkMode })
  applyTheme(isDarkMode)
}

const SIDEBAR_KEY = 'sidebar-expanded'

function readSidebar(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_KEY) !== 'false'
  } catch {
    return true
  }
}

/** `expanded` is the kept preference; `mobileOpen` is the small-screen drawer, never kept. */
export const sidebarStore = createStore({ expanded: readSidebar(), mobileOpen: false })

export function setSidebarExpanded(expanded: boolean) {
  sidebarStore.set({ expanded })
  try {
    localStorage.setItem(SIDEBAR_KEY, String(expanded))
  } catch {
    // Not kept; still works for this visit.
  }
}

/** While the edit-video modal is open the sidebar and header are hidden (SPEC §2 Layout). */
export const chromeStore = createStore({ editModalOpen: false })
