// The store the configuration asks for: the bucket when S3_BUCKET is set, else DATA_DIR's disk.
import { join } from 'node:path'
import type { Config } from '../config.ts'
import { diskStorage } from './disk.ts'
import { s3Storage } from './s3.ts'
import type { Storage } from './types.ts'

export function createStorage(config: Config): Storage {
  if (config.s3) return s3Storage(config.s3)
  return diskStorage(join(config.dataDir, 'media'), join(config.dataDir, 'tmp'))
}
