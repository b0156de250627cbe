// Runs before first paint (a blocking external script: the CSP forbids inline ones).
// Reads the dashboard's persisted theme ('theme-storage', { state: { isDarkMode } }) and sets
// the `dark` class on <html>; with no stored choice it follows the system preference.
;(() => {
  let dark = false
  try {
    const raw = localStorage.getItem('theme-storage')
    const stored = raw ? JSON.parse(raw) : null
    if (stored?.state && typeof stored.state.isDarkMode === 'boolean') {
      dark = stored.state.isDarkMode
    } else {
      dark = window.matchMedia('(prefers-color-scheme: dark)').matches
    }
  } catch {
    // Unreadable storage: keep the light theme.
  }
  document.documentElement.classList.toggle('dark', dark)
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
})()
