// Row ids are UUIDs. PostgreSQL prints them in lower case and compares them in any case, but the
// services compare them as strings too (self-delete, cached sessions, "this title is my own"), so
// every id is lowered here, once, on its way in.
import { z } from 'zod'

export const lowerId = (v: string) => v.toLowerCase()

/** A UUID, lowered; `error` is the message for anything else. */
export const uuidSchema = (error: string) => z.uuid({ error }).transform(lowerId)
