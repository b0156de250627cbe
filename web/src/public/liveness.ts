// Whether the public page's React tree is live (hydrated, its effects run). Until then the page's
// first script answers presses itself (start-ahead.ts); after, the components do. No React here.

let live = false

export function markLive(): void {
  live = true
}

export function isLive(): boolean {
  return live
}
