// Caption files for the captions tests, written to a folder of the test's own.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const SRT = [
  '1',
  '00:00:00,200 --> 00:00:01,000',
  'First words',
  '',
  '2',
  '00:00:01,200 --> 00:00:02,500',
  'Second <i>words</i>',
  '',
].join('\r\n')

export const VTT = 'WEBVTT\n\n00:00.300 --> 00:01.500\nBonjour\n'

/** A folder with caption files: `srt`, `vtt`, a malformed one and one over the 1 MB limit. */
export function captionFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'captions-'))
  const write = (name: string, body: string | Uint8Array) => {
    const path = join(dir, name)
    writeFileSync(path, body)
    return path
  }
  return {
    dir,
    srt: write('english.srt', `\uFEFF${SRT}`),
    // Named .txt: the content decides, not the name.
    vtt: write('french.txt', VTT),
    malformed: write(
      'broken.srt',
      '1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:05,000 --> 00:00:03,000\nB\n',
    ),
    large: write('large.vtt', `WEBVTT\n\n00:01.000 --> 00:02.000\n${'x'.repeat(1024 * 1024)}\n`),
    write,
  }
}

/** The multipart body of POST /api/videos/:id/captions. */
export function captionsForm(fields: Record<string, string>, file?: string) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  if (file) body.append('file', Bun.file(file), 'client-file.bin')
  return body
}
