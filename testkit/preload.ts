// Loaded before every `bun test` run (bunfig.toml): what must happen once all tests are done.
import { afterAll } from 'bun:test'
import { killStrayServers } from './server.ts'

afterAll(killStrayServers)
