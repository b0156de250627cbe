// Display helpers for counts, dates and sizes (SPEC §2 "Total Videos", §3 "Date display").

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

/** File size in MB with two decimals, as the upload previews show it. */
export function formatMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`
}
