// `bun run db:migrate`: apply pending migrations to the configured database and exit.
import { loadConfig } from '../src/config.ts'
import { openDatabase, runMigrations } from '../src/db/database.ts'

const config = loadConfig()
const database = await openDatabase(config)
try {
  await runMigrations(database)
  console.log(`Migrations applied (${database.embedded ? 'embedded database' : 'DATABASE_URL'}).`)
} finally {
  await database.close()
}
