// What the server and the web app agree on about the public pages (record 053): which paths
// the dashboard's app draws, how many works the landing page shows first, and where the server
// puts a page's data. No imports: the public page's first script carries this file.

/** Sign-in, password reset and the dashboard: the dashboard's app draws these; no server render. */
export const DASHBOARD_PATH = /^\/(dashboard|auth|login|reset-password)(\/|$)/

/** How many works the landing page shows first (server-rendered) and asks for at a time. */
export const LANDING_PAGE_SIZE = 12

/** The id of the `<script type="application/json">` holding a server-rendered page's data. */
export const PAGE_DATA_ID = 'page-data'
