// Run by ffmpeg.test.ts as a child process: starts an endless ffmpeg through the processing
// module and prints "running" once ffmpeg reports progress, then waits to be killed.
import { runFfmpeg } from '../src/processing/ffmpeg.ts'

let said = false
await runFfmpeg(
  {
    inputs: [{ path: 'testsrc=size=98x56:rate=10', options: ['-re', '-f', 'lavfi'] }],
    outputs: [{ path: '-', options: ['-f', 'null'] }],
  },
  {
    timeoutMs: 120_000,
    onProgress: () => {
      if (said) return
      said = true
      console.log('running')
    },
  },
)
