// The files a video row names: the columns each uploaded kind is written to, and the stored
// names a row holds (what a delete removes and the start-up sweep keeps).
import type { videos } from '../../db/schema.ts'
import type { FileKind } from '../contract/file-rules.ts'
import type { Adopted } from '../uploads/intake.ts'
import type { ViewRow } from './views.ts'

// The columns each file kind lives in.
const COLUMNS = {
  video: { key: 'videoKey', type: 'videoType', size: 'videoSize' },
  thumbnail: { key: 'thumbnailKey', type: 'thumbnailType', size: 'thumbnailSize' },
  brandLogo: { key: 'brandLogoKey', type: 'brandLogoType', size: 'brandLogoSize' },
} as const

type FileColumns = Partial<
  Pick<typeof videos.$inferInsert, (typeof COLUMNS)[FileKind][keyof (typeof COLUMNS)[FileKind]]>
>

export function fileColumns(adopted: Adopted[]): FileColumns {
  const set: FileColumns = {}
  for (const file of adopted) {
    const columns = COLUMNS[file.kind]
    set[columns.key] = file.name
    set[columns.type] = file.type
    set[columns.size] = file.size
  }
  return set
}

export const keysOf = (row: Pick<ViewRow, 'videoKey' | 'thumbnailKey' | 'brandLogoKey'>) => [
  row.videoKey,
  row.thumbnailKey,
  row.brandLogoKey,
]
