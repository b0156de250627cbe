// Who handles "the session is gone": set once by mount.tsx (it owns the router), called by the
// tRPC link and by the tus uploads, which do not go through tRPC.
let handler: () => void = () => {}

export function setUnauthorizedHandler(next: () => void) {
  handler = next
}

export function handleUnauthorized() {
  handler()
}
