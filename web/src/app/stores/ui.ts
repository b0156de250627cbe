// Browser-kept UI preferences: 'theme-storage' (isDarkMode) and 'sidebar-expanded'
// (docs/dashboard.md).
import { create } from 'zustand'
import { type PersistStorage, persist } from 'zustand/middleware'
import { browserStorage, followOtherTabs, safeLocalStorage } from '../lib/store.ts'

interface ThemeState {
  isDarkMode: boolean
}

// Starts from what web/public/theme.js applied before first paint (the stored choice, else the
// system's), so the first render agrees with the page.
export const useThemeStore = create<ThemeState>()(
  persist(() => ({ isDarkMode: document.documentElement.classList.contains('dark') }), {
    name: 'theme-storage',
    storage: browserStorage(),
  }),
)
followOtherTabs(useThemeStore)

export function applyTheme(isDarkMode: boolean) {
  document.documentElement.classList.toggle('dark', isDarkMode)
  document.documentElement.style.colorScheme = isDarkMode ? 'dark' : 'light'
}

export function toggleTheme() {
  const isDarkMode = !useThemeStore.getState().isDarkMode
  useThemeStore.setState({ isDarkMode })
  applyTheme(isDarkMode)
}

interface SidebarState {
  /** The kept preference. */
  expanded: boolean
  /** The small-screen drawer, never kept. */
  mobileOpen: boolean
}

type KeptSidebar = Pick<SidebarState, 'expanded'>

/** 'sidebar-expanded' holds a bare 'true' or 'false', as it always has; absent means expanded. */
const sidebarStorage: PersistStorage<KeptSidebar> = {
  getItem: (name) => ({
    state: { expanded: safeLocalStorage.getItem(name) !== 'false' },
    version: 0,
  }),
  setItem: (name, { state }) => safeLocalStorage.setItem(name, String(state.expanded)),
  removeItem: (name) => safeLocalStorage.removeItem(name),
}

export const useSidebarStore = create<SidebarState>()(
  persist<SidebarState, [], [], KeptSidebar>(() => ({ expanded: true, mobileOpen: false }), {
    name: 'sidebar-expanded',
    storage: sidebarStorage,
    partialize: ({ expanded }) => ({ expanded }),
  }),
)
followOtherTabs(useSidebarStore)

export function setSidebarExpanded(expanded: boolean) {
  useSidebarStore.setState({ expanded })
}

/** While the edit-video modal is open the sidebar and header are hidden (docs/dashboard.md). */
export const useChromeStore = create(() => ({ editModalOpen: false }))
