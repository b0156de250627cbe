// Display helpers for counts, dates and sizes (docs/dashboard.md#overview, #manage-videos).

/** 999 → "999", 1500 → "1.5K", 2_300_000 → "2.3M": K from 1,000, M from 1,000,000, one decimal. */
export function abbreviateCount(value: number): string {
  if (!Number.isFinite(value)) return '0'
  const sign = value < 0 ? '-' : ''
  const n = Math.abs(value)
  // Round first so 999,950 reads "1.0M", not "1000.0K".
  if (n >= 1_000_000 || Number((n / 1000).toFixed(1)) >= 1000) {
    return `${sign}${(n / 1_000_000).toFixed(1)}M`
  }
  if (n >= 1000) return `${sign}${(n / 1000).toFixed(1)}K`
  return `${sign}${Math.round(n)}`
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** en-US, short month, numeric day and year, 2-digit hour and minute; 'N/A' when missing or invalid. */
export function formatDate(value: string | number | Date | null | undefined, timeZone?: string) {
  if (value === null || value === undefined || value === '') return 'N/A'
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return 'N/A'
  const key = timeZone ?? ''
  let format = dateFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
    })
    dateFormats.set(key, format)
  }
  return format.format(date)
}

const KiB = 1024
const MiB = 1024 * KiB
const GiB = 1024 * MiB

/**
 * A file size in the unit that fits: '512 B', '40 KB', '1.5 KB', '12.34 MB', '1.50 GB'. Binary
 * units, as the limits are (2 GB is 2 GiB, 10 MB is 10 MiB). MB and GB keep two decimals, as the
 * upload previews always showed MB (docs/dashboard.md); KB shows whole kilobytes from 10 KB.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B'
  if (bytes < KiB) return `${Math.round(bytes)} B`
  if (bytes < MiB) {
    const kb = bytes / KiB
    // Rounding may reach 1024 KB: say 1.00 MB instead.
    if (Math.round(kb) >= 1024) return '1.00 MB'
    return kb < 10 ? `${trimZero(kb.toFixed(1))} KB` : `${Math.round(kb)} KB`
  }
  if (bytes < GiB && (bytes / MiB).toFixed(2) !== '1024.00') return `${(bytes / MiB).toFixed(2)} MB`
  return `${(bytes / GiB).toFixed(2)} GB`
}

const trimZero = (text: string) => text.replace(/\.0$/, '')

/** A transfer rate: '850 KB/s', '3.20 MB/s'. */
export const formatRate = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`

/**
 * Time left, rounded the way people say it: '8 s', '1 min 5 s', '12 min', '2 h 5 min'. Seconds
 * are dropped from 10 minutes on, where they only flicker.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return ''
  const total = Math.max(1, Math.round(seconds))
  if (total < 60) return `${total} s`
  const minutes = Math.floor(total / 60)
  if (minutes < 10) {
    const rest = total % 60
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`
  }
  const rounded = Math.round(total / 60)
  if (rounded < 60) return `${rounded} min`
  const hours = Math.floor(rounded / 60)
  const rest = rounded % 60
  return rest ? `${hours} h ${rest} min` : `${hours} h`
}
