// Caption files as the site keeps them: SRT becomes WebVTT (commas to points, numbers kept as cue
// identifiers, byte order mark and CRLF gone), WebVTT is checked line by line, and every
// malformed file is refused with the line an admin would fix, before anything is stored.
import { describe, expect, test } from 'bun:test'
import { CaptionsError, CaptionsTooLarge, toWebVtt } from '../../src/captions/index.ts'
import { invalidUtf8At } from '../../src/captions/text.ts'
import { CAPTIONS_MAX_BYTES } from '../../src/contract/captions.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const refusal = (input: string | Uint8Array) => {
  try {
    toWebVtt(typeof input === 'string' ? bytes(input) : input)
  } catch (error) {
    if (error instanceof CaptionsError || error instanceof CaptionsTooLarge) return error.message
    throw error
  }
  throw new Error('accepted')
}

const SRT = [
  '1',
  '00:00:01,000 --> 00:00:04,000',
  'Hello there.',
  '',
  '2',
  '00:00:05,250 --> 00:00:07,500',
  '<i>Second</i> line',
  'and its continuation',
  '',
].join('\r\n')

describe('SRT to WebVTT', () => {
  test('the header, points for commas, cue numbers kept, CRLF and the BOM gone', () => {
    const out = toWebVtt(bytes(`\uFEFF${SRT}`))
    expect(out.converted).toBe(true)
    expect(out.cues).toBe(2)
    expect(out.text).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nHello there.\n\n2\n00:00:05.250 --> 00:00:07.500\n<i>Second</i> line\nand its continuation\n',
    )
  })

  test('detected by its content, whatever the name: cues without numbers, one-digit hours', () => {
    const out = toWebVtt(bytes('0:00:01,000 --> 0:00:02,000\nA\n\n0:00:03,000 --> 0:00:04,000\nB'))
    expect(out.text).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n\n00:00:03.000 --> 00:00:04.000\nB\n',
    )
  })

  test('SubRip coordinates after the timing are dropped; old Mac line ends (CR) read too', () => {
    const out = toWebVtt(bytes('1\r00:00:01,000 --> 00:00:02,000 X1:10 X2:20 Y1:5 Y2:9\rA\r'))
    expect(out.text).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nA\n')
  })

  test.each([
    [
      'a cue that ends before it starts, named as the SRT has it',
      '1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n\n3\n00:00:05,000 --> 00:00:02,000\nC\n',
      'Line 10: the cue timing "00:00:05,000 --> 00:00:02,000" ends before it starts',
    ],
    [
      'a timing with a bad time',
      '1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:03,00 --> 00:00:04,000\nB\n',
      'Line 6: the time "00:00:03,00" is not valid: write it as mm:ss.ttt or hh:mm:ss.ttt',
    ],
    [
      'a missing blank line between cues',
      '1\n00:00:01,000 --> 00:00:02,000\nA\n2\n00:00:03,000 --> 00:00:04,000\nB\n',
      'Line 5: cue text cannot contain "-->": is a blank line missing before this cue?',
    ],
    [
      'a number without its timing',
      '1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\nB\n',
      'Line 6: expected a cue timing such as "00:00:01.000 --> 00:00:04.000", found "B"',
    ],
  ])('refused: %s', (_, srt, message) => {
    expect(refusal(srt)).toBe(message)
  })
})

