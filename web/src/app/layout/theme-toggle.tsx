// Light/dark switch, kept in 'theme-storage'.
import { buttonStyles, Icons } from '../components/ui.tsx'
import { toggleTheme, useThemeStore } from '../stores/ui.ts'

export function ThemeToggle() {
  const isDarkMode = useThemeStore((s) => s.isDarkMode)
  return (
    <button
      type="button"
      className={buttonStyles.icon}
      onClick={toggleTheme}
      aria-label={isDarkMode ? 'Switch to light theme' : 'Switch to dark theme'}
      aria-pressed={isDarkMode}
    >
      {isDarkMode ? <Icons.sun /> : <Icons.moon />}
    </button>
  )
}
