import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { diskStorage } from '../../src/storage/disk.ts'
import { storageContract } from '../../testkit/storage-contract.ts'

let dir: string
storageContract(
  'disk',
  async () => {
    dir = await mkdtemp(join(tmpdir(), 'storage-disk-'))
    return diskStorage(join(dir, 'media'), join(dir, 'tmp'))
  },
  async () => {
    await rm(dir, { recursive: true, force: true })
  },
)