describe('WebVTT', () => {
  test('kept as given: hours optional, cue settings, NOTE, REGION and identifiers tolerated', () => {
    const vtt = [
      'WEBVTT - a title',
      'Kind: captions',
      '',
      'REGION',
      'id:fred width:40%',
      '',
      'NOTE made by hand',
      '',
      'intro',
      '00:01.000 --> 00:04.000 align:start line:90%',
      'Hi',
      '',
      '01:00:00.000 --> 01:00:02.500',
      '<v Anna>Later',
    ].join('\r\n')
    const out = toWebVtt(bytes(vtt))
    expect(out.converted).toBe(false)
    expect(out.cues).toBe(2)
    expect(out.text).toBe(`${vtt.replaceAll('\r\n', '\n')}\n`)
  })

  test('STYLE blocks are dropped (their CSS may load other addresses); the rest is kept as given', () => {
    const out = toWebVtt(
      bytes(
        [
          'WEBVTT',
          '',
          'STYLE',
          "@import url('https://tracker.example/a.css');",
          '',
          'STYLE ',
          '::cue { background-image: url(https://tracker.example/b.png) }',
          '::cue(b) { color: red }',
          '',
          'NOTE kept',
          '',
          '00:01.000 --> 00:02.000',
          'STYLE is only text here',
          '',
          'STYLE',
          '00:03.000 --> 00:04.000',
          'a cue whose identifier is STYLE',
          '',
        ].join('\n'),
      ),
    )
    expect(out.cues).toBe(2)
    expect(out.text).toBe(
      [
        'WEBVTT',
        '',
        'NOTE kept',
        '',
        '00:01.000 --> 00:02.000',
        'STYLE is only text here',
        '',
        'STYLE',
        '00:03.000 --> 00:04.000',
        'a cue whose identifier is STYLE',
        '',
      ].join('\n'),
    )
    expect(out.text).not.toContain('@import')
    expect(out.text).not.toContain('url(')
  })

  test('an SRT file’s STYLE block goes too', () => {
    const out = toWebVtt(
      bytes(
        '1\n00:00:01,000 --> 00:00:02,000\nA\n\nSTYLE\n::cue { background: url(https://x.example/) }\n',
      ),
    )
    expect(out.converted).toBe(true)
    expect(out.text).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nA\n')
  })

  test.each([
    ['no header', 'Hello\n', 'Line 1: the file is neither WebVTT'],
    ['a lower-case header', 'webvtt\n\n00:01.000 --> 00:02.000\nA', 'Line 1:'],
    ['a header glued to text', 'WEBVTTX\n\n00:01.000 --> 00:02.000\nA', 'Line 1:'],
    [
      'a cue right under the header',
      'WEBVTT\n00:01.000 --> 00:02.000\nA',
      'Line 2: a blank line must separate the header from the first cue',
    ],
    [
      'an end before the start',
      'WEBVTT\n\n00:00:05.000 --> 00:00:02.000\nA',
      'Line 3: the cue timing "00:00:05.000 --> 00:00:02.000" ends before it starts',
    ],
    [
      'an end equal to the start',
      'WEBVTT\n\n00:02.000 --> 00:02.000\nA',
      'Line 3: the cue timing "00:02.000 --> 00:02.000" ends as it starts',
    ],
    [
      'a comma in a WebVTT time',
      'WEBVTT\n\n00:00:01,000 --> 00:00:02.000\nA',
      'Line 3: the time "00:00:01,000" is not valid',
    ],
    ['minutes past 59', 'WEBVTT\n\n00:60.000 --> 01:02.000\nA', 'Line 3: the time "00:60.000"'],
    ['seconds past 59', 'WEBVTT\n\n00:01.000 --> 00:61.000\nA', 'Line 3: the time "00:61.000"'],
    [
      'two-digit milliseconds',
      'WEBVTT\n\n00:01.00 --> 00:02.000\nA',
      'Line 3: the time "00:01.00"',
    ],
    ['a one-digit hour', 'WEBVTT\n\n0:00:01.000 --> 0:00:02.000\nA', 'Line 3: the time'],
    [
      'no spaces around the arrow',
      'WEBVTT\n\n00:01.000-->00:02.000\nA',
      'Line 3: the cue timing "00:01.000-->00:02.000" is not valid',
    ],
    [
      'an arrow with no end',
      'WEBVTT\n\n00:01.000 -->\nA',
      'Line 3: the cue timing "00:01.000 -->" is not valid',
    ],
    [
      'an identifier without a timing line',
      'WEBVTT\n\nintro\nHello',
      'Line 4: expected a cue timing such as "00:00:01.000 --> 00:00:04.000", found "Hello"',
    ],
    [
      'an identifier alone',
      'WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\nlonely',
      'Line 6: the cue "lonely" has no timing line',
    ],
    [
      'an arrow inside cue text',
      'WEBVTT\n\n00:01.000 --> 00:02.000\nA --> B',
      'Line 4: cue text cannot contain "-->"',
    ],
    [
      'an arrow inside a NOTE',
      'WEBVTT\n\nNOTE this --> that\n\n00:01.000 --> 00:02.000\nA',
      'Line 3: a NOTE cannot contain "-->"',
    ],
    ['no cue at all', 'WEBVTT\n\nNOTE nothing yet\n', 'The file holds no cues'],
  ])('refused: %s', (_, vtt, message) => {
    expect(refusal(vtt)).toStartWith(message)
  })

  test('a long line is quoted cut short, and stray spaces do not leak into the message', () => {
    const message = refusal(`WEBVTT\n\n00:01.000 --> ${'9'.repeat(200)}\nA`)
    expect(message.length).toBeLessThan(160)
    expect(message).toStartWith('Line 3: the time "999')
  })
})

describe('text, not binary', () => {
  test('an empty file', () => {
    expect(refusal(new Uint8Array())).toBe('The file is empty')
  })

  test('invalid UTF-8 is refused with its line (Latin-1 bytes, a cut sequence, an overlong one)', () => {
    const latin1 = Uint8Array.from([...bytes('WEBVTT\n\n00:01.000 --> 00:02.000\nCaf'), 0xe9])
    expect(refusal(latin1)).toBe('Line 4: the text is not UTF-8')
    expect(invalidUtf8At(Uint8Array.from([0x41, 0xe2, 0x82]))).toBe(1)
    expect(invalidUtf8At(Uint8Array.from([0xc0, 0xaf]))).toBe(0)
    expect(invalidUtf8At(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0)
    expect(invalidUtf8At(bytes('Grüße – 字幕 🎬'))).toBe(-1)
  })

  test('NUL and other control bytes are binary, refused with their line', () => {
    expect(refusal('WEBVTT\n\n00:01.000 --> 00:02.000\nA\u0000B')).toBe(
      'Line 4: the file holds binary data, not text',
    )
    expect(refusal(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toStartWith(
      'Line 1:',
    )
  })

  test('UTF-16 is named as such', () => {
    expect(refusal(Uint8Array.from([0xff, 0xfe, 0x57, 0x00]))).toBe(
      'The file is UTF-16 text: save it as UTF-8',
    )
  })

  test('the size is bounded before anything is parsed', () => {
    const big = new Uint8Array(CAPTIONS_MAX_BYTES + 1).fill(0xff)
    expect(refusal(big)).toBe('Captions must be at most 1 MB')
    // Exactly at the limit is read (and here refused for its content, not its size).
    expect(refusal(new Uint8Array(CAPTIONS_MAX_BYTES).fill(0x41))).toStartWith('Line 1:')
  })

  test('unicode text survives the conversion byte for byte', () => {
    const out = toWebVtt(bytes('1\n00:00:01,000 --> 00:00:02,000\nGrüße – 字幕 🎬\n'))
    expect(out.text).toContain('Grüße – 字幕 🎬')
  })
})
